// Package engine wires one workspace's parts together (root, configuration,
// store, indexer, models, compiler) so that the CLI and the MCP server share
// one way of opening and querying a workspace. Open is the only place the
// parts are put together. The engine holds the state (indexes, models,
// compiler, caches) and keeps it in sync; the questions are answered in
// internal/answer from what it hands out per question: a View (Search) or
// its local form (Local).
package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/cachedir"
	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/watch"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/workspace"
)

// CompilerMode says whether and how Open attaches the TypeScript 7 server.
type CompilerMode int

const (
	// CompilerOff answers structure from the index alone (approximate).
	CompilerOff CompilerMode = iota
	// CompilerWait starts the server and waits until its project is
	// loaded, so the first answer already comes from the compiler.
	CompilerWait
	// CompilerBackground starts the server without waiting; answers come
	// from the index until it is ready, then from the compiler.
	CompilerBackground
)

// Options say which workspace to open and which parts to attach.
type Options struct {
	Root      string // workspace directory; "" means the current directory
	IndexPath string // "" means DefaultIndexPath(root)

	// Getenv supplies the SCRY_* settings and API keys; nil is os.Getenv.
	Getenv func(string) string
	// Configure lays the front end's own settings (its flags) over the
	// configuration loaded from the workspace's .scry.toml and the
	// environment; the result is then validated and used for everything
	// Open attaches. Nil keeps the loaded configuration.
	Configure func(*config.Config) error
	// KeepBrokenConfig makes a configuration that does not load or does not
	// validate a report (ConfigErr) rather than a failure of Open: the
	// engine then runs on what could be read. Only diagnostics want this.
	KeepBrokenConfig bool

	// Models opens the configured embedder and reranker.
	Models bool
	// Sync brings the index up to date before Open returns (LastSync has
	// the summary). The compiler is told about the indexed files, so
	// CompilerWait implies it.
	Sync bool
	// Compiler attaches the TypeScript 7 server.
	Compiler CompilerMode
	// Watch follows file changes as they happen (a long-running server):
	// a sync then examines only the changed files. Where watching is not
	// possible, Warn hears why and every sync scans the tree.
	Watch bool
	// Publish: with the weaviate backend, keep the local index too, so
	// that Publish can fill the repository's tenant from it. Without it a
	// weaviate-backed engine is stateless: it opens no local index and
	// reads the cluster alone (Models, Sync and Compiler are ignored).
	Publish bool
	// LocalIndex: the front end asks questions only a local index answers
	// (the structure commands). With the weaviate backend, Open then opens
	// this machine's checkout of the one configured repository instead
	// (config Weaviate.Checkouts), and fails with ErrNeedsLocalIndex where
	// there is none.
	LocalIndex bool
	// CacheDir is where `scry setup` puts TypeScript 7; "" is CacheDir().
	CacheDir string

	// Progress receives indexing and embedding progress of every sync
	// that is not given its own callback.
	Progress func(done, total int)
	// Warn receives non-fatal problems: a compiler that could not be
	// started (wrapped around ErrApproximate), a query that could not be
	// embedded. Nil discards them.
	Warn func(error)
}

// ErrApproximate wraps the reason structure answers come from the index
// rather than the compiler.
var ErrApproximate = errors.New("structure is approximate")

// Engine is an open workspace.
type Engine struct {
	root    *workspace.Root
	store   *store.Store
	indexer *index.Indexer
	// indexOpts are the indexer's options, kept for Rebuild.
	indexOpts index.Options
	// cfgMu guards cfg, cfgErr, indexOpts and loadedStamp, which
	// ReloadConfig replaces.
	cfgMu  sync.RWMutex
	cfg    config.Config
	cfgErr error
	// reranker overrides the built-in reranker when set.
	reranker rerank.Reranker
	// neural holds the configured embedder, vector index and reranker
	// (nil without models).
	neural   *neural
	progress func(done, total int)
	lastSync index.Summary

	// shared is the cluster holding the shared index (backend weaviate).
	shared *weaviate.Client

	compiler     compilerBox
	stopCompiler func()
	// checkouts are the shared index's repositories this machine has on
	// disk, by name (a stateless shared-index engine only).
	checkouts map[string]*checkout
	watcher   *watch.Watcher // nil without watch mode
	parsed    parsedFiles
	// getenv and configure are how the configuration was loaded, and
	// loadedStamp the hash of the .scry.toml it was loaded from, so that
	// ReloadConfig can load it again the same way.
	getenv      func(string) string
	configure   func(*config.Config) error
	loadedStamp string
	described   answer.DescribeCache
}

// Open opens (creating if needed) the index of a workspace, loads its
// configuration, and attaches what opt asks for, in this order: models,
// sync, compiler. On error nothing stays open.
func Open(ctx context.Context, opt Options) (*Engine, error) {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
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
		return nil, fmt.Errorf("open workspace %s: %w", textfmt.Name(dir), err)
	}
	stamp, _ := config.WorkspaceFileHash(root.Dir())
	cfg, cfgErr := loadConfig(root.Dir(), getenv, opt.Configure)
	if cfgErr != nil && !opt.KeepBrokenConfig {
		return nil, cfgErr
	}
	// Settings an untrusted workspace tried to make are never dropped
	// silently.
	if opt.Warn != nil {
		for _, n := range cfg.Origin.Notes() {
			opt.Warn(errors.New(n))
		}
	}
	var shared *weaviate.Client
	if cfg.SharedIndex() && cfgErr == nil {
		// The cluster is reached before anything local is touched: a
		// wrong URL or key fails here and leaves the local index as it
		// was.
		if shared, err = connectShared(ctx, cfg); err != nil {
			return nil, err
		}
		if !opt.Publish {
			e := &Engine{root: root, cfg: cfg, shared: shared, progress: opt.Progress, stopCompiler: func() {}, checkouts: checkoutsOf(cfg, opt)}
			if opt.LocalIndex {
				return e.checkoutInstead(ctx)
			}
			if opt.Models {
				if e.neural, err = openNeural(ctx, nil, cfg.Embedding, cfg.Reranking, getenv, opt.Warn); err != nil {
					return nil, err
				}
				if e.neural.Reranker != nil {
					e.reranker = e.neural.Reranker
				}
			}
			return e, nil
		}
	}
	path := opt.IndexPath
	if path == "" {
		if path, err = DefaultIndexPath(root.Dir()); err != nil {
			return nil, err
		}
	}
	st, err := openIndex(ctx, path, opt.IndexPath == "", opt.Warn)
	if err != nil {
		return nil, fmt.Errorf("open index for %s: %w", textfmt.Name(root.Dir()), err)
	}
	e := &Engine{root: root, store: st, cfg: cfg, cfgErr: cfgErr, shared: shared, progress: opt.Progress, stopCompiler: func() {},
		getenv: getenv, configure: opt.Configure, loadedStamp: stamp}
	e.indexOpts = index.Options{
		Workspace: workspace.Options{Include: cfg.Include, Exclude: cfg.Exclude, MaxFileSize: cfg.MaxFileSize},
		Progress:  opt.Progress,
	}
	if opt.Watch {
		if w, err := watch.New(root.Dir()); err == nil {
			e.watcher, e.indexOpts.Changes = w, w
		} else if opt.Warn != nil {
			opt.Warn(fmt.Errorf("not watching for changes, scanning the tree on every question: %w", err))
		}
	}
	e.indexer = index.New(root, st, e.indexOpts)
	fail := func(err error) (*Engine, error) {
		e.Close()
		return nil, err
	}
	if opt.Models {
		n, err := openNeural(ctx, st, cfg.Embedding, cfg.Reranking, getenv, opt.Warn)
		if err != nil {
			return fail(err)
		}
		e.neural = n
		if n != nil && n.Reranker != nil {
			e.reranker = n.Reranker
		}
	}
	if opt.Sync || opt.Compiler == CompilerWait {
		e.lastSync, err = e.Sync(ctx)
		if store.IsCorrupt(err) {
			// Damage only a write meets (rows that disagree with each
			// other pass SQLite's check at open): rebuild once, and say so.
			if opt.Warn != nil {
				opt.Warn(fmt.Errorf("%w; the index is rebuilt from the workspace", err))
			}
			err = e.Rebuild(ctx)
		}
		if err != nil {
			return fail(fmt.Errorf("sync %s: %w", textfmt.Name(root.Dir()), err))
		}
	}
	if opt.Compiler != CompilerOff {
		cache := opt.CacheDir
		if cache == "" {
			cache, _ = CacheDir()
		}
		e.attachCompiler(ctx, cfg.TSGo, cache, opt.Compiler == CompilerWait, opt.Warn)
	}
	return e, nil
}

// openIndex opens the index and checks its pages. A damaged index (zeroed
// pages, a file that is not SQLite) otherwise opens and syncs as if healthy
// and then fails every search with "database disk image is malformed";
// since the index is a cache of the workspace, it is deleted and rebuilt
// (by the next sync), and the user is told. It is deleted only when it is
// known to be scry's: it opened as a scry index, or its header says it is
// one (the damage is in its pages), or it sits where scry keeps indexes
// (inCache). A file named with --index that is not SQLite at all may be
// anything of the user's.
func openIndex(ctx context.Context, path string, inCache bool, warn func(error)) (*store.Store, error) {
	if inCache {
		// The index's folders in scry's cache are scry's own: closed to
		// other users (0700), also when an older scry made them 0755.
		if err := privateDirs(path); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(path)
	ours := inCache || errors.Is(err, store.ErrDamagedIndex)
	if err == nil {
		if err = st.QuickCheck(ctx); err == nil {
			return st, nil
		}
		st.Close()
		ours = true
	}
	if !store.IsCorrupt(err) {
		return nil, err
	}
	if !ours {
		return nil, fmt.Errorf("%w; not deleting %s, which is not in scry's cache: delete it or name another --index", err, textfmt.Name(path))
	}
	if rerr := store.Remove(path); rerr != nil {
		return nil, errors.Join(err, rerr)
	}
	if warn != nil {
		warn(fmt.Errorf("%w; deleted it: the index is rebuilt from the workspace", err))
	}
	return store.Open(path)
}

// privateDirs makes the folder holding a default index path
// (…/indexes/HASH) and its indexes folder readable by their owner only.
func privateDirs(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("index folder: %w", err)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o700); err != nil {
			return fmt.Errorf("index folder: %w", err)
		}
	}
	return nil
}

// IsCorrupt reports whether err says the index file is damaged ("database
// disk image is malformed" and the like): pages damaged after Open's check
// surface only in the queries that read them.
func IsCorrupt(err error) bool { return store.IsCorrupt(err) }

// Rebuild replaces a damaged index with a new one built from the workspace:
// the file is deleted (it opened as scry's index, so it is scry's to
// delete), created again, and synced. The caller must keep every other
// method of the engine from running meanwhile (the MCP server holds its
// calls off); the compiler and the models stay attached.
func (e *Engine) Rebuild(ctx context.Context) error {
	path := e.store.Path()
	if err := e.store.Close(); err != nil && !store.IsCorrupt(err) {
		return fmt.Errorf("rebuild %s: %w", textfmt.Name(path), err)
	}
	if err := store.Remove(path); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	st, err := store.Open(path)
	if err != nil {
		return fmt.Errorf("rebuild %s: %w", textfmt.Name(path), err)
	}
	e.store = st
	e.neural.useStore(st)
	e.cfgMu.RLock()
	e.indexer = index.New(e.root, st, e.indexOpts)
	e.cfgMu.RUnlock()
	e.described.Clear()
	if e.lastSync, err = e.Sync(ctx); err != nil {
		return fmt.Errorf("rebuild: sync %s: %w", textfmt.Name(e.root.Dir()), err)
	}
	return nil
}

// loadConfig is the one place a workspace's settings are read: its
// .scry.toml, then the environment, then the front end's overrides.
func loadConfig(root string, getenv func(string) string, configure func(*config.Config) error) (config.Config, error) {
	cfg, err := config.Load(root, getenv)
	if err != nil {
		return cfg, err
	}
	if configure != nil {
		if err := configure(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, cfg.Validate()
}

// Config is the configuration the engine was opened with.
func (e *Engine) Config() config.Config { return e.conf() }

// conf is the configuration in force: a long-running engine reloads it
// (ReloadConfig) while other calls read it.
func (e *Engine) conf() config.Config {
	e.cfgMu.RLock()
	defer e.cfgMu.RUnlock()
	return e.cfg
}

func (e *Engine) confErr() error {
	e.cfgMu.RLock()
	defer e.cfgMu.RUnlock()
	return e.cfgErr
}

// ConfigErr is why the configuration did not load (with
// Options.KeepBrokenConfig), or nil.
func (e *Engine) ConfigErr() error { return e.confErr() }

// Dir is the workspace root's real path.
func (e *Engine) Dir() string { return e.root.Dir() }

// LastSync is the summary of the sync Open ran (zero without one).
func (e *Engine) LastSync() index.Summary { return e.lastSync }

// Sync brings the index up to date with the workspace, reporting progress
// to Options.Progress.
func (e *Engine) Sync(ctx context.Context) (index.Summary, error) {
	return e.SyncProgress(ctx, e.progress)
}

// SyncProgress is Sync with a progress callback; it also tells the
// TypeScript server which files changed on disk, since it does not watch.
//
// A stateless reader of the shared index has nothing to sync (`scry
// index` keeps the shared index fresh): the summary is empty.
func (e *Engine) SyncProgress(ctx context.Context, progress func(done, total int)) (index.Summary, error) {
	if e.indexer == nil {
		return index.Summary{}, nil
	}
	sum, err := e.indexer.SyncProgress(ctx, progress)
	if len(sum.Changed) > 0 {
		e.described.Clear()
	}
	if err == nil {
		// New and changed chunks get their vectors before anyone searches.
		if _, eerr := e.neural.EmbedPending(ctx, e.store, progress); eerr != nil {
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
			abs := filepath.Join(e.root.Dir(), filepath.FromSlash(rel))
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

// Close shuts the compiler down and releases the models and the index.
func (e *Engine) Close() error {
	e.stopCompiler()
	e.parsed.close()
	if e.store == nil { // a stateless reader of the shared index
		return errors.Join(e.neural.Close(), e.closeCheckouts())
	}
	var werr error
	if e.watcher != nil {
		werr = e.watcher.Close()
	}
	return errors.Join(werr, e.neural.Close(), e.store.Close())
}

// CacheDir is scry's cache directory (internal/cachedir owns the rule);
// the front ends ask here so that they need not import it.
func CacheDir() (string, error) { return cachedir.Dir() }

// DefaultIndexPath is where a workspace's index lives unless told otherwise:
// the user cache directory, keyed by a hash of the root's real path, so that
// scry never writes into the workspace itself.
func DefaultIndexPath(root string) (string, error) {
	base, err := CacheDir()
	if err != nil {
		return "", fmt.Errorf("index location: %w (use --index)", err)
	}
	h := sha256.Sum256([]byte(root))
	return filepath.Join(base, "indexes", hex.EncodeToString(h[:8]), "index.db"), nil
}
