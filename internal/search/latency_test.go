//go:build unix

package search_test

import (
	"context"
	"os"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/terms"
)

// BenchmarkLexicalLatency measures query latency on an existing index (for
// example one of 100k+ chunks built with `scry index --index FILE`): the
// BM25F first stage alone, and the ranked pipeline (first stage, reranker,
// blend, selection) without rendering.
//
//	SCRY_BENCH_INDEX=/tmp/speed.db go test ./internal/search -run '^$' -bench LexicalLatency -benchtime 1x
func BenchmarkLexicalLatency(b *testing.B) {
	path := os.Getenv("SCRY_BENCH_INDEX")
	if path == "" {
		b.Skip("SCRY_BENCH_INDEX not set")
	}
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	_, chunks, _ := st.Stats()
	queries := []string{
		"retry an observable when it errors", "parse a schema", "interrupt a running fiber", "format a date",
		"merge several streams", "compare two values for equality", "resolve module names", "emit a diagnostic",
		"check whether a node is an identifier", "buffer values until a notifier emits", "add days to a date",
		"create a program from root files", "switch to a new inner observable", "acquire and release a resource",
		"print a type to a string", "a queue with bounded capacity", "get the text of a source file",
		"difference in calendar months", "cancel a subscription", "infer the type of an expression",
	}
	pl := search.Pipeline{Store: st}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var first, full, firstCPU, fullCPU []time.Duration
		for round := 0; round < 5; round++ {
			for _, q := range queries {
				t0, c0 := time.Now(), processCPU()
				if _, err := st.Search(chunkindex.Query{Terms: terms.Query(q), Limit: 40}); err != nil {
					b.Fatal(err)
				}
				first, firstCPU = append(first, time.Since(t0)), append(firstCPU, processCPU()-c0)
				t0, c0 = time.Now(), processCPU()
				if _, err := pl.Search(context.Background(), search.Request{Query: q, Params: search.DefaultParams()}); err != nil {
					b.Fatal(err)
				}
				full, fullCPU = append(full, time.Since(t0)), append(fullCPU, processCPU()-c0)
			}
		}
		report := func(name string, d []time.Duration) {
			sort.Slice(d, func(a, c int) bool { return d[a] < d[c] })
			b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, name+"_p50_ms")
			b.ReportMetric(float64(d[len(d)*95/100].Microseconds())/1000, name+"_p95_ms")
		}
		report("bm25", first)
		report("ranked", full)
		// CPU time (user + system, the whole process, queries run one at a
		// time) moves far less than wall time when other work shares the
		// machine.
		report("bm25_cpu", firstCPU)
		report("ranked_cpu", fullCPU)
	}
	b.ReportMetric(float64(chunks), "chunks")
}

// processCPU is the process's user + system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
