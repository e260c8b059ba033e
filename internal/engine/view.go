package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/snapshot"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/workspace"
)

// ErrReposOnLocalIndex: a question named repositories of a shared index
// of an engine that reads one local workspace.
var ErrReposOnLocalIndex = errors.New("repositories are read from a shared index; this engine reads one local workspace")

// View hands out the reads for one question: of the shared index's
// repositories (repos, else the configured ones) on a shared-index
// engine, else of the local index (which has no repositories to name).
func (e *Engine) View(ctx context.Context, repos []string) (answer.View, error) {
	if e.shared == nil {
		if len(repos) > 0 {
			return nil, ErrReposOnLocalIndex
		}
		return localView{e: e}, nil
	}
	rd, err := e.sharedReader(ctx, repos)
	if err != nil {
		return nil, err
	}
	return sharedView{e, rd}, nil
}

// Local hands out the local form of a View, which the structure
// questions read: the workspace's own index, or on a shared index this
// machine's checkout of its one repository (ErrNeedsLocalIndex where
// there is none).
func (e *Engine) Local(ctx context.Context) (answer.Local, error) {
	local, err := e.LocalEngine(ctx)
	if err != nil {
		return answer.Local{}, err
	}
	return local.localReads(), nil
}

// localView reads the workspace's own index. Snapshots come from the
// files on disk; fromIndex makes them come from the index when the file
// cannot give them even if it is only stale (the last attempt of a
// question whose file keeps changing).
type localView struct {
	e         *Engine
	fromIndex bool
}

func (v localView) Search(ctx context.Context, req search.Request) (search.Response, error) {
	pl := v.e.localReads().Pipeline
	return pl.Search(ctx, req)
}

func (v localView) Snapshot(file string, targets []snapshot.Target) (string, error) {
	abs, _, err := v.e.root.Resolve(file)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", file, err)
	}
	text, err := v.e.parsed.build(file, abs, v.e.localReads().ReadFile, targets)
	if err == nil || errors.Is(err, snapshot.ErrStale) && !v.fromIndex {
		// A stale file is synced and the question asked again, for an
		// answer from its new version (Engine.Search).
		return text, err
	}
	// The file was deleted, replaced by something that is not a file,
	// or edited again after every re-sync: answer from the version the
	// index holds, whose chunks selected the targets. An answer during
	// edits is then the old version or the new one, never an error.
	if text, ierr := v.e.indexedSnapshot(file, targets); ierr == nil {
		return text, nil
	}
	return text, err
}

func (v localView) DescribeAll(ctx context.Context, results []search.Result, callDepth int, wanted *atomic.Int64) (map[string]graph.Result, error) {
	return v.e.localReads().DescribeAll(ctx, results, callDepth, wanted)
}

func (v localView) Resync(ctx context.Context) (bool, error) {
	_, err := v.e.Sync(ctx)
	return true, err
}

// sharedView reads repositories of the shared index.
type sharedView struct {
	e  *Engine
	rd *weaviate.Reader
}

func (v sharedView) Search(ctx context.Context, req search.Request) (search.Response, error) {
	pl := search.Pipeline{Store: v.rd, Reranker: v.e.reranker, Hybrid: v.e.neural.SharedHybrid(v.rd)}
	return pl.Search(ctx, req)
}

func (v sharedView) Snapshot(file string, targets []snapshot.Target) (string, error) {
	return sharedSnapshot(v.rd, file, targets)
}

func (v sharedView) DescribeAll(ctx context.Context, results []search.Result, callDepth int, _ *atomic.Int64) (map[string]graph.Result, error) {
	return v.e.describeAllShared(ctx, v.rd, results, callDepth)
}

func (v sharedView) Resync(context.Context) (bool, error) { return false, nil }

// indexedSnapshot is the snapshot of file for targets as the index holds
// the file: its root chunks' sources at their lines (chunks cover every
// line that is not blank). When the index has moved on since the targets
// were selected, the targets' own sources make the text instead: the
// snapshot then shows the selected code alone, still from one version.
func (e *Engine) indexedSnapshot(file string, targets []snapshot.Target) (string, error) {
	chunks, err := e.store.ChunksByFile(file)
	if err != nil {
		return "", fmt.Errorf("snapshot %s from the index: %w", file, err)
	}
	var roots []linesPiece
	for _, c := range chunks {
		if c.ParentChunkID == "" {
			roots = append(roots, linesPiece{c.StartLine, c.EndLine, c.FullSource})
		}
	}
	if text, err := snapshot.Build(file, piecesText(roots), targets); err == nil {
		return text, nil
	}
	own := make([]linesPiece, len(targets))
	for i, t := range targets {
		own[i] = linesPiece{t.StartLine, t.EndLine, t.Source}
	}
	return snapshot.Build(file, piecesText(own), targets)
}

// linesPiece is text that stands at lines start to end of a file.
type linesPiece struct {
	start, end int
	text       string
}

// piecesText is a file's text made of pieces at their lines, blank lines
// between them; a piece inside one already placed is left out.
func piecesText(pieces []linesPiece) []byte {
	slices.SortFunc(pieces, func(a, b linesPiece) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var b strings.Builder
	line := 1
	for _, p := range pieces {
		if p.start < line || p.end < p.start {
			continue
		}
		b.WriteString(strings.Repeat("\n", p.start-line))
		b.WriteString(p.text)
		b.WriteByte('\n')
		line = p.end + 1
	}
	return []byte(b.String())
}

// localReads is the engine's local index as it stands (Rebuild replaces
// the store), for the questions that read it.
func (e *Engine) localReads() answer.Local {
	limit := int64(workspace.DefaultMaxFileSize)
	if e.indexer != nil {
		limit = e.indexer.ReadLimit()
	}
	return answer.Local{
		Store: e.store, Root: e.root, ReadLimit: limit, Exclude: e.conf().Exclude,
		Pipeline: search.Pipeline{Store: e.store, Reranker: e.reranker, Hybrid: e.neural.Hybrid()},
		Compiler: func(ctx context.Context) (*structure.Compiler, string) {
			comp, reason := e.awaitCompiler(ctx)
			if comp == nil {
				return nil, reason
			}
			return comp.res, ""
		},
		Described: &e.described,
	}
}
