package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
)

// TestFitSnapshotsHonoursCancellation: fitting an answer to its budget
// parses and counts whole files, round after round; a call the agent
// cancelled used to run them all.
func TestFitSnapshotsHonoursCancellation(t *testing.T) {
	root := t.TempDir()
	src := strings.Repeat("export function f(n: number): number {\n  return n + 1\n}\n", 50)
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e, err := Open(ctx, Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: func(string) string { return "" }, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cs, err := e.store.ChunksByFile("a.ts")
	if err != nil || len(cs) < 10 {
		t.Fatalf("chunks: %d, %v", len(cs), err)
	}
	var results []search.Result
	for _, c := range cs {
		results = append(results, search.Result{Chunk: c})
	}
	// A live context fits (the test's premise: there is work to stop).
	if n, err := fitSnapshots(ctx, results, &snapshotCache{texts: map[string]string{}, view: localView{e}}, 40); err != nil || n < 1 {
		t.Fatalf("fitSnapshots = %d, %v", n, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if n, err := fitSnapshots(cancelled, results, &snapshotCache{texts: map[string]string{}, view: localView{e}}, 40); !errors.Is(err, context.Canceled) {
		t.Fatalf("fitSnapshots with a cancelled context = %d, %v; want context.Canceled", n, err)
	}
}

// TestDescribeCacheBoundedInBytes: the cache of symbol descriptions was
// bounded at 20,000 entries whatever their size (a transitive call tree
// can be megabytes).
func TestDescribeCacheBoundedInBytes(t *testing.T) {
	defer func(n int) { maxDescribeBytes = n }(maxDescribeBytes)
	maxDescribeBytes = 256 << 10
	var c describeCache
	members := make([]string, 500)
	for i := range members {
		members[i] = strings.Repeat("m", 50) // ~26 KB per result encoded
	}
	for i := range 100 {
		c.put(describeKey{id: strconv.Itoa(i)}, graph.Result{Name: "x", Members: members})
		held := 0
		for _, d := range c.m {
			b, _ := json.Marshal(d)
			held += len(b)
		}
		if held > maxDescribeBytes {
			t.Fatalf("after %d results the cache holds %d bytes (bound %d)", i+1, held, maxDescribeBytes)
		}
	}
	if _, ok := c.get(describeKey{id: "99"}); !ok {
		t.Error("the last description is not cached")
	}
}
