package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/workspace"
)

// BenchmarkColdSync indexes the tree named by SCRY_BENCH_TREE into a new
// index, for profiling the write path on a real corpus:
//
//	SCRY_BENCH_TREE=/path/to/corpus go test ./internal/index -run '^$' \
//	    -bench ColdSync -benchtime 1x -cpuprofile cpu.out
func BenchmarkColdSync(b *testing.B) {
	dir := os.Getenv("SCRY_BENCH_TREE")
	if dir == "" {
		b.Skip("SCRY_BENCH_TREE not set")
	}
	root, err := workspace.NewRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), "index.db")
		st, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ix := index.New(root, st, index.Options{Workspace: workspace.Options{MaxFileSize: 16 << 20}})
		sum, err := ix.Sync(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(sum.Bytes)
		b.ReportMetric(float64(sum.Chunks), "chunks")
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		// Closing the last connection checkpoints the log into the file.
		var size int64
		for _, p := range []string{path, path + "-wal"} {
			if fi, err := os.Stat(p); err == nil {
				size += fi.Size()
			}
		}
		b.ReportMetric(float64(size)/float64(sum.Bytes), "index/source")
	}
}

// BenchmarkNoChangeSync times a sync that finds nothing changed (the mtime
// scan every CLI question pays) over the tree named by SCRY_BENCH_TREE,
// indexed once first.
func BenchmarkNoChangeSync(b *testing.B) {
	dir := os.Getenv("SCRY_BENCH_TREE")
	if dir == "" {
		b.Skip("SCRY_BENCH_TREE not set")
	}
	root, err := workspace.NewRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(filepath.Join(b.TempDir(), "index.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ix := index.New(root, st, index.Options{Workspace: workspace.Options{MaxFileSize: 16 << 20}})
	if _, err := ix.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		sum, err := ix.Sync(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if sum.Indexed != 0 {
			b.Fatalf("a sync with no change indexed %d files", sum.Indexed)
		}
	}
}
