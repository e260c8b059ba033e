package engine_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
)

// BenchmarkSoakRSS answers many questions over many large files in one
// process (as one `serve` does) and reports the resident set at the start
// and end of the questions: with every cache bounded in bytes it stays
// flat. The defaults are the case that once grew to 7.8 GB (140 files of
// 900 KB, 300 questions); a soak, not a CI test.
//
//	go test ./internal/engine -run '^$' -bench SoakRSS -benchtime 1x
//	SCRY_SOAK_FILES=20 SCRY_SOAK_QUERIES=60 ...   (smaller)
func BenchmarkSoakRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc/self/status")
	}
	files, queries := envInt("SCRY_SOAK_FILES", 140), envInt("SCRY_SOAK_QUERIES", 300)
	root := b.TempDir()
	words := []string{"token", "session", "refresh", "parse", "config", "render", "cache", "route", "user", "order"}
	for i := 0; i < files; i++ {
		var sb strings.Builder
		for j := 0; sb.Len() < 900<<10; j++ {
			w, v := words[j%len(words)], words[(i+j)%len(words)]
			fmt.Fprintf(&sb, "/** %s the %s of part %d. */\nexport function %s%s%d_%d(input: string, limit: number): string {\n  const %s = input.slice(0, limit)\n  return %s + %q\n}\n\n",
				w, v, j, w, strings.ToUpper(v[:1])+v[1:], i, j, v, v, strings.Repeat(w, 3))
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("m%03d.ts", i)), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(b.TempDir(), "index.db"), Getenv: func(string) string { return "" }, Sync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		var first, mid, peak int64
		for q := 0; q < queries; q++ {
			text := fmt.Sprintf("%s %s %d", words[q%len(words)], words[(q/len(words))%len(words)], q%files)
			if _, err := e.Search(ctx, engine.Query{Text: text}); err != nil {
				b.Fatal(err)
			}
			rss := residentBytes(b)
			if q == queries/10 {
				first = rss // after warm-up: caches filling is expected
			}
			if q == queries/2 {
				mid = rss // flat from here on is what bounded caches promise
			}
			peak = max(peak, rss)
		}
		last := residentBytes(b)
		// The Go heap against the resident set tells the caches (Go
		// memory) from the parsers' C allocations and SQLite's.
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MB-go-heap-end")
		b.ReportMetric(float64(ms.Sys-ms.HeapReleased)/(1<<20), "MB-go-held-end")
		b.ReportMetric(float64(statusBytes(b, "RssFile:"))/(1<<20), "MB-rss-file-end")
		b.ReportMetric(float64(first)/(1<<20), "MB-rss-warm")
		b.ReportMetric(float64(mid)/(1<<20), "MB-rss-half")
		b.ReportMetric(float64(last)/(1<<20), "MB-rss-end")
		b.ReportMetric(float64(peak)/(1<<20), "MB-rss-peak")
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func residentBytes(tb testing.TB) int64 { return statusBytes(tb, "VmRSS:") }

// statusBytes reads a "kB" field of /proc/self/status.
func statusBytes(tb testing.TB, field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb << 10
		}
	}
	tb.Fatalf("no %s in /proc/self/status", field)
	return 0
}
