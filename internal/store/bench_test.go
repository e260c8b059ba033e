package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/terms"
)

var benchWords = strings.Fields(`user session token auth validate parse request response handler
	config load save cache key value map list item index search query result error retry timeout
	connection pool client server route path file read write stream buffer encode decode json http
	event emit listen subscribe observable promise async await schedule queue worker job task state
	store reducer action dispatch render component props context hook effect memo ref element node
	tree walk visit transform plugin module export import resolve registry provider factory builder
	logger metric trace span header cookie password hash salt crypto sign verify permission role`)

// synthChunk builds a function chunk of about 15 lines made of identifiers
// from benchWords, so that term statistics look like code: a few frequent
// words, many rarer compounds.
func synthChunk(r *rand.Rand, file string, i int) chunk.Chunk {
	ident := func() string {
		n := 1 + r.IntN(3)
		var b strings.Builder
		for j := range n {
			w := benchWords[r.IntN(len(benchWords))]
			if j > 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		}
		return b.String()
	}
	name := ident()
	sig := fmt.Sprintf("export function %s(%s: %s, %s: number): Promise<%s>", name, ident(), ident(), ident(), ident())
	var body strings.Builder
	for range 12 {
		fmt.Fprintf(&body, "  const %s = await %s.%s(%s, %q);\n", ident(), ident(), ident(), ident(), ident())
	}
	src := sig + " {\n" + body.String() + "}"
	return chunk.Chunk{
		ID: fmt.Sprintf("%s#%d", file, i), FilePath: "/ws/" + file, RelativePath: file, NodeKind: "function",
		Name: name, Signature: sig, FullSource: src, StartLine: i*20 + 1, EndLine: i*20 + 15,
		JSDoc: "/** " + ident() + " " + ident() + " */", EmbeddingText: src, Breadcrumb: file + " > " + name,
		Exported: true, Modifiers: []string{"export", "async"},
	}
}

func BenchmarkSearch100k(b *testing.B) {
	const files, perFile = 10_000, 10
	s, err := Open(filepath.Join(b.TempDir(), "index.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for f := range files {
		p := fmt.Sprintf("pkg%d/src/mod%d/file%d.ts", f%7, f%50, f)
		cs := make([]chunk.Chunk, perFile)
		for i := range cs {
			cs[i] = synthChunk(r, p, i)
		}
		if _, err := s.ReplaceFile(FileRecord{Path: p, Language: "typescript"}, cs); err != nil {
			b.Fatal(err)
		}
	}
	insert := time.Since(start)
	if err := s.Optimize(); err != nil {
		b.Fatal(err)
	}

	queries := []string{
		"validate session token", "parse http request header", "retry connection timeout",
		"cache key value", "emit event listener", "verifyPasswordHash", "load config file",
		"render component props", "schedule worker job queue", "resolve module import",
	}
	for _, tc := range []struct {
		name  string
		paths []string
	}{
		{"all", nil},
		{"pathglob", []string{"pkg3/**/mod1*/*.ts"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportMetric(float64(files*perFile)/insert.Seconds(), "insert-chunks/s")
			var lat []time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				hits, err := s.Search(Query{Terms: terms.Query(queries[i%len(queries)]), Paths: tc.paths, Limit: 20})
				lat = append(lat, time.Since(t0))
				if err != nil || len(hits) == 0 {
					b.Fatalf("%q: %d hits, %v", queries[i%len(queries)], len(hits), err)
				}
				i++
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(lat[len(lat)*95/100].Nanoseconds()), "p95-ns")
		})
	}
}
