package rerank

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/embed/onnxbuild"
	"github.com/scry-dev/scry/internal/embed/tokenizer"
)

var testDocs = []Doc{
	{Name: "validateToken", Kind: "function", Breadcrumb: "src/auth.ts > validateToken", Path: "src/auth.ts",
		Text: "export function validateToken(token: string): boolean {\n  return token.length > 0;\n}"},
	{Name: "UserService", Kind: "class", Breadcrumb: "src/user.ts > UserService", Path: "src/user.ts",
		JSDoc: "/** Loads users. */", Text: "class UserService {\n  get(id: string): Promise<User> {…}\n}"},
	{Name: "parseConfig", Kind: "function", Breadcrumb: "src/config.ts > parseConfig",
		Text: "function parseConfig(text: string) { return JSON.parse(text); }"},
	{Name: "x", Kind: "variable", Breadcrumb: "a.ts > x", Text: ""},
}

// TestONNXCrossEncoderExact runs a cross-encoder whose logit is a known
// linear function of the pair's ids, mask and token types, and checks each
// score is exactly the sigmoid of it — so pair encoding ([CLS] q [SEP] d
// [SEP] with type ids 0/1), batching by length and the mapping to [0,1] are
// all as documented.
func TestONNXCrossEncoderExact(t *testing.T) {
	lib := onnxbuild.Runtime(t)
	vocab := onnxbuild.TestVocab()
	rng := rand.New(rand.NewPCG(2, 3))
	w := make([]float32, len(vocab))
	for i := range w {
		w[i] = float32(rng.NormFloat64() * 0.05)
	}
	const u = 0.03
	dir := onnxbuild.ModelDir(t, map[string][]byte{
		"model.onnx":     onnxbuild.Linear(w, u),
		"tokenizer.json": onnxbuild.WordPieceJSON(vocab, true),
		"scry.json":      []byte(`{"maxLength": 48, "name": "linear"}`),
	})
	r := openONNX(t, dir, lib, 3)
	query := "where is the token validated"
	got := mustRerank(t, r, query, testDocs)
	tok, err := tokenizer.Load(filepath.Join(dir, "tokenizer.json"), 48)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range testDocs {
		enc, err := tok.EncodePair(query, DocText(d, 16*48))
		if err != nil {
			t.Fatal(err)
		}
		if len(enc.IDs) > 48 || enc.IDs[0] != 2 || enc.IDs[len(enc.IDs)-1] != 3 || enc.TypeIDs[len(enc.IDs)-1] != 1 {
			t.Fatalf("doc %d: pair encoding %v / %v", i, enc.IDs, enc.TypeIDs)
		}
		var logit float64
		for j, id := range enc.IDs {
			logit += float64(w[id]) + u*float64(enc.TypeIDs[j])
		}
		if want := Sigmoid(logit); math.Abs(got[i]-want) > 1e-5 {
			t.Fatalf("doc %d: score %v, want sigmoid(%v) = %v", i, got[i], logit, want)
		}
	}
}

// TestONNXCrossEncoderBERT runs a 2-layer BERT cross-encoder (pooler and
// classifier on [CLS]): scores in (0,1), independent of batching.
func TestONNXCrossEncoderBERT(t *testing.T) {
	lib := onnxbuild.Runtime(t)
	vocab := onnxbuild.TestVocab()
	cfg := onnxbuild.BertConfig{Vocab: len(vocab), Hidden: 32, Layers: 2, Heads: 4, Intermediate: 64, MaxPos: 128, CrossEncoder: true, Seed: 9}
	dir := onnxbuild.ModelDir(t, map[string][]byte{
		"model.onnx":     onnxbuild.BERT(cfg),
		"tokenizer.json": onnxbuild.WordPieceJSON(vocab, true),
		"config.json":    []byte(`{"max_position_embeddings": 128}`),
	})
	one := openONNX(t, dir, lib, 1)
	many := openONNX(t, dir, lib, 8)
	a := mustRerank(t, one, "user service", testDocs)
	b := mustRerank(t, many, "user service", testDocs)
	for i := range a {
		if a[i] <= 0 || a[i] >= 1 || math.Abs(a[i]-b[i]) > 1e-5 {
			t.Fatalf("doc %d: %v alone, %v batched", i, a[i], b[i])
		}
	}
}

// BenchmarkONNXCrossEncoderMiniLM40 reranks 40 (query, chunk) pairs with a
// MiniLM-L6-shaped cross-encoder (random weights, fp32), pairs truncated to
// 256 and to 512 tokens:
//
//	SCRY_ONNXRUNTIME_LIB=… go test ./internal/rerank -run '^$' -bench CrossEncoder -benchtime 3x
func BenchmarkONNXCrossEncoderMiniLM40(b *testing.B) {
	for _, maxLen := range []int{256, 512} {
		b.Run(strconv.Itoa(maxLen)+"tokens", func(b *testing.B) { benchCrossEncoder(b, maxLen) })
	}
}

func benchCrossEncoder(b *testing.B, maxLen int) {
	lib := onnxbuild.Runtime(b)
	cfg := onnxbuild.MiniLM
	cfg.CrossEncoder = true
	dir := onnxbuild.ModelDir(b, map[string][]byte{
		"model.onnx":     onnxbuild.BERT(cfg),
		"tokenizer.json": onnxbuild.WordPieceJSON(onnxbuild.PaddedVocab(cfg.Vocab), true),
		"scry.json":      []byte(`{"maxLength": ` + strconv.Itoa(maxLen) + `}`),
	})
	r, err := NewONNX(Config{Dir: dir, ONNXRuntimeLib: lib})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	docs := make([]Doc, 40)
	for i := range docs {
		d := testDocs[i%3]
		for len(d.Text) < 4*maxLen { // more than the pair keeps
			d.Text += "\n" + testDocs[(i+1)%3].Text
		}
		docs[i] = d
	}
	query := "where is the user token validated"
	if enc, _ := r.md.Tokenizer.EncodePair(query, DocText(docs[0], 0)); len(enc.IDs) != maxLen {
		b.Fatalf("pair of %d tokens, want %d", len(enc.IDs), maxLen)
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := r.Rerank(context.Background(), query, docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/40pairs")
}

// openONNX opens the cross-encoder in dir on the ONNX Runtime library lib,
// one thread, batch pairs a run, closed when the test ends.
func openONNX(t *testing.T, dir, lib string, batch int) *ONNX {
	t.Helper()
	return onnxbuild.Open(t, func() (*ONNX, error) {
		return NewONNX(Config{Dir: dir, ONNXRuntimeLib: lib, BatchSize: batch, Threads: 1})
	})
}
