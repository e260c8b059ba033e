package onnxbuild

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BertConfig is the shape of a BERT encoder.
type BertConfig struct {
	Vocab, Hidden, Layers, Heads, Intermediate, MaxPos int
	// CrossEncoder adds BERT's pooler and a one-logit classifier on the
	// [CLS] position; otherwise the output is last_hidden_state.
	CrossEncoder bool
	Seed         uint64
}

// MiniLM is all-MiniLM-L6-v2's shape (22M parameters); Base is
// bert-base's (110M).
var (
	MiniLM = BertConfig{Vocab: 30522, Hidden: 384, Layers: 6, Heads: 12, Intermediate: 1536, MaxPos: 512}
	Base   = BertConfig{Vocab: 30522, Hidden: 768, Layers: 12, Heads: 12, Intermediate: 3072, MaxPos: 512}
)

// BERT returns a BERT-shaped encoder with random weights (normal, σ=0.02,
// as BERT initialises them). Inputs: input_ids, attention_mask and
// token_type_ids, int64 [batch, seq]. Output: last_hidden_state float
// [batch, seq, hidden], or logits [batch, 1] for a cross-encoder. The graph
// is the standard one: embeddings + LayerNorm, then per layer multi-head
// self-attention with an additive mask, residual + LayerNorm, GELU
// feed-forward, residual + LayerNorm.
func BERT(c BertConfig) []byte {
	if c.Hidden%c.Heads != 0 {
		panic(fmt.Sprintf("onnxbuild: hidden %d is not a multiple of heads %d", c.Hidden, c.Heads))
	}
	g := &Graph{Name: "bert"}
	rng := rand.New(rand.NewPCG(c.Seed, 0x5c7))
	H, I := int64(c.Hidden), int64(c.Intermediate)
	nh, hd := int64(c.Heads), int64(c.Hidden/c.Heads)
	weight := func(name string, dims ...int64) string {
		n := int64(1)
		for _, d := range dims {
			n *= d
		}
		data := make([]float32, n)
		for i := range data {
			data[i] = float32(rng.NormFloat64() * 0.02)
		}
		return g.Init(Tensor{Name: name, Dims: dims, Type: Float, Float: data})
	}
	filled := func(name string, v float32, dims ...int64) string {
		n := int64(1)
		for _, d := range dims {
			n *= d
		}
		data := make([]float32, n)
		for i := range data {
			data[i] = v
		}
		return g.Init(Tensor{Name: name, Dims: dims, Type: Float, Float: data})
	}
	scalarF := func(name string, v float32) string {
		return g.Init(Tensor{Name: name, Type: Float, Float: []float32{v}})
	}
	ints := func(name string, v ...int64) string {
		return g.Init(Tensor{Name: name, Dims: []int64{int64(len(v))}, Type: Int64, Int: v})
	}
	scalarI := func(name string, v int64) string {
		return g.Init(Tensor{Name: name, Type: Int64, Int: []int64{v}})
	}
	ln := func(x, prefix string) string {
		return g.Add("LayerNormalization", []string{x, filled(prefix+"_g", 1, H), filled(prefix+"_b", 0, H)},
			AttrInt("axis", -1), AttrFloat("epsilon", 1e-12))
	}
	dense := func(x, prefix string, in, out int64) string {
		return g.Add("Add", []string{g.Add("MatMul", []string{x, weight(prefix+"_w", in, out)}), filled(prefix+"_b", 0, out)})
	}

	// Embeddings: word + position + token type.
	we := g.Add("Gather", []string{weight("word_emb", int64(c.Vocab), H), "input_ids"})
	shape := g.Add("Shape", []string{"input_ids"})
	seqLen := g.Add("Gather", []string{shape, scalarI("c_one", 1)}, AttrInt("axis", 0))
	pos := g.Add("Range", []string{scalarI("c_zero", 0), seqLen, scalarI("c_step", 1)})
	pe := g.Add("Gather", []string{weight("pos_emb", int64(c.MaxPos), H), pos})
	te := g.Add("Gather", []string{weight("type_emb", 2, H), "token_type_ids"})
	x := ln(g.Add("Add", []string{g.Add("Add", []string{we, pe}), te}), "emb_ln")

	// Additive attention mask: 0 for tokens, -10000 for padding, shaped
	// [batch, 1, 1, seq] to broadcast over heads and query positions.
	m := g.Add("Cast", []string{"attention_mask"}, AttrInt("to", Float))
	m4 := g.Add("Unsqueeze", []string{m, ints("c_axes12", 1, 2)})
	bias := g.Add("Mul", []string{g.Add("Sub", []string{scalarF("c_1f", 1), m4}), scalarF("c_neg", -10000)})
	split := ints("c_split", 0, 0, nh, hd)
	merge := ints("c_merge", 0, 0, H)
	scale := scalarF("c_scale", float32(1/math.Sqrt(float64(hd))))
	sqrt2 := scalarF("c_sqrt2", float32(math.Sqrt2))
	half := scalarF("c_half", 0.5)

	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("l%d", l)
		heads := func(name string, perm ...int64) string {
			return g.Add("Transpose", []string{g.Add("Reshape", []string{dense(x, p+name, H, H), split})}, AttrInts("perm", perm...))
		}
		q := heads("_q", 0, 2, 1, 3)         // [B, nh, S, hd]
		k := heads("_k", 0, 2, 3, 1)         // [B, nh, hd, S]
		v := heads("_v", 0, 2, 1, 3)         // [B, nh, S, hd]
		s := g.Add("MatMul", []string{q, k}) // [B, nh, S, S]
		s = g.Add("Add", []string{g.Add("Mul", []string{s, scale}), bias})
		a := g.Add("Softmax", []string{s}, AttrInt("axis", -1))
		ctx := g.Add("MatMul", []string{a, v})
		ctx = g.Add("Reshape", []string{g.Add("Transpose", []string{ctx}, AttrInts("perm", 0, 2, 1, 3)), merge})
		x = ln(g.Add("Add", []string{x, dense(ctx, p+"_o", H, H)}), p+"_ln1")
		f := dense(x, p+"_f1", H, I)
		// GELU as BERT defines it: 0.5·f·(1 + erf(f/√2)).
		gelu := g.Add("Mul", []string{g.Add("Mul", []string{f, half}),
			g.Add("Add", []string{g.Add("Erf", []string{g.Add("Div", []string{f, sqrt2})}), scalarF(p+"_one", 1)})})
		x = ln(g.Add("Add", []string{x, dense(gelu, p+"_f2", I, H)}), p+"_ln2")
	}

	g.Inputs = []Value{
		{Name: "input_ids", Type: Int64, Dims: []any{"batch", "sequence"}},
		{Name: "attention_mask", Type: Int64, Dims: []any{"batch", "sequence"}},
		{Name: "token_type_ids", Type: Int64, Dims: []any{"batch", "sequence"}},
	}
	if c.CrossEncoder {
		cls := g.Add("Gather", []string{x, scalarI("c_cls", 0)}, AttrInt("axis", 1)) // [B, H]
		pooled := g.Add("Tanh", []string{dense(cls, "pooler", H, H)})
		logits := dense(pooled, "classifier", H, 1)
		g.Rename(logits, "logits")
		g.Outputs = []Value{{Name: "logits", Type: Float, Dims: []any{"batch", 1}}}
	} else {
		g.Rename(x, "last_hidden_state")
		g.Outputs = []Value{{Name: "last_hidden_state", Type: Float, Dims: []any{"batch", "sequence", c.Hidden}}}
	}
	return g.Model()
}

// Bag returns a model whose output token_embeddings[b, t] is table[ids[b, t]]:
// with pooling done outside the model, the expected sentence vector can be
// computed by hand from the tokenizer's ids.
func Bag(table [][]float32) []byte {
	g := &Graph{Name: "bag"}
	h := len(table[0])
	flat := make([]float32, 0, len(table)*h)
	for _, row := range table {
		flat = append(flat, row...)
	}
	e := g.Init(Tensor{Name: "table", Dims: []int64{int64(len(table)), int64(h)}, Type: Float, Float: flat})
	out := g.Add("Gather", []string{e, "input_ids"})
	// The mask is an input real models have; multiplying by 1 keeps it
	// consumed without changing the output.
	mask := g.Add("Cast", []string{"attention_mask"}, AttrInt("to", Float))
	one := g.Add("Add", []string{g.Add("Mul", []string{mask, g.Init(Tensor{Name: "zero", Type: Float, Float: []float32{0}})}),
		g.Init(Tensor{Name: "one", Type: Float, Float: []float32{1}})})
	axes := g.Init(Tensor{Name: "axes", Dims: []int64{1}, Type: Int64, Int: []int64{2}})
	out = g.Add("Mul", []string{out, g.Add("Unsqueeze", []string{one, axes})})
	g.Rename(out, "token_embeddings")
	g.Inputs = []Value{
		{Name: "input_ids", Type: Int64, Dims: []any{"batch", "sequence"}},
		{Name: "attention_mask", Type: Int64, Dims: []any{"batch", "sequence"}},
	}
	g.Outputs = []Value{{Name: "token_embeddings", Type: Float, Dims: []any{"batch", "sequence", h}}}
	return g.Model()
}

// Linear returns a cross-encoder whose logit for a row is
// Σ_t mask_t·(w[ids_t] + u·type_t): exact to check by hand, and sensitive
// to ids, mask and token types alike.
func Linear(w []float32, u float32) []byte {
	g := &Graph{Name: "linear"}
	wt := g.Init(Tensor{Name: "w", Dims: []int64{int64(len(w)), 1}, Type: Float, Float: w})
	axes := g.Init(Tensor{Name: "axes", Dims: []int64{1}, Type: Int64, Int: []int64{2}})
	per := g.Add("Gather", []string{wt, "input_ids"}) // [B, S, 1]
	typ := g.Add("Cast", []string{"token_type_ids"}, AttrInt("to", Float))
	typ = g.Add("Mul", []string{typ, g.Init(Tensor{Name: "u", Type: Float, Float: []float32{u}})})
	per = g.Add("Add", []string{per, g.Add("Unsqueeze", []string{typ, axes})})
	mask := g.Add("Unsqueeze", []string{g.Add("Cast", []string{"attention_mask"}, AttrInt("to", Float)), axes})
	sum := g.Add("ReduceSum", []string{g.Add("Mul", []string{per, mask}),
		g.Init(Tensor{Name: "axis1", Dims: []int64{1}, Type: Int64, Int: []int64{1}})}, AttrInt("keepdims", 0))
	g.Rename(sum, "logits")
	g.Inputs = []Value{
		{Name: "input_ids", Type: Int64, Dims: []any{"batch", "sequence"}},
		{Name: "attention_mask", Type: Int64, Dims: []any{"batch", "sequence"}},
		{Name: "token_type_ids", Type: Int64, Dims: []any{"batch", "sequence"}},
	}
	g.Outputs = []Value{{Name: "logits", Type: Float, Dims: []any{"batch", 1}}}
	return g.Model()
}

// WordPieceJSON returns a BERT-style tokenizer.json for vocab (which must
// hold [PAD], [UNK], [CLS], [SEP] and [MASK]), in the layout the reference
// library writes for bert-base-uncased.
func WordPieceJSON(vocab []string, lowercase bool) []byte {
	ids := make(map[string]int, len(vocab))
	for i, t := range vocab {
		ids[t] = i
	}
	special := func(tok string) map[string]any {
		return map[string]any{"id": ids[tok], "content": tok, "single_word": false, "lstrip": false,
			"rstrip": false, "normalized": false, "special": true}
	}
	st := func(tok string, typ int) map[string]any {
		return map[string]any{"SpecialToken": map[string]any{"id": tok, "type_id": typ}}
	}
	seq := func(id string, typ int) map[string]any {
		return map[string]any{"Sequence": map[string]any{"id": id, "type_id": typ}}
	}
	doc := map[string]any{
		"version":    "1.0",
		"truncation": nil,
		"padding":    nil,
		"added_tokens": []any{special("[PAD]"), special("[UNK]"), special("[CLS]"),
			special("[SEP]"), special("[MASK]")},
		"normalizer": map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
			"strip_accents": nil, "lowercase": lowercase},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"post_processor": map[string]any{
			"type":   "TemplateProcessing",
			"single": []any{st("[CLS]", 0), seq("A", 0), st("[SEP]", 0)},
			"pair":   []any{st("[CLS]", 0), seq("A", 0), st("[SEP]", 0), seq("B", 1), st("[SEP]", 1)},
			"special_tokens": map[string]any{
				"[CLS]": map[string]any{"id": "[CLS]", "ids": []int{ids["[CLS]"]}, "tokens": []string{"[CLS]"}},
				"[SEP]": map[string]any{"id": "[SEP]", "ids": []int{ids["[SEP]"]}, "tokens": []string{"[SEP]"}},
			},
		},
		"decoder": map[string]any{"type": "WordPiece", "prefix": "##", "cleanup": true},
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": ids},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

// ByteLevelBPEJSON returns a GPT-2/RoBERTa-style tokenizer.json: byte-level
// pre-tokenizer and BPE over vocab and merges ("a b" strings), with
// RoBERTa's <s> … </s> post-processor when bos and eos are set.
func ByteLevelBPEJSON(vocab map[string]int, merges []string, bos, eos string) []byte {
	added := []any{}
	if id, ok := vocab["<|endoftext|>"]; ok {
		added = append(added, map[string]any{"id": id, "content": "<|endoftext|>", "single_word": false, "lstrip": false,
			"rstrip": false, "normalized": true, "special": true})
	}
	var post any = map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}
	if bos != "" {
		for _, t := range []string{bos, eos} {
			added = append(added, map[string]any{"id": vocab[t], "content": t, "single_word": false, "lstrip": false,
				"rstrip": false, "normalized": false, "special": true})
		}
		post = map[string]any{"type": "RobertaProcessing", "sep": []any{eos, vocab[eos]}, "cls": []any{bos, vocab[bos]},
			"trim_offsets": true, "add_prefix_space": false}
	}
	doc := map[string]any{
		"version":        "1.0",
		"truncation":     nil,
		"padding":        nil,
		"added_tokens":   added,
		"normalizer":     nil,
		"pre_tokenizer":  map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
		"post_processor": post,
		"decoder":        map[string]any{"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true},
		"model": map[string]any{"type": "BPE", "dropout": nil, "unk_token": nil, "continuing_subword_prefix": "",
			"end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
			"vocab": vocab, "merges": merges},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

// Open opens a model with open, failing the test on an error, and closes
// it when the test ends.
func Open[M interface{ Close() error }](t testing.TB, open func() (M, error)) M {
	t.Helper()
	m, err := open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// ModelDir writes files (name → contents) into a new temporary model
// directory and returns it.
func ModelDir(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteDir writes files (name → contents) into dir, creating it.
func WriteDir(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestVocab is a small WordPiece vocabulary for code: the special tokens,
// every printable ASCII character alone and as a ## continuation, and some
// common words of TypeScript code.
func TestVocab() []string {
	v := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
	for c := '!'; c <= '~'; c++ {
		if c >= 'A' && c <= 'Z' {
			continue // the test tokenizer lowercases
		}
		v = append(v, string(c))
	}
	for c := '!'; c <= '~'; c++ {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			v = append(v, "##"+string(c))
		}
	}
	for _, w := range []string{"function", "return", "const", "let", "class", "export", "import", "from",
		"async", "await", "if", "else", "new", "this", "string", "number", "boolean", "interface", "type",
		"user", "token", "valid", "##ate", "##ation", "parse", "config", "request", "response", "error",
		"throw", "null", "true", "false", "##s", "##ed", "##ing", "##er", "get", "set", "map", "promise"} {
		v = append(v, w)
	}
	return v
}

// PaddedVocab is TestVocab padded to n tokens with unused ones
// ("[unused<i>]"), for a model with a vocabulary of that size.
func PaddedVocab(n int) []string {
	v := TestVocab()
	for i := len(v); i < n; i++ {
		v = append(v, "[unused"+strconv.Itoa(i)+"]")
	}
	return v
}
