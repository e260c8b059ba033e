package engine

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/snapshot"
	"github.com/scry-dev/scry/internal/weaviate"
)

// View is what a question needs from the engine: the reads of one index,
// handed out per question by Engine.View. It is the seam between the
// state the engine holds (indexes, models, compiler, caches) and the code
// that assembles answers, which reads through it alone. Two implement it:
// localView over the workspace's SQLite index (re-synced on demand, its
// files read from disk, structure from the compiler when attached) and
// sharedView over the repositories of the shared index (file texts as
// indexed, structure from a checkout where the server has one).
type View interface {
	// Index is what the index holds: chunks, symbols, full text.
	Index() search.Reader
	// Search runs the ranking pipeline (lexical, vectors, reranker) over
	// the index.
	Search(ctx context.Context, req search.Request) (search.Response, error)
	// Snapshot is a file's smart snapshot around targets, built from the
	// version of the file its chunks were indexed from; a local file
	// edited since fails with snapshot.ErrStale.
	Snapshot(file string, targets []snapshot.Target) (string, error)
	// DescribeAll describes results for the connection graph, best first,
	// by chunk ID; a local view starts none past the first wanted.
	DescribeAll(ctx context.Context, results []search.Result, callDepth int, wanted *atomic.Int64) (map[string]graph.Result, error)
	// Resync brings the index up to date after a stale snapshot; false
	// when the view has nothing to re-sync (the shared index is the
	// versions its chunks came from).
	Resync(ctx context.Context) (bool, error)
}

// View hands out the reads for one question: of the shared index's
// repositories (repos, else the configured ones) on a shared-index
// engine, else of the local index.
func (e *Engine) View(ctx context.Context, repos []string) (View, error) {
	if e.shared == nil {
		return localView{e}, nil
	}
	rd, err := e.sharedReader(ctx, repos)
	if err != nil {
		return nil, err
	}
	return sharedView{e, rd}, nil
}

// localView reads the workspace's own index.
type localView struct{ e *Engine }

func (v localView) Index() search.Reader { return v.e.store }

func (v localView) Search(ctx context.Context, req search.Request) (search.Response, error) {
	pl := search.Pipeline{Store: v.e.store, Reranker: v.e.reranker, Hybrid: v.e.neural.Hybrid()}
	return pl.Search(ctx, req)
}

func (v localView) Snapshot(file string, targets []snapshot.Target) (string, error) {
	abs, _, err := v.e.root.Resolve(file)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", file, err)
	}
	return v.e.parsed.build(file, abs, v.e.readFile, targets)
}

func (v localView) DescribeAll(ctx context.Context, results []search.Result, callDepth int, wanted *atomic.Int64) (map[string]graph.Result, error) {
	return v.e.describeAll(ctx, results, callDepth, wanted)
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

func (v sharedView) Index() search.Reader { return v.rd }

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
