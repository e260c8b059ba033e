package chunk_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/parse"
)

// BenchmarkTypeScriptJS parses and chunks the typescript package's
// lib/typescript.js (about 9 MB), the largest real file in the test corpus.
func BenchmarkTypeScriptJS(b *testing.B) {
	dir := os.Getenv("SCRY_CORPUS")
	if dir == "" {
		b.Skip("SCRY_CORPUS not set (run .ci/run or scripts/testdeps.sh)")
	}
	path := filepath.Join(dir, "node_modules/typescript/lib/typescript.js")
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
