// Package tokenizer reads a Hugging Face tokenizer.json and turns text into
// model input ids, in pure Go.
//
// Two model families are covered, the ones embedding and reranking models
// ship: WordPiece (BERT, MiniLM, BGE, E5, GTE…), through
// github.com/sugarme/tokenizer, and byte-level BPE (GPT-2/RoBERTa style and
// the Split-regex style of newer models such as Qwen3 and Jina), implemented
// here. Byte-level BPE is done here rather than by sugarme because sugarme's
// byte-level pre-tokenizer drops every run of whitespace — indentation and
// newlines, which in code carry meaning — and because its regex engine
// (Go's RE2) cannot run the lookahead in those models' split patterns; this
// package uses github.com/dlclark/regexp2, which can.
//
// Special tokens and truncation are applied here for both families from the
// tokenizer.json's post_processor, so single texts and (query, document)
// pairs get [CLS] … [SEP] … [SEP] (or <s> … </s></s> … </s>, or a
// template) and token type ids the same way the reference implementation
// does. Any panic inside the third-party code becomes an error.
package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"
)

// Encoding is one model input row, before padding.
type Encoding struct {
	IDs     []int64
	TypeIDs []int64
}

// Tokenizer encodes text for one model. Safe for concurrent use.
type Tokenizer struct {
	kind   string // "WordPiece", "BPE", …
	m      model
	post   postProcessor
	padID  int64
	maxLen int
	vocab  map[string]int
}

// model turns text into ids without special tokens.
type model interface {
	encode(text string) ([]int64, error)
}

// file is the part of tokenizer.json this package reads itself.
type file struct {
	Model struct {
		Type string `json:"type"`
	} `json:"model"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Padding       *struct {
		PadID    *int   `json:"pad_id"`
		PadToken string `json:"pad_token"`
	} `json:"padding"`
	AddedTokens []addedToken `json:"added_tokens"`
}

type addedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	Special    bool   `json:"special"`
	Normalized bool   `json:"normalized"`
}

// Load reads tokenizer.json at path. maxLen is the longest encoding,
// special tokens included (the model's maximum sequence length).
func Load(path string, maxLen int) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	t, err := Parse(data, maxLen)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	return t, nil
}

// Parse reads tokenizer.json contents.
func Parse(data []byte, maxLen int) (t *Tokenizer, err error) {
	if maxLen < 4 {
		return nil, fmt.Errorf("maximum length %d is too small", maxLen)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a tokenizer.json: %w", err)
	}
	t = &Tokenizer{kind: f.Model.Type, maxLen: maxLen}
	var vocab map[string]int
	switch f.Model.Type {
	case "BPE":
		b, err := newBPE(data)
		if err != nil {
			return nil, err
		}
		t.m, vocab = b, b.vocab
	case "WordPiece", "WordLevel", "Unigram":
		s, err := newSugar(data)
		if err != nil {
			return nil, err
		}
		t.m, vocab = s, s.vocab
	case "":
		return nil, errors.New("tokenizer.json has no model type")
	default:
		return nil, fmt.Errorf("unsupported tokenizer model %q", f.Model.Type)
	}
	t.vocab = vocab
	if t.post, err = parsePost(f.PostProcessor, vocab); err != nil {
		return nil, fmt.Errorf("post_processor: %w", err)
	}
	t.padID = padID(f, vocab)
	return t, nil
}

func padID(f file, vocab map[string]int) int64 {
	if f.Padding != nil && f.Padding.PadID != nil {
		return int64(*f.Padding.PadID)
	}
	for _, tok := range []string{"[PAD]", "<pad>", "<|endoftext|>", "</s>"} {
		if id, ok := vocab[tok]; ok {
			return int64(id)
		}
	}
	return 0
}

// Kind is the tokenizer model type ("WordPiece", "BPE", …).
func (t *Tokenizer) Kind() string { return t.kind }

// MaxLen is the longest encoding this tokenizer produces.
func (t *Tokenizer) MaxLen() int { return t.maxLen }

// PadID is the id used to pad rows to a common length.
func (t *Tokenizer) PadID() int64 { return t.padID }

// TokenID returns a vocabulary entry's id.
func (t *Tokenizer) TokenID(tok string) (int64, bool) {
	id, ok := t.vocab[tok]
	return int64(id), ok
}

// Encode encodes one text with the model's special tokens, truncated to
// MaxLen.
func (t *Tokenizer) Encode(text string) (Encoding, error) {
	ids, err := t.m.encode(t.cut(text))
	if err != nil {
		return Encoding{}, err
	}
	if room := t.maxLen - t.post.added(false); len(ids) > room {
		ids = ids[:max(room, 0)]
	}
	return t.post.apply(ids, nil, false), nil
}

// EncodePair encodes a (query, document) pair for a cross-encoder,
// truncating the longer side first as the reference's "longest_first" does.
func (t *Tokenizer) EncodePair(a, b string) (Encoding, error) {
	ia, err := t.m.encode(t.cut(a))
	if err != nil {
		return Encoding{}, err
	}
	ib, err := t.m.encode(t.cut(b))
	if err != nil {
		return Encoding{}, err
	}
	room := max(t.maxLen-t.post.added(true), 0)
	for len(ia)+len(ib) > room {
		if len(ia) > len(ib) {
			ia = ia[:len(ia)-1]
		} else {
			ib = ib[:len(ib)-1]
		}
	}
	return t.post.apply(ia, ib, true), nil
}

// Tokens returns the encoding's ids as vocabulary strings (for tests and
// debugging).
func (t *Tokenizer) Tokens(ids []int64) []string {
	inv := make(map[int]string, len(t.vocab))
	for s, id := range t.vocab {
		inv[id] = s
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = inv[int(id)]
	}
	return out
}

// cut bounds the text tokenised: a token covers at least one byte of input
// in every model family here, and rarely fewer than 2, so 16 bytes per
// allowed token keeps everything truncation would keep while sparing the
// tokenizer a megabyte chunk.
func (t *Tokenizer) cut(s string) string {
	limit := 16 * t.maxLen
	if len(s) <= limit {
		return s
	}
	for limit > 0 && !utf8.RuneStart(s[limit]) {
		limit--
	}
	return s[:limit]
}

// Batch is padded model input for several encodings.
type Batch struct {
	Rows, Cols    int
	IDs, TypeIDs  []int64 // Rows×Cols, row-major
	Mask          []int64 // 1 for real tokens, 0 for padding
	PositionIDs   []int64 // 0..Cols-1 per row, for models that take them
	SeqLen        []int   // real tokens per row
	AttentionMask []int64 // alias of Mask, named as models name it
}

// Pad right-pads encodings to their longest length.
func (t *Tokenizer) Pad(encs []Encoding) Batch {
	cols := 1
	for _, e := range encs {
		cols = max(cols, len(e.IDs))
	}
	b := Batch{Rows: len(encs), Cols: cols}
	n := len(encs) * cols
	b.IDs, b.TypeIDs, b.Mask, b.PositionIDs = make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	b.SeqLen = make([]int, len(encs))
	for r, e := range encs {
		row := r * cols
		for c := 0; c < cols; c++ {
			b.PositionIDs[row+c] = int64(c)
			if c < len(e.IDs) {
				b.IDs[row+c] = e.IDs[c]
				b.TypeIDs[row+c] = e.TypeIDs[c]
				b.Mask[row+c] = 1
			} else {
				b.IDs[row+c] = t.padID
			}
		}
		b.SeqLen[r] = len(e.IDs)
	}
	b.AttentionMask = b.Mask
	return b
}

// guard turns a panic inside third-party tokenizer code into an error.
func guard(what string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: tokenizer failed (%v); this tokenizer.json uses a feature scry's tokenizer does not support", what, r)
	}
}
