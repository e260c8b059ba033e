package embed

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/embed/onnxbuild"
	"github.com/scry-dev/scry/internal/embed/tokenizer"
)

// codeSamples are real TypeScript shapes: identifiers, punctuation, nesting,
// an empty text and a long one.
var codeSamples = []string{
	"export function validateToken(token: string): boolean {\n  return token.length > 0;\n}",
	"const user = await getUser(request.params.id);",
	"class UserService implements Service {\n  private readonly cache = new Map<string, User>();\n}",
	"",
	"if (error) { throw new Error(`parse failed: ${error.message}`); }",
	strings.Repeat("import { a, b, c } from './module';\n", 40),
}

func bagTable(v, h int) [][]float32 {
	rng := rand.New(rand.NewPCG(1, 1))
	t := make([][]float32, v)
	for i := range t {
		t[i] = make([]float32, h)
		for j := range t[i] {
			t[i][j] = float32(rng.NormFloat64())
		}
	}
	return t
}

// openONNX opens the model in dir on the ONNX Runtime library lib, one
// thread, batch texts a run (0: the default), closed when the test ends.
func openONNX(t *testing.T, dir, lib string, batch int) *ONNX {
	t.Helper()
	return onnxbuild.Open(t, func() (*ONNX, error) {
		return NewONNX(Config{Dir: dir, ONNXRuntimeLib: lib, BatchSize: batch, Threads: 1})
	})
}

func unit(v []float32) []float32 {
	out := append([]float32(nil), v...)
	if err := normalize(out); err != nil {
		panic(err)
	}
	return out
}

func closeTo(t *testing.T, what string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: dimension %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > tol {
			t.Fatalf("%s: [%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

// TestONNXMeanPoolingExact runs a model whose token vectors are rows of a
// known table, so the expected sentence vector is the normalised mean of
// the rows of the tokenizer's ids — checking tokenizer, batching with
// padding, the runtime and pooling end to end.
func TestONNXMeanPoolingExact(t *testing.T) {
	lib := onnxbuild.Runtime(t)
	vocab := onnxbuild.TestVocab()
	table := bagTable(len(vocab), 8)
	dir := onnxbuild.ModelDir(t, map[string][]byte{
		"model.onnx":            onnxbuild.Bag(table),
		"tokenizer.json":        onnxbuild.WordPieceJSON(vocab, true),
		"1_Pooling/config.json": []byte(`{"word_embedding_dimension": 8, "pooling_mode_mean_tokens": true}`),
		"config.json":           []byte(`{"max_position_embeddings": 64}`),
	})
	e := openONNX(t, dir, lib, 4)
	if e.Dim() != 8 {
		t.Fatalf("dim %d", e.Dim())
	}
	got, err := e.EmbedDocuments(context.Background(), codeSamples)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenizer.Load(filepath.Join(dir, "tokenizer.json"), 64)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range codeSamples {
		enc, err := tok.Encode(text)
		if err != nil {
			t.Fatal(err)
		}
		if len(enc.IDs) > 64 {
			t.Fatalf("encoding of %d tokens exceeds the maximum length", len(enc.IDs))
		}
		want := make([]float32, 8)
		for _, id := range enc.IDs {
			for j := range want {
				want[j] += table[id][j] / float32(len(enc.IDs))
			}
		}
		closeTo(t, "text "+string(rune('0'+i)), got[i], unit(want), 1e-5)
	}
	q, err := e.EmbedQuery(context.Background(), codeSamples[0])
	if err != nil {
		t.Fatal(err)
	}
	closeTo(t, "query", q, got[0], 1e-6)
}

func TestONNXCLSPoolingAndPrefixes(t *testing.T) {
	lib := onnxbuild.Runtime(t)
	vocab := onnxbuild.TestVocab()
	table := bagTable(len(vocab), 6)
	scry, _ := json.Marshal(ModelDirConfig{Pooling: "cls", MaxLength: 32, QueryPrefix: "user: ", Name: "bag/cls"})
	dir := onnxbuild.ModelDir(t, map[string][]byte{
		"onnx/model.onnx": onnxbuild.Bag(table),
		"tokenizer.json":  onnxbuild.WordPieceJSON(vocab, true),
		"scry.json":       scry,
	})
	e := openONNX(t, dir, lib, 0)
	vs, err := e.EmbedDocuments(context.Background(), codeSamples[:3])
	if err != nil {
		t.Fatal(err)
	}
	cls := unit(table[2]) // [CLS] is id 2 in the test vocabulary
	for i, v := range vs {
		closeTo(t, "cls "+string(rune('0'+i)), v, cls, 1e-6)
	}
	if id := e.ModelID(); !strings.HasPrefix(id, "onnx/bag_cls@6#") {
		t.Fatalf("model id %q", id)
	}
}

// TestONNXBertShaped runs a 2-layer BERT-shaped encoder (attention with a
// padding mask, GELU feed-forward, LayerNorm): a text's vector must not
// depend on what it is batched with (padding is masked out of attention
// and pooling), and vectors are unit length and deterministic.
func TestONNXBertShaped(t *testing.T) {
	lib := onnxbuild.Runtime(t)
	vocab := onnxbuild.TestVocab()
	cfg := onnxbuild.BertConfig{Vocab: len(vocab), Hidden: 32, Layers: 2, Heads: 4, Intermediate: 64, MaxPos: 128, Seed: 7}
	dir := onnxbuild.ModelDir(t, map[string][]byte{
		"model.onnx":     onnxbuild.BERT(cfg),
		"tokenizer.json": onnxbuild.WordPieceJSON(vocab, true),
		"config.json":    []byte(`{"max_position_embeddings": 128}`),
	})
	e := openONNX(t, dir, lib, 8)
	if e.Dim() != 32 {
		t.Fatalf("dim %d", e.Dim())
	}
	ctx := context.Background()
	batched, err := e.EmbedDocuments(ctx, codeSamples)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range codeSamples {
		alone, err := e.EmbedDocuments(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "alone vs batched "+string(rune('0'+i)), alone[0], batched[i], 1e-4)
		var n float64
		for _, x := range alone[0] {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Fatalf("text %d: norm² %v", i, n)
		}
	}
	if dot(batched[0], batched[1]) > 0.99999 {
		t.Fatal("different texts gave the same vector")
	}
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestONNXBadModelDir(t *testing.T) {
	lib := onnxbuild.Runtime(t)
	if _, err := NewONNX(Config{Dir: t.TempDir(), ONNXRuntimeLib: lib}); err == nil || !strings.Contains(err.Error(), "model.onnx") {
		t.Fatalf("empty directory: %v", err)
	}
	vocab := onnxbuild.TestVocab()
	dir := onnxbuild.ModelDir(t, map[string][]byte{
		"model.onnx":     []byte("not a model"),
		"tokenizer.json": onnxbuild.WordPieceJSON(vocab, true),
	})
	if _, err := NewONNX(Config{Dir: dir, ONNXRuntimeLib: lib}); err == nil {
		t.Fatal("a corrupt model loaded")
	}
}
