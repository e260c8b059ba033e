package engine

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/embed/builtin"
	"github.com/scry-dev/scry/internal/embed/onnxrt"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/watch"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/workspace"
)

// Diagnosis is what `scry doctor` reports: what scry found and what is
// missing. API keys are reported as set or not, never kept.
type Diagnosis struct {
	Workspace string
	IndexPath string
	Files     int
	Chunks    int
	Config    Config
	ConfigErr error

	// SQLite names the SQLite build the index runs on (C or translated to
	// Go, see internal/sqlitedb).
	SQLite  string
	Runtime RuntimeCheck
	// RankerModel is the built-in embedding model the default ranker's
	// semantic features use, whatever the embedder setting.
	RankerModel RankerModelCheck
	Embedder    EmbedderCheck
	Vectors     map[string]int // vectors stored per model
	Reranker    RerankerCheck
	TypeScript  tsls.Report
	// Governed files have a tsconfig.json or jsconfig.json; the others go
	// to TypeScript 7 as one program.
	Governed, Ungoverned int
	// Freshness is how `scry serve` keeps the index fresh here: watching
	// (WatchOK) or the mtime scan, with the numbers that decide it.
	WatchOK     bool
	WatchDetail string
	// Compiler is the running TypeScript 7 server's memory, when the
	// engine was opened with it (doctor --compiler); nil otherwise.
	Compiler *CompilerMemory
	// CompilerStatus is the TypeScript 7 server's state in this engine:
	// what answers report (loading, ready, absent, failed).
	CompilerStatus CompilerStatus
	// Served is set when a running `scry serve` answered (its engine's
	// state, not a fresh process's).
	Served bool

	// Shared is the shared index's cluster, with the weaviate backend.
	Shared *weaviate.Status
}

// CompilerMemory is what the TypeScript 7 server holds once its project is
// loaded.
type CompilerMemory struct {
	RSS, Peak int64         // bytes
	Ready     time.Duration // from start to the project loaded
	Err       error         // not measured
}

// ManyUngoverned is where a tsconfig.json becomes worth suggesting: on the
// published date-fns package (5,016 such files) the server grew to
// 0.9–1.2 GB.
const ManyUngoverned = 2000

// RuntimeCheck is ONNX Runtime's state.
type RuntimeCheck struct {
	Lib     string // "" when not found
	Version string
	LoadErr error // found but does not load
	Needed  bool  // an onnx provider is configured
}

// RankerModelCheck names the compiled-in model the ranker uses.
type RankerModelCheck struct {
	ID   string
	Dim  int
	Size int // bytes compiled in
	Err  error
}

// EmbedderCheck is the configured embedder's state.
type EmbedderCheck struct {
	Provider string // "" or none: no embedder
	KeyVars  string // where its key comes from ("" when it needs none)
	KeySet   bool
	Err      error // it did not open
	Model    string
	Dim      int
	Size     int // bytes of a compiled-in model (0: not known)
	Embedded int // chunks with a vector of this model
	Pending  int // chunks the next sync embeds
	Cache    string
	Cached   int // vectors of this model in the cache (-1: no cache)
}

// RerankerCheck is the configured reranker's state.
type RerankerCheck struct {
	Provider string
	Name     string
	KeyVars  string
	KeySet   bool
	Err      error // it did not open
	// Probed: a remote reranker was sent a test request; ProbeErr is its
	// failure.
	Probed   bool
	ProbeErr error
}

// Diagnose looks at the workspace's index, configuration, models and
// TypeScript 7. It opens the configured models, so a wrong URL, key or
// directory shows here rather than in the first search.
func (e *Engine) Diagnose(ctx context.Context, cacheDir string) (Diagnosis, error) {
	d := Diagnosis{Workspace: e.root.Dir(), Config: e.conf(), ConfigErr: e.confErr()}
	if e.shared != nil {
		st, err := e.shared.Status(ctx)
		d.Shared = &st
		if err != nil {
			return d, err
		}
	}
	if e.store == nil { // a stateless reader of the shared index
		return d, nil
	}
	d.IndexPath = e.store.Path()
	d.SQLite = sqlitedb.Engine
	var err error
	if d.Files, d.Chunks, err = e.store.Stats(); err != nil {
		return d, err
	}
	if m, err := builtin.Default(); err != nil {
		d.RankerModel.Err = err
	} else {
		d.RankerModel = RankerModelCheck{ID: m.ID(), Dim: m.Dim(), Size: m.Size()}
	}
	ecfg, rcfg := e.conf().Embedding, e.conf().Reranking
	lib, err := onnxrt.FindLibrary(ecfg.ONNXRuntimeLib, "")
	if err == nil {
		d.Runtime.Lib = lib
		if d.Runtime.LoadErr = onnxrt.Init(lib); d.Runtime.LoadErr == nil {
			d.Runtime.Version = onnxrt.RuntimeVersion()
		}
	}
	d.Runtime.Needed = ecfg.Provider == embed.ProviderONNX || rcfg.Provider == rerank.ProviderONNX

	ec := ecfg.EmbedConfig(os.Getenv)
	d.Embedder = EmbedderCheck{Provider: ec.Provider, KeyVars: keyVars(ec.Provider), KeySet: ec.Key != "", Cached: -1}
	if ec.Provider != "" && ec.Provider != embed.ProviderNone {
		if emb, err := embed.New(ctx, ec); err != nil {
			d.Embedder.Err = err
		} else {
			defer emb.Close()
			d.Embedder.Model, d.Embedder.Dim = emb.ModelID(), emb.Dim()
			if s, ok := emb.(interface{ ModelSize() int }); ok {
				d.Embedder.Size = s.ModelSize()
			}
			d.Embedder.Embedded, _ = e.store.VectorCount(emb.ModelID())
			d.Embedder.Pending, _ = e.store.CountPendingEmbeddings(emb.ModelID())
			// The built-in model keeps no cache (openNeural): do not
			// create one by looking.
			if ec.Provider != embed.ProviderBuiltin {
				d.Embedder.Cache = embed.CachePath(e.store.Path())
				if c, err := embed.OpenCache(d.Embedder.Cache); err == nil {
					d.Embedder.Cached, _ = c.Count(emb.ModelID())
					c.Close()
				}
			}
		}
	}
	d.Vectors, _ = e.store.VectorModels()

	rc := rcfg.RerankConfig(ecfg.ONNXRuntimeLib, os.Getenv)
	d.Reranker = RerankerCheck{Provider: rc.Provider}
	if rr, err := rerank.New(ctx, rc); err != nil {
		d.Reranker.Err = err
	} else {
		if c, ok := rr.(interface{ Close() error }); ok {
			defer c.Close()
		}
		d.Reranker.Name = rr.Name()
		if rc.Provider == rerank.ProviderHTTP || rc.Provider == rerank.ProviderVoyage {
			d.Reranker.KeyVars, d.Reranker.KeySet = keyVars(rc.Provider), rc.Key != ""
			d.Reranker.Probed = true
			_, d.Reranker.ProbeErr = rr.Rerank(ctx, "doctor", []rerank.Doc{{Name: "check", Text: "function check() {}"}})
		}
	}

	if found, err := workspace.Discover(e.root.Dir(), e.indexer.WorkspaceOptions()); err == nil {
		d.WatchOK, d.WatchDetail = watch.Check(len(found.Dirs))
	} else {
		d.WatchDetail = err.Error()
	}
	if comp := e.Compiler(); comp != nil {
		m := &CompilerMemory{Ready: comp.srv.ReadyTime()}
		m.RSS, m.Peak, m.Err = comp.srv.Memory()
		d.Compiler = m
	}
	d.CompilerStatus = e.CompilerStatus()
	d.TypeScript = tsls.DiagnoseWith(tsls.FindOptions{Root: e.root.Dir(), CacheDir: cacheDir, Flag: e.conf().TSGo, TrustWorkspace: e.conf().Origin.Trust.Trusted})
	if files, err := e.sourceFiles(); err == nil && len(files) > 0 {
		d.Governed, d.Ungoverned = tsls.ProgramSplit(files)
	}
	return d, nil
}

// keyVars names the environment variables a provider's key comes from.
func keyVars(provider string) string {
	switch provider {
	case embed.ProviderOpenAI:
		return embed.EnvEmbedKey + " or " + embed.EnvOpenAIKey
	case embed.ProviderVoyage:
		return embed.EnvEmbedKey + "/" + rerank.EnvRerankKey + " or " + embed.EnvVoyageKey
	case rerank.ProviderHTTP:
		return rerank.EnvRerankKey
	}
	return ""
}

// ProviderNone is the provider that turns the embedder or reranker off.
const ProviderNone = embed.ProviderNone

// EnvONNXRuntime names ONNX Runtime's library explicitly.
const EnvONNXRuntime = onnxrt.EnvLib

// EmbedderFromEnv opens the embedder the SCRY_EMBED* environment
// variables configure, for corpora that are not a workspace with a
// .scry.toml of their own; nil when none is configured.
func EmbedderFromEnv(ctx context.Context) (embed.Embedder, error) {
	ecfg := DefaultConfig().Embedding
	if err := ecfg.ApplyEnv(os.Getenv); err != nil {
		return nil, err
	}
	emb, err := embed.New(ctx, ecfg.EmbedConfig(os.Getenv))
	if errors.Is(err, embed.ErrNone) {
		return nil, nil
	}
	return emb, err
}
