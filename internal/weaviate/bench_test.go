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
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
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
	repo := weaviatetest.TenantOf(b, c, "bench")
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

// BenchmarkScale measures ranked-query latency on the cluster of the scale
// run (scripts/weaviate-scale.sh): each query against its own repository,
// and the same queries against eight repositories at once; with
// SCRY_SCALE_INDEXES (the run's OUT/idx), also each query against its
// repository's local SQLite index. It reports p50 and p95 of each.
//
//	source OUT/cluster/env
//	SCRY_SCALE_REPOS=$(cat OUT/repos) SCRY_SCALE_INDEXES=OUT/idx \
//	  go test ./internal/weaviate -run '^$' -bench Scale -benchtime 3x
func BenchmarkScale(b *testing.B) {
	list := os.Getenv("SCRY_SCALE_REPOS")
	if list == "" || os.Getenv("SCRY_WEAVIATE_URL") == "" {
		b.Skip("needs SCRY_SCALE_REPOS and SCRY_WEAVIATE_URL (see scripts/weaviate-scale.sh)")
	}
	have := map[string]bool{}
	for _, r := range strings.Split(list, ",") {
		have[r] = true
	}
	asked := []struct{ repo, query string }{
		{"rxjs", "merge several streams into one"},
		{"three", "compute the bounding box of a geometry"},
		{"date-fns", "add a number of days to a date"},
		{"typescript", "resolve a module name"},
		{"mathjs", "multiply two matrices"},
		{"graphql", "validate a document against a schema"},
		{"lodash-es", "debounce a function call"},
		{"effect", "retry an effect with a schedule"},
		{"fp-ts", "sequence an array of options"},
		{"commander", "parse the options of a command line"},
	}
	var pairs []struct{ repo, query string }
	var repos []string
	for _, p := range asked {
		if have[p.repo] {
			pairs = append(pairs, p)
			repos = append(repos, p.repo)
		}
	}
	if len(pairs) < 3 {
		b.Skipf("only %d of the benchmark's repositories are in the cluster", len(pairs))
	}
	c := connect(b)
	ctx := context.Background()
	prm := search.DefaultParams()
	measure := func(name string, readerOf func(string) (search.Reader, error)) {
		var ds []time.Duration
		for i := 0; i < b.N; i++ {
			for _, p := range pairs {
				rd, err := readerOf(p.repo)
				if err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				rs, err := (&search.Pipeline{Store: rd}).Rank(ctx, search.Request{Query: p.query, Params: prm})
				if err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(t0))
				if i == 0 && len(rs) > 0 {
					b.Logf("%s %q: %s", name, p.query, rs[0].Chunk.Breadcrumb)
				}
			}
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(ds[len(ds)*95/100].Microseconds())/1000, name+"-p95-ms")
	}
	if dir := os.Getenv("SCRY_SCALE_INDEXES"); dir != "" {
		local := map[string]*store.Store{}
		defer func() {
			for _, st := range local {
				st.Close()
			}
		}()
		measure("sqlite", func(r string) (search.Reader, error) {
			if st := local[r]; st != nil {
				return st, nil
			}
			st, err := store.Open(filepath.Join(dir, r+".db"))
			local[r] = st
			return st, err
		})
	}
	measure("one-repo", func(r string) (search.Reader, error) { return c.Reader(ctx, []string{r}) })
	many := repos[:min(8, len(repos))]
	measure("eight-repos", func(string) (search.Reader, error) { return c.Reader(ctx, many) })
}
