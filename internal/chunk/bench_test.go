package chunk_test

import (
	"os"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/testkit"
)

// BenchmarkTypeScriptJS parses and chunks the typescript package's
// lib/typescript.js (about 9 MB), the largest real file in the test corpus.
func BenchmarkTypeScriptJS(b *testing.B) {
	path := testkit.Corpus(b, "typescript", "lib", "typescript.js")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f, err := parse.Parse(path, src, "")
		if err != nil {
			b.Fatal(err)
		}
		chunk.File(f, path, "typescript.js")
	}
}
