// Package rerank scores (query, candidate) pairs jointly, after first-stage
// retrieval. Every reranker returns scores in [0,1] so that the pipeline can
// blend them with first-stage scores and gate them by one threshold.
package rerank

import "context"

// Doc is what a reranker sees of a candidate chunk.
type Doc struct {
	Name       string
	Kind       string
	Breadcrumb string
	Path       string // relative to the workspace root
	Signature  string
	JSDoc      string
	Text       string // the chunk's embedding text (children collapsed)
	Lines      int
}

// Reranker scores docs against a query; scores are in [0,1], one per doc,
// in the order given.
type Reranker interface {
	Name() string
	Rerank(ctx context.Context, query string, docs []Doc) ([]float64, error)
}
