package builtin

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/parse"
)

// golden texts: a query and a chunk, embedded by the shipped model.
var goldenTexts = []struct {
	Side Side
	Text string
}{
	{Query, "where are bearer tokens checked before a request is handled"},
	{Doc, "export function verifyAuthorization(req: Request): User {\n  const header = req.headers.get('authorization') ?? '';\n  return jwt.verify(header.replace(/^Bearer /, ''), secret);\n}"},
}

type goldenFile struct {
	Model   string      `json:"model"`
	Vectors [][]float32 `json:"vectors"`
}

// The shipped weights load, and embed known texts to the vectors stored
// when they were trained (go test ./internal/embed/builtin -update after
// `make model`).
func TestShippedModelGolden(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() <= 0 || m.VocabSize() < 1000 || m.Size() > 32<<20 {
		t.Fatalf("shipped model: dim %d, vocabulary %d, %d bytes", m.Dim(), m.VocabSize(), m.Size())
	}
	got := goldenFile{Model: m.ID()}
	for _, g := range goldenTexts {
		got.Vectors = append(got.Vectors, m.Embed(g.Text, g.Side))
	}
	path := filepath.Join("testdata", "golden.json")
	if golden.Updating() {
		b, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want goldenFile
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if want.Model != got.Model {
		t.Fatalf("model %s, golden file is for %s (run with -update after retraining)", got.Model, want.Model)
	}
	for i, v := range got.Vectors {
		if len(v) != len(want.Vectors[i]) {
			t.Fatalf("text %d: dim %d, want %d", i, len(v), len(want.Vectors[i]))
		}
		for j := range v {
			if math.Abs(float64(v[j]-want.Vectors[i][j])) > 1e-6 {
				t.Fatalf("text %d: component %d is %g, want %g", i, j, v[j], want.Vectors[i][j])
			}
		}
		if n := norm(v); math.Abs(n-1) > 1e-4 {
			t.Errorf("text %d: norm %g", i, n)
		}
	}
	// The question and the code that answers it share no word: a useful
	// model still puts them closer than the question and unrelated code.
	other := m.Embed("export function formatDate(d: Date): string { return d.toISOString().slice(0, 10); }", Doc)
	if simAns, simOther := dot(got.Vectors[0], got.Vectors[1]), dot(got.Vectors[0], other); simAns <= simOther {
		t.Errorf("similarity to the answer %.3f <= to unrelated code %.3f", simAns, simOther)
	}
}

func norm(v []float32) float64 { return math.Sqrt(float64(dot(v, v))) }

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Quantising to int8 keeps every vector within a small angle of the float
// model's.
func TestMarshalRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := &Weights{Dim: 16, Vocab: []string{"pars", "durat", "millisecond", "format"}, Buckets: 32}
	w.Emb = make([]float32, w.Rows()*w.Dim)
	for i := range w.Emb {
		w.Emb[i] = float32(rng.NormFloat64())
	}
	w.QueryWeight = []float32{1, 0.5, 2, 1, 0.7}
	w.DocWeight = []float32{0.3, 1, 1, 1.5, 0.9}
	m, err := Load(w.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	tok := NewTokenizer(w.Vocab, w.Buckets)
	for _, text := range []string{"parseDuration(ms)", "format milliseconds", "zzyzx qwerty"} {
		for _, side := range []Side{Query, Doc} {
			items := tok.Items(text)
			want := floatEmbed(w, items, side)
			got := m.Embed(text, side)
			if c := dot(want, got); c < 0.999 {
				t.Errorf("%q side %d: cosine to the float model %.4f", text, side, c)
			}
		}
	}
	if _, err := Load([]byte("SCRYEMB1 truncated")); err == nil {
		t.Error("a truncated model loaded")
	}
	if _, err := Load(append(w.Marshal(), 0)); err == nil {
		t.Error("a model with trailing bytes loaded")
	}
}

func floatEmbed(w *Weights, items []Item, side Side) []float32 {
	ws := w.DocWeight
	if side == Query {
		ws = w.QueryWeight
	}
	v := make([]float32, w.Dim)
	for _, it := range items {
		a := ws[it.Weight] * it.Coef() / float32(len(it.Rows))
		for _, r := range it.Rows {
			for j := 0; j < w.Dim; j++ {
				v[j] += a * w.Emb[int(r)*w.Dim+j]
			}
		}
	}
	Normalize(v)
	return v
}

func TestTokenizer(t *testing.T) {
	tok := NewTokenizer([]string{"pars", "durat"}, 100)
	items := tok.Items("parseDuration parse parse zzyzx")
	// parse (×3, stemmed "pars"), duration, the compound "parseduration"
	// and zzyzx: the last two unknown, each a mean of trigram rows.
	if len(items) != 4 {
		t.Fatalf("items %+v", items)
	}
	if items[0].Weight != 0 || items[0].Count != 3 || len(items[0].Rows) != 1 {
		t.Errorf("parse: %+v", items[0])
	}
	for _, it := range items[2:] {
		if it.Weight != 2 || len(it.Rows) == 0 {
			t.Errorf("unknown term: %+v", it)
		}
		for _, r := range it.Rows {
			if r < 2 || r >= 102 {
				t.Errorf("trigram row %d outside the buckets", r)
			}
		}
	}
	if got := NewTokenizer(nil, 0).Items("anything at all"); len(got) != 0 {
		t.Errorf("no vocabulary and no buckets: %+v", got)
	}
	long := strings.Repeat("word ", MaxTextBytes)
	if n := len(Terms(long + "tail")); n > MaxTextBytes/5+1 {
		t.Errorf("%d terms from a text over the cap", n)
	}
}

// Embedding throughput over real chunks, chunked by scry's own chunker:
// the files under $SCRY_CORPUS (the test corpus, rxjs and effect sources;
// `source .cache/testdeps/env`) when set, else the parser's fixtures. One
// core; chunks/cpu-s divides by the process's CPU time rather than wall
// time, so that it holds on a shared machine:
//
//	go test ./internal/embed/builtin -run '^$' -bench . -cpu 1
func BenchmarkEmbedChunks(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	texts := benchChunks(b)
	b.ResetTimer()
	cpu0 := cpuSeconds()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			m.Embed(t, Doc)
		}
		n += len(texts)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(float64(n)/(cpuSeconds()-cpu0), "chunks/cpu-s")
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func BenchmarkEmbedQuery(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		m.Embed("where are bearer tokens checked before a request is handled", Query)
	}
}

// benchChunks chunks up to 400 source files, in path order.
func benchChunks(b testing.TB) []string {
	dir := os.Getenv("SCRY_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "testdata", "fixtures")
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && parse.LanguageOf(p) != "" && !strings.HasSuffix(p, ".d.ts") && len(files) < 400 {
			files = append(files, p)
		}
		return nil
	})
	var texts []string
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		f, err := parse.Parse(p, src, "")
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range chunk.File(f, p, p) {
			texts = append(texts, c.EmbeddingText)
		}
	}
	if len(texts) < 100 {
		b.Fatalf("only %d fixture chunks", len(texts))
	}
	var bytes int
	for _, t := range texts {
		bytes += len(t)
	}
	b.Logf("%d chunks of %d files under %s, %d bytes on average", len(texts), len(files), dir, bytes/len(texts))
	return texts
}

// EmbedScratch gives Embed's vectors exactly, text after text with one
// Scratch (so stale buffers would show), on real chunks and on texts of
// unknown terms, repeats and nothing at all.
func TestEmbedScratchMatchesEmbed(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	texts := append(benchChunks(t), "", "  ;; ", "zzqxv zzqxv zzqxv unknownIdentifierZzq", strings.Repeat("validateToken ", 5000))
	var sc Scratch
	for i, text := range texts {
		want := m.Embed(text, Doc)
		got := m.EmbedScratch(&sc, text, Doc)
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("text %d (%.40q): component %d is %v, Embed gives %v", i, text, j, got[j], want[j])
			}
		}
	}
	q := "where are bearer tokens checked"
	if got, want := m.EmbedScratch(&sc, q, Query), m.Embed(q, Query); got[0] != want[0] || got[m.Dim()-1] != want[m.Dim()-1] {
		t.Errorf("query side differs: %v… against %v…", got[:2], want[:2])
	}
}

func BenchmarkEmbedScratch(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	texts := benchChunks(b)
	var sc Scratch
	b.ResetTimer()
	cpu0 := cpuSeconds()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			m.EmbedScratch(&sc, t, Doc)
		}
		n += len(texts)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(float64(n)/(cpuSeconds()-cpu0), "chunks/cpu-s")
}

func TestPrefix(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 3, "abc"},
		{"abcdef", 4, "abcd"},
		{"aé", 2, "a"},   // é is two bytes: never half of it
		{"aéb", 3, "aé"}, // a cut right after it keeps it
		{"é", 1, ""},
	}
	for _, tt := range tests {
		if got := Prefix(tt.text, tt.n); got != tt.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}
