package weaviate_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/search"
)

// BenchmarkRank measures the ranked pipeline's latency on rxjs's sources
// (npm test corpus) from the local SQLite index and from the shared index,
// on the same queries; it reports p50 and p95 per backend, and the push's
// throughput in chunks/s. The cluster is the one SCRY_WEAVIATE_URL names
// (one node or three).
//
//	go test ./internal/weaviate -run '^$' -bench Rank -benchtime 1x
func BenchmarkRank(b *testing.B) {
	dir := os.Getenv("SCRY_CORPUS")
	if dir == "" || os.Getenv("SCRY_WEAVIATE_URL") == "" {
		b.Skip("needs SCRY_CORPUS and SCRY_WEAVIATE_URL")
	}
	files := map[string]string{}
	src := filepath.Join(dir, "node_modules", "rxjs", "src")
	filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".ts") {
			body, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(src, p)
			files[filepath.ToSlash(rel)] = string(body)
		}
		return nil
	})
	c := connect(b)
	w := newWorkspace(b, files)
	repo := repoName(b, c, "bench")
	start := time.Now()
	sum, err := c.Push(context.Background(), repo, w.st, w.options())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(sum.Chunks)/time.Since(start).Seconds(), "chunks/s")
	rd, err := c.Reader(context.Background(), []string{repo})
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{
		"subscribe to an observable", "merge several streams into one", "retry with a delay after an error",
		"debounce emissions by time", "share a subscription among observers", "convert a promise to an observable",
		"unsubscribe when the notifier emits", "buffer values until a closing signal", "combine the latest values",
		"schedule work asynchronously", "throw an error when no value arrives in time", "map each value to an inner observable and switch",
	}
	prm := search.DefaultParams()
	for _, be := range []struct {
		name string
		rd   search.Reader
	}{{"sqlite", w.st}, {"weaviate", rd}} {
		var ds []time.Duration
		for i := 0; i < b.N; i++ {
			for _, q := range queries {
				t0 := time.Now()
				if _, err := (&search.Pipeline{Store: be.rd}).Rank(context.Background(), search.Request{Query: q, Params: prm}); err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(t0))
			}
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, be.name+"-p50-ms")
		b.ReportMetric(float64(ds[len(ds)*95/100].Microseconds())/1000, be.name+"-p95-ms")
	}
}
