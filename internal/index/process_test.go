package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/workspace"
)

// processTree writes n files of very different sizes, so that workers
// finish them out of order, and returns an indexer over them and its jobs.
func processTree(t *testing.T, n, workers int) (*Indexer, []job) {
	t.Helper()
	dir := t.TempDir()
	var jobs []job
	for i := range n {
		rel := fmt.Sprintf("f%03d.ts", i)
		body := strings.Repeat("export function f(a: number): number {\n  return a + 1;\n}\n", 1+(i*37)%200)
		p := filepath.Join(dir, rel)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{file: workspace.File{Path: p, Rel: rel, Size: int64(len(body))}, id: int64(i + 1)})
	}
	root, err := workspace.NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return New(root, nil, Options{Workers: workers}), jobs
}

// TestProcessKeepsJobOrder: results come back in the order of the jobs
// (the order of new files' ids, so the full-text index receives rowids in
// increasing order), whatever the number of workers.
func TestProcessKeepsJobOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) {
			ix, jobs := processTree(t, 120, workers)
			i := 0
			for r := range ix.process(context.Background(), jobs) {
				if r.err != nil || r.skip != "" {
					t.Fatalf("%s: err %v, skip %q", r.job.file.Rel, r.err, r.skip)
				}
				if r.job.file.Rel != jobs[i].file.Rel {
					t.Fatalf("result %d is %s, want %s", i, r.job.file.Rel, jobs[i].file.Rel)
				}
				i++
			}
			if i != len(jobs) {
				t.Fatalf("%d results for %d jobs", i, len(jobs))
			}
		})
	}
}

// TestProcessCancel: a writer that fails cancels and drains the results;
// that ends without every job done and without blocking.
func TestProcessCancel(t *testing.T) {
	ix, jobs := processTree(t, 200, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := ix.process(ctx, jobs)
	got := 0
	for range results {
		got++
		if got == 5 {
			cancel()
			break
		}
	}
	for range results {
		got++
	}
	if got >= len(jobs) {
		t.Errorf("all %d jobs processed after a cancel", got)
	}
}

// TestProcessWindow: files that each fill the window (sizes as discovery
// saw them, before the file changed) are processed one at a time, in
// order, without blocking.
func TestProcessWindow(t *testing.T) {
	ix, jobs := processTree(t, 30, 3)
	for i := range jobs {
		if i%3 == 0 {
			jobs[i].file.Size = 2 * windowBytes
		}
	}
	i := 0
	for r := range ix.process(context.Background(), jobs) {
		if r.job.file.Rel != jobs[i].file.Rel {
			t.Fatalf("result %d is %s, want %s", i, r.job.file.Rel, jobs[i].file.Rel)
		}
		i++
	}
	if i != len(jobs) {
		t.Fatalf("%d results for %d jobs", i, len(jobs))
	}
}
