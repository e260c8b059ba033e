package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/index/indextest"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/workspace"
)

// BenchmarkColdSync indexes the tree named by SCRY_BENCH_TREE into a new
// index, for profiling the write path on a real corpus:
//
//	SCRY_BENCH_TREE=/path/to/corpus go test ./internal/index -run '^$' \
//	    -bench ColdSync -benchtime 1x -cpuprofile cpu.out
func BenchmarkColdSync(b *testing.B) {
	root := newRoot(b, benchTree(b))
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), "index.db")
		st, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := index.New(root, st, benchOptions).Sync(context.Background())
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

// benchTree is the tree named by SCRY_BENCH_TREE (the benchmark is
// skipped without it).
func benchTree(b *testing.B) string {
	b.Helper()
	dir := os.Getenv("SCRY_BENCH_TREE")
	if dir == "" {
		b.Skip("SCRY_BENCH_TREE not set")
	}
	return dir
}

// benchOptions index the files of a real tree up to 16 MiB.
var benchOptions = index.Options{Workspace: workspace.Options{MaxFileSize: 16 << 20}}

// BenchmarkNoChangeSync times a sync that finds nothing changed (the mtime
// scan every CLI question pays) over the tree named by SCRY_BENCH_TREE,
// indexed once first.
func BenchmarkNoChangeSync(b *testing.B) {
	ix, _ := indextest.Open(b, benchTree(b), benchOptions)
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

// BenchmarkWatchedOneEdit times the sync that follows a one-file edit in
// watch mode over the tree named by SCRY_BENCH_TREE (indexed once first):
// what a question pays for freshness in `scry serve`. The edit appends a
// function to the first file the index lists; the time between the edit
// and the sync (the watcher's event on its way) is not counted.
//
//	SCRY_BENCH_TREE=/path/to/tree go test ./internal/index -run '^$' -bench WatchedOneEdit -benchtime 20x
func BenchmarkWatchedOneEdit(b *testing.B) {
	dir := benchTree(b)
	ix, st := watchedIndexer(b, dir, benchOptions)
	ctx := context.Background()
	// The first syncs scan and set the watches up.
	for i := 0; ; i++ {
		sum, err := ix.Sync(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Watched {
			break
		}
		if i == 3 {
			b.Fatalf("still scanning after %d syncs: %s", i+1, sum.ScanReason)
		}
	}
	files, err := st.Files()
	if err != nil || len(files) == 0 {
		b.Fatalf("%d files indexed: %v", len(files), err)
	}
	var target string
	for rel := range files {
		if target == "" || rel < target {
			target = rel
		}
	}
	// The edits go to the tree itself: put the file back afterwards, or
	// every run would edit a longer file than the last.
	targetPath := filepath.Join(dir, filepath.FromSlash(target))
	original, err := os.ReadFile(targetPath)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := os.WriteFile(targetPath, original, 0o644); err != nil {
			b.Error(err)
		}
	})
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		f, err := os.OpenFile(targetPath, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		_, err = fmt.Fprintf(f, "\nexport function benchEdit%d(v: number): number {\n  return v + %d\n}\n", i, i)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			b.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		b.StartTimer()
		sum, err := ix.Sync(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if !sum.Watched || sum.Indexed != 1 {
			b.Fatalf("after one edit: watched %v, %d files indexed (%s)", sum.Watched, sum.Indexed, sum.ScanReason)
		}
	}
}

// BenchmarkColdEmbed gives every chunk of the tree named by SCRY_BENCH_TREE
// a vector under the built-in model, after a cold sync outside the timer:
// the step the default embedder adds to a first index.
//
//	SCRY_BENCH_TREE=/path/to/corpus go test ./internal/index -run '^$' \
//	    -bench ColdEmbed -benchtime 1x -cpuprofile cpu.out
func BenchmarkColdEmbed(b *testing.B) {
	root := newRoot(b, benchTree(b))
	emb, err := embed.NewBuiltin()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st, err := store.Open(filepath.Join(b.TempDir(), "index.db"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := index.New(root, st, benchOptions).Sync(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sum, err := index.EmbedPending(context.Background(), st, emb, index.EmbedOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(sum.Embedded), "chunks")
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
