package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/vector"
)

// neural holds the optional model-backed parts of a workspace: the
// embedder (behind the per-chunk cache), the in-memory vector index of its
// model, and the configured reranker. With no embedder configured, Embedder
// is nil and search stays lexical.
type neural struct {
	Embedder embed.Embedder // wrapped by the cache; nil when none
	Cache    *embed.Cache
	Reranker rerank.Reranker
	RRFK     int
	// Warn receives non-fatal problems (a query that could not be
	// embedded, vectors of a stale dimension); nil discards them.
	Warn func(error)

	// The in-memory vector index is loaded from the local index st on the
	// first question that searches by meaning (vectors), not when the
	// workspace opens: a structure question or a CLI call that only
	// indexes would otherwise read every vector for nothing (0.35 s at
	// 140,000 chunks).
	mu            sync.Mutex
	st            *store.Store // nil: the vectors live in the shared index
	quantizeAbove int
	ix            *vector.Index
}

// openNeural opens the configured embedder and reranker. getenv supplies
// API keys (nil: os.Getenv); warn receives non-fatal problems (nil
// discards them). With a local index st, the embedder sits behind the
// per-chunk cache beside it and the vector index is loaded from it (call
// EmbedPending after each sync to keep it complete). Without one (st nil,
// a reader of the shared index) the vectors live in the cluster: no cache,
// no in-memory index, and the embedder only embeds queries.
func openNeural(ctx context.Context, st *store.Store, ecfg config.Embedding, rcfg config.Reranking, getenv func(string) string, warn func(error)) (*neural, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	n := &neural{RRFK: ecfg.RRFK, Warn: warn}
	rr, err := rerank.New(ctx, rcfg.RerankConfig(ecfg.ONNXRuntimeLib, getenv))
	if err != nil {
		return nil, err
	}
	n.Reranker = rr
	ec := ecfg.EmbedConfig(getenv)
	emb, err := embed.New(ctx, ec)
	if errors.Is(err, embed.ErrNone) {
		return n, nil
	}
	if err != nil {
		n.Close()
		return nil, err
	}
	if st == nil {
		n.Embedder = emb
		return n, nil
	}
	if ec.Provider == embed.ProviderBuiltin {
		// The built-in model embeds a chunk faster than the cache could
		// look it up: no cache.
		n.Embedder = emb
	} else if err := n.attachCache(st, emb); err != nil {
		return nil, err
	}
	n.st, n.quantizeAbove = st, ecfg.QuantizeAbove
	return n, nil
}

// vectors is the in-memory vector index of the local index, loaded on
// first use; nil without an embedder or a local index.
func (n *neural) vectors() (*vector.Index, error) {
	if n == nil || n.Embedder == nil || n.st == nil {
		return nil, nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ix != nil {
		return n.ix, nil
	}
	ix, skipped, err := vector.Load(n.st, n.Embedder.ModelID(), n.Embedder.Dim(), vector.Options{QuantizeAbove: n.quantizeAbove})
	if err != nil {
		return nil, fmt.Errorf("load the vectors of %s: %w", n.Embedder.ModelID(), err)
	}
	if skipped > 0 && n.Warn != nil {
		n.Warn(fmt.Errorf("%d stored vectors of %s have another dimension and were ignored", skipped, n.Embedder.ModelID()))
	}
	n.ix = ix
	return ix, nil
}

// useStore points the vectors at a rebuilt local index: the vectors in
// memory are those of the old one, so they are dropped and the next
// question that needs them loads the new index's.
func (n *neural) useStore(st *store.Store) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.st != nil {
		n.st, n.ix = st, nil
	}
}

// SharedHybrid is the vector side over the shared index's reader: query
// vectors from the embedder, neighbours from the cluster. nil without an
// embedder.
func (n *neural) SharedHybrid(rd search.VectorStore) *search.Hybrid {
	if n == nil || n.Embedder == nil {
		return nil
	}
	return &search.Hybrid{Embedder: n.Embedder, Remote: rd, K: n.RRFK, OnError: n.Warn}
}

// attachCache puts the per-chunk embedding cache beside the index in
// front of emb; on failure everything opened so far is closed.
func (n *neural) attachCache(st *store.Store, emb embed.Embedder) error {
	cache, err := embed.OpenCache(embed.CachePath(st.Path()))
	if err != nil {
		emb.Close()
		n.Close()
		return err
	}
	n.Cache = cache
	n.Embedder = embed.WithCache(emb, cache)
	return nil
}

// EmbedPending embeds what the last sync left without a vector and adds
// the vectors to the in-memory index once it is loaded (before, the store
// holds them for the load). A no-op without an embedder.
func (n *neural) EmbedPending(ctx context.Context, st *store.Store, progress func(done, total int)) (index.EmbedSummary, error) {
	if n == nil || n.Embedder == nil {
		return index.EmbedSummary{}, nil
	}
	return index.EmbedPending(ctx, st, n.Embedder, index.EmbedOptions{
		Progress: progress,
		OnStored: func(v []store.Vector) {
			n.mu.Lock()
			defer n.mu.Unlock()
			if n.ix == nil {
				return
			}
			if err := n.ix.Upsert(v); err != nil && n.Warn != nil {
				n.Warn(err)
			}
		},
	})
}

// Hybrid is the pipeline's vector side, nil without an embedder. Vectors
// that cannot be loaded leave the search lexical, and Warn says why.
func (n *neural) Hybrid() *search.Hybrid {
	ix, err := n.vectors()
	if err != nil && n.Warn != nil {
		n.Warn(err)
	}
	if ix == nil {
		return nil
	}
	return &search.Hybrid{Embedder: n.Embedder, Index: ix, K: n.RRFK, OnError: n.Warn}
}

// Close releases the models and the cache.
func (n *neural) Close() error {
	if n == nil {
		return nil
	}
	var errs []error
	if n.Embedder != nil {
		errs = append(errs, n.Embedder.Close())
	}
	if c, ok := n.Reranker.(interface{ Close() error }); ok {
		errs = append(errs, c.Close())
	}
	if n.Cache != nil {
		errs = append(errs, n.Cache.Close())
	}
	return errors.Join(errs...)
}
