package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/terms"
	"github.com/scry-dev/scry/internal/workspace"
)

// Query words, placed in the benchmark vocabulary behind a few keyword-like
// fillers so that their document frequencies span what real query words
// have in code: from a few percent of the chunks to most of them.
var benchWords = strings.Fields(`user session token auth validate parse request response handler
	config load save cache key value map list item index search query result error retry timeout
	connection pool client server route path file read write stream buffer encode decode json http
	event emit listen subscribe observable promise async await schedule queue worker job task state
	store reducer action dispatch render component props context hook effect memo ref element node
	tree walk visit transform plugin module export import resolve registry provider factory builder
	logger metric trace span header cookie password hash salt crypto sign verify permission role`)

var benchFillers = strings.Fields(`const return this await string number new if else null
	undefined true false let type of void any`)

// zipfCorpus draws words from a Zipf distribution over a vocabulary of fillers,
// query words and pseudo-words, the shape of identifier statistics in code.
type zipfCorpus struct {
	r     *rand.Rand
	vocab []string
	zipf  *rand.Zipf
}

func newCorpus(seed uint64) *zipfCorpus {
	r := rand.New(rand.NewPCG(seed, seed+1))
	words := slices.Clone(benchWords)
	r.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	syl := strings.Fields("ka lo mi ne ru sa te vi zo da fe gu hi jo pe qu ri so tu wa xe yo")
	pseudo := func() string {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		return b.String()
	}
	// Query words sit every 12 ranks from rank 20 on (down to ~2000).
	vocab := slices.Clone(benchFillers)
	for len(vocab) < 20000 {
		if i := len(vocab) - 20; i >= 0 && i%12 == 0 && i/12 < len(words) {
			vocab = append(vocab, words[i/12])
		} else {
			vocab = append(vocab, pseudo())
		}
	}
	return &zipfCorpus{r: r, vocab: vocab, zipf: rand.NewZipf(r, 1.07, 2, uint64(len(vocab)-1))}
}

func (c *zipfCorpus) word() string { return c.vocab[c.zipf.Uint64()] }

func (c *zipfCorpus) ident() string {
	n := 1 + c.r.IntN(3)
	var b strings.Builder
	for j := range n {
		w := c.word()
		if j > 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// chunk builds a function chunk of 3 to 30 lines.
func (c *zipfCorpus) chunk(file string, i int) chunk.Chunk {
	name := c.ident()
	sig := fmt.Sprintf("export function %s(%s: %s, %s: number): Promise<%s>", name, c.ident(), c.ident(), c.ident(), c.ident())
	var body strings.Builder
	for range 3 + c.r.IntN(28) {
		fmt.Fprintf(&body, "  const %s = await %s.%s(%s, %q);\n", c.ident(), c.ident(), c.ident(), c.ident(), c.ident())
	}
	src := sig + " {\n" + body.String() + "}"
	return chunk.Chunk{
		ID: fmt.Sprintf("%s#%d", file, i), FilePath: "/ws/" + file, RelativePath: file, NodeKind: "function",
		Name: name, Signature: sig, FullSource: src, StartLine: i*40 + 1, EndLine: i*40 + 35,
		JSDoc: "/** " + c.ident() + " " + c.ident() + " */", EmbeddingText: src, Breadcrumb: file + " > " + name,
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
	c := newCorpus(1)
	start := time.Now()
	for f := range files {
		p := fmt.Sprintf("pkg%d/src/mod%d/file%d.ts", f%7, f%50, f)
		cs := make([]chunk.Chunk, perFile)
		for i := range cs {
			cs[i] = c.chunk(p, i)
		}
		if _, err := s.ReplaceFile(chunkindex.FileRecord{Path: p, Language: "typescript"}, cs); err != nil {
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
	// The cases run interleaved, one search of each per iteration, so that
	// a noisy machine affects them alike; ns/op is one round of all cases.
	cases := []struct {
		name  string
		paths []string
		langs []string
	}{
		{"all", nil, nil},
		{"dir", []string{"pkg3/src/mod10"}, nil},            // 29 scattered files: id set
		{"glob", []string{"pkg3/**/mod1*/*.ts"}, nil},       // 1/70 of the files: id set
		{"range", []string{"**/file1???.ts"}, nil},          // 1/10, indexed in a row: one rowid range
		{"broad", []string{"*.ts"}, []string{"typescript"}}, // every file: no restriction
	}
	lat := make([][]time.Duration, len(cases))
	i := 0
	for b.Loop() {
		q := terms.Query(queries[i%len(queries)])
		for j, tc := range cases {
			t0 := time.Now()
			_, err := s.Search(chunkindex.Query{Terms: q, Paths: tc.paths, Languages: tc.langs, Limit: 20})
			lat[j] = append(lat[j], time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
		}
		i++
	}
	for j, tc := range cases {
		slices.Sort(lat[j])
		b.ReportMetric(float64(lat[j][len(lat[j])/2].Nanoseconds()), tc.name+"-p50-ns")
		b.ReportMetric(float64(lat[j][len(lat[j])*95/100].Nanoseconds()), tc.name+"-p95-ns")
	}
	b.ReportMetric(float64(files*perFile)/insert.Seconds(), "insert-chunks/s")
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWriteTree times the writer's side of a cold index of the tree
// named by SCRY_BENCH_TREE: every file is parsed, chunked and prepared
// first, untimed, then written in batches as the indexer writes them
// (1024 files or 64 MB a batch), merged by Optimize and closed. The
// writer is one goroutine, so cpu-s is its cost with little noise from
// other work on the machine.
//
//	SCRY_BENCH_TREE=/path/to/corpus go test ./internal/store -run '^$' -bench WriteTree -benchtime 1x
func BenchmarkWriteTree(b *testing.B) {
	dir := os.Getenv("SCRY_BENCH_TREE")
	if dir == "" {
		b.Skip("SCRY_BENCH_TREE not set")
	}
	found, err := workspace.Discover(dir, workspace.Options{MaxFileSize: 16 << 20})
	if err != nil {
		b.Fatal(err)
	}
	type file struct {
		rec    chunkindex.FileRecord
		chunks []chunk.Chunk
		prep   *Prepared
	}
	var files []file
	var size int64
	for i, f := range found.Files {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			b.Fatal(err)
		}
		if workspace.CheckContent(f.Rel, src) != "" {
			continue
		}
		pf, err := parse.Parse(f.Path, src, "")
		if err != nil {
			b.Fatal(err)
		}
		cs := chunk.File(pf, f.Path, f.Rel)
		files = append(files, file{
			rec:    chunkindex.FileRecord{Path: f.Rel, Size: f.Size, Mtime: f.ModTime, ContentHash: "h", Language: pf.Language, ID: int64(i + 1)},
			chunks: cs,
			prep:   PrepareFile(cs, src),
		})
		size += int64(len(src))
	}
	b.SetBytes(size)
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "index.db")
		cpu := cpuTime(b)
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		var batch *Batch
		var bytes int64
		for _, f := range files {
			if batch == nil {
				if batch, err = s.Begin(); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := batch.ReplaceFile(f.rec, f.chunks, f.prep); err != nil {
				b.Fatal(err)
			}
			bytes += f.rec.Size
			if batch.Files() >= 1024 || bytes >= 64<<20 {
				if err := batch.Commit(); err != nil {
					b.Fatal(err)
				}
				batch, bytes = nil, 0
			}
		}
		if batch != nil {
			if err := batch.Commit(); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Optimize(); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric((cpuTime(b) - cpu).Seconds(), "cpu-s")
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(fi.Size())/float64(size), "index/source")
	}
}
