package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/weaviate"
)

// A checkout is a repository of the shared index that the serving machine
// also has on disk (config Weaviate.Checkouts). Structure for its results
// comes from a local engine on that directory, TypeScript 7 included,
// opened on first use: the compiler answers for files whose content is
// the indexed version (same hash); other files, and repositories without
// a checkout, are answered from the index and marked approximate.
type checkout struct {
	dir  string
	opt  Options // how to open the local engine
	once sync.Once
	eng  *Engine
	err  error
}

// checkoutsOf prepares the configured checkouts (none is opened yet).
func checkoutsOf(cfg config.Config, opt Options) map[string]*checkout {
	if len(cfg.Weaviate.Checkouts) == 0 {
		return nil
	}
	getenv := opt.Getenv
	out := map[string]*checkout{}
	for repo, dir := range cfg.Weaviate.Checkouts {
		o := Options{
			Root: dir, Sync: true, Compiler: opt.Compiler, CacheDir: opt.CacheDir, Warn: opt.Warn,
			// The checkout is a local workspace: the shared-index
			// settings of the server's environment are not its own.
			Getenv: func(k string) string {
				switch k {
				case "SCRY_BACKEND", "SCRY_WEAVIATE_URL", "SCRY_WEAVIATE_KEY", "SCRY_REPO", "SCRY_CHECKOUTS", "SCRY_WEAVIATE_REPLICAS":
					return ""
				}
				if getenv == nil {
					return ""
				}
				return getenv(k)
			},
			Configure: func(c *config.Config) error { c.Backend = config.BackendSQLite; return nil },
		}
		if o.Compiler == CompilerOff {
			o.Compiler = CompilerBackground
		}
		out[repo] = &checkout{dir: dir, opt: o}
	}
	return out
}

func (c *checkout) open(ctx context.Context) (*Engine, error) {
	c.once.Do(func() {
		c.eng, c.err = Open(ctx, c.opt)
		if c.err != nil {
			c.err = fmt.Errorf("checkout %s: %w", c.dir, c.err)
		}
	})
	return c.eng, c.err
}

func (c *checkout) close() error {
	if c.eng == nil {
		return nil
	}
	return c.eng.Close()
}

// closeCheckouts closes the local engines opened for checkouts.
func (e *Engine) closeCheckouts() error {
	var errs []error
	for _, c := range e.checkouts {
		errs = append(errs, c.close())
	}
	return errors.Join(errs...)
}

// describeSharedResult describes a result of the shared index: by the
// checkout's compiler where the server has the repository at the indexed
// version, else from the chunk (approximate, saying why).
func (e *Engine) describeSharedResult(ctx context.Context, rd *weaviate.Reader, c chunk.Chunk, callDepth int) (graph.Result, error) {
	repo, local := rd.Local(c)
	co := e.checkouts[repo]
	if co == nil {
		return answer.DescribeIndexed(rd, c, reasonShared)
	}
	sub, err := co.open(ctx)
	if err != nil {
		return answer.DescribeIndexed(rd, c, fmt.Sprintf("answered from the shared index: the checkout of %s could not be opened (%v)", repo, err))
	}
	indexed, err := rd.FileHash(c.RelativePath)
	if err != nil {
		return graph.Result{}, err
	}
	abs, _, err := sub.root.Resolve(local.RelativePath)
	var text []byte
	if err == nil {
		text, err = sub.localReads().ReadFile(abs)
	}
	sum := sha256.Sum256(text)
	if err != nil || hex.EncodeToString(sum[:]) != indexed {
		return answer.DescribeIndexed(rd, c, fmt.Sprintf("answered from the shared index: the checkout of %s differs from the indexed version of %s", repo, local.RelativePath))
	}
	lc, err := sub.store.Chunk(local.ID)
	if errors.Is(err, chunkindex.ErrNotFound) {
		// The checkout's local index lags its files (a sync since).
		if _, serr := sub.Sync(ctx); serr != nil {
			return graph.Result{}, serr
		}
		lc, err = sub.store.Chunk(local.ID)
	}
	if err != nil {
		return answer.DescribeIndexed(rd, c, fmt.Sprintf("answered from the shared index: %s is not in the checkout's index (%v)", local.ID, err))
	}
	d, err := sub.localReads().Describe(ctx, lc, callDepth)
	if err != nil {
		return graph.Result{}, err
	}
	if d.File == local.RelativePath {
		d.File = c.RelativePath
	}
	return d, nil
}

// describeAllShared describes each result of the shared index.
func (e *Engine) describeAllShared(ctx context.Context, rd *weaviate.Reader, results []search.Result, callDepth int) (map[string]graph.Result, error) {
	out := make(map[string]graph.Result, len(results))
	for _, r := range results {
		d, err := e.describeSharedResult(ctx, rd, r.Chunk, callDepth)
		if err != nil {
			return nil, err
		}
		out[r.Chunk.ID] = d
	}
	return out, nil
}

// ErrNeedsLocalIndex says that a question only a local index answers was
// asked of a shared index without a checkout of its repository here.
var ErrNeedsLocalIndex = errors.New("needs a local index")

// checkoutInstead is the engine a front end that reads a local index gets
// on a shared index (Options.LocalIndex): this machine's checkout of the
// one configured repository, opened as a local engine. e is closed.
func (e *Engine) checkoutInstead(ctx context.Context) (*Engine, error) {
	local, ok, err := e.openCheckout(ctx)
	e.Close()
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, ErrNeedsLocalIndex
	}
	return local, nil
}

// openCheckout opens a local engine on the checkout of the one repository
// a shared-index engine is configured for, so the structure commands
// (references, implementations, definitions, ...) can answer for it from
// the compiler and a local index; ok is false when there is no such
// checkout. The caller closes the engine.
func (e *Engine) openCheckout(ctx context.Context) (local *Engine, ok bool, err error) {
	repos := e.conf().Weaviate.Repos
	if e.shared == nil || len(repos) != 1 {
		return nil, false, nil
	}
	co := e.checkouts[repos[0]]
	if co == nil {
		return nil, false, nil
	}
	local, err = Open(ctx, co.opt)
	if err != nil {
		return nil, true, fmt.Errorf("checkout of %s at %s: %w", repos[0], co.dir, err)
	}
	return local, true, nil
}

// LocalEngine is the engine whose local index the structure questions
// read: e itself where it keeps one; on a stateless reader of the shared
// index, the local engine on this machine's checkout of the one
// repository it serves, opened on first use and closed with e
// (ErrNeedsLocalIndex where there is none). A server of the shared index
// answers the structure tools from it.
func (e *Engine) LocalEngine(ctx context.Context) (*Engine, error) {
	if e.store != nil {
		return e, nil
	}
	repos := e.conf().Weaviate.Repos
	if len(repos) != 1 || e.checkouts[repos[0]] == nil {
		return nil, ErrNeedsLocalIndex
	}
	return e.checkouts[repos[0]].open(ctx)
}
