// Package engine wires one workspace's parts together (root, store,
// indexer, search) so that the CLI and the MCP server share one way of
// opening and querying a workspace.
package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/workspace"
)

// Options say where the workspace and its index are.
type Options struct {
	Root      string // workspace directory; "" means the current directory
	IndexPath string // "" means DefaultIndexPath(root)
	Index     index.Options
}

// Engine is an open workspace.
type Engine struct {
	Root    *workspace.Root
	Store   *store.Store
	Indexer *index.Indexer
	// Reranker overrides the built-in reranker when set.
	Reranker rerank.Reranker
	// Describer answers structure from the compiler when set; without it
	// the index answers syntactically and says so.
	Describer Describer
	// Navigator answers references, implementations and definitions from
	// the compiler when set.
	Navigator Navigator
	// Neural holds the configured embedder, vector index and reranker
	// (nil, or empty, without models).
	Neural *Neural

	compiler  compilerBox
	parsed    parsedFiles
	described describeCache
}

// Open opens (creating if needed) the index of a workspace.
func Open(opt Options) (*Engine, error) {
	dir := opt.Root
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("open workspace: %w", err)
		}
		dir = wd
	}
	root, err := workspace.NewRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	path := opt.IndexPath
	if path == "" {
		if path, err = DefaultIndexPath(root.Dir()); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open index for %s: %w", root.Dir(), err)
	}
	return &Engine{Root: root, Store: st, Indexer: index.New(root, st, opt.Index)}, nil
}

// Sync brings the index up to date with the workspace.
func (e *Engine) Sync(ctx context.Context) (index.Summary, error) {
	return e.SyncProgress(ctx, nil)
}

// SyncProgress is Sync with a progress callback; it also tells the
// TypeScript server which files changed on disk, since it does not watch.
func (e *Engine) SyncProgress(ctx context.Context, progress func(done, total int)) (index.Summary, error) {
	sum, err := e.Indexer.SyncProgress(ctx, progress)
	if len(sum.Changed) > 0 {
		e.described.clear()
	}
	if err == nil {
		// New and changed chunks get their vectors before anyone searches.
		if _, eerr := e.Neural.EmbedPending(ctx, e.Store, progress); eerr != nil {
			err = eerr
		}
	}
	if comp := e.Compiler(); comp != nil && len(sum.Changed) > 0 {
		added := map[string]bool{}
		for _, rel := range sum.Added {
			added[rel] = true
		}
		// A configured project re-reads its file list only for files
		// reported as created.
		var created []tsls.FileEvent
		var changed []string
		for _, rel := range sum.Changed {
			abs := filepath.Join(e.Root.Dir(), filepath.FromSlash(rel))
			if added[rel] {
				created = append(created, tsls.FileEvent{Path: abs, Type: tsls.FileCreated})
			} else {
				changed = append(changed, abs)
			}
		}
		if len(created) > 0 {
			comp.srv.NotifyFileEvents(ctx, created)
		}
		if len(changed) > 0 {
			comp.srv.FilesChanged(ctx, changed...)
		}
		e.updateProgram(ctx, comp)
	}
	return sum, err
}

// nav is the navigator in use: the configured one, the compiler, or none.
func (e *Engine) nav() Navigator {
	if e.Navigator != nil {
		return e.Navigator
	}
	if e.Compiler() != nil {
		return compilerNav{e}
	}
	return nil
}

// Close releases the index.
func (e *Engine) Close() error {
	e.parsed.close()
	e.Neural.Close()
	return e.Store.Close()
}

// DefaultIndexPath is where a workspace's index lives unless told otherwise:
// the user cache directory, keyed by a hash of the root's real path, so that
// scry never writes into the workspace itself.
func DefaultIndexPath(root string) (string, error) {
	base := os.Getenv("SCRY_CACHE_DIR")
	if base == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("index location: %w (use --index)", err)
		}
		base = filepath.Join(d, "scry")
	}
	h := sha256.Sum256([]byte(root))
	return filepath.Join(base, "indexes", hex.EncodeToString(h[:8]), "index.db"), nil
}
