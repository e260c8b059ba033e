package rerank

import (
	"context"
	"testing"
)

// mustRerank scores docs against query with r, failing the test on an
// error.
func mustRerank(t testing.TB, r Reranker, query string, docs []Doc) []float64 {
	t.Helper()
	got, err := r.Rerank(context.Background(), query, docs)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
