package search

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/chunkindex"
)

// BenchmarkCountTerms measures the feature pass's reading of one chunk's
// text: splitting it into code, comments and strings and counting the
// query's terms (the bulk of featurize's cost per candidate).
func BenchmarkCountTerms(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "..", "internal", "search", "features.go"))
	if err != nil {
		b.Fatal(err)
	}
	text := featureText(string(src))
	qi := newQueryInfo("where are query terms counted in the chunk text and its strings", chunkindex.TermStats{Chunks: 1000})
	counts := make([]int, len(qi.terms))
	code := make(termMask, (len(qi.terms)+63)/64)
	str := make(termMask, len(code))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		clear(counts)
		qi.countTerms(text, counts, code, str)
	}
}
