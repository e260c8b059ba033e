package bench

import (
	"context"
	"fmt"
	"sync"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/vector"
)

// HybridOpener gives the quality benchmark a vector side: it embeds every
// chunk of the freshly indexed corpus and returns the pipeline's hybrid
// retrieval and a name for the report. The benchmark then adds a
// "scry-hybrid" system (BM25F and vectors fused by reciprocal rank, then the
// same reranker and blend) beside the lexical ones.
type HybridOpener func(ctx context.Context, st *store.Store) (h *search.Hybrid, name string, err error)

// HybridWith embeds with emb, without the embedding cache: a benchmark
// measures the model, and a warm cache from an earlier corpus would not
// change the vectors, only hide the cost.
func HybridWith(emb embed.Embedder) HybridOpener {
	return func(ctx context.Context, st *store.Store) (*search.Hybrid, string, error) {
		ix, err := vector.New(emb.ModelID(), emb.Dim(), vector.Options{})
		if err != nil {
			return nil, "", fmt.Errorf("bench: %w", err)
		}
		var mu sync.Mutex
		var upsertErr error
		_, err = index.EmbedPending(ctx, st, emb, index.EmbedOptions{OnStored: func(v []store.Vector) {
			if e := ix.Upsert(v); e != nil {
				mu.Lock()
				if upsertErr == nil {
					upsertErr = e
				}
				mu.Unlock()
			}
		}})
		if err == nil {
			err = upsertErr
		}
		if err != nil {
			return nil, "", fmt.Errorf("bench: embed the corpus: %w", err)
		}
		return &search.Hybrid{Embedder: emb, Index: ix}, emb.ModelID(), nil
	}
}
