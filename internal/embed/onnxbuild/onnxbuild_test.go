package onnxbuild

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/embed/onnxrt"
)

// Runtime finds a library the real ONNX Runtime loads from (or skips).
func TestRuntimeLoads(t *testing.T) {
	if err := onnxrt.Init(Runtime(t)); err != nil {
		t.Fatal(err)
	}
}

// WriteDir writes a model directory's files.
func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	if err := WriteDir(dir, map[string][]byte{"model.onnx": Linear([]float32{1, 2}, 0.5)}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "model.onnx")); err != nil {
		t.Fatal(err)
	}
}

// ModelDir writes a model directory of its own.
func TestModelDir(t *testing.T) {
	a, b := ModelDir(t, map[string][]byte{"model.onnx": []byte("a")}), ModelDir(t, map[string][]byte{"x/y.json": []byte("{}")})
	if a == b {
		t.Fatalf("one directory for two models: %s", a)
	}
	for _, p := range []string{filepath.Join(a, "model.onnx"), filepath.Join(b, "x", "y.json")} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
}

// The tokenizer files it writes are JSON with the vocabulary in them.
func TestWordPieceJSON(t *testing.T) {
	vocab := TestVocab()
	var tok struct {
		Model struct {
			Vocab map[string]int `json:"vocab"`
		} `json:"model"`
	}
	if err := json.Unmarshal(WordPieceJSON(vocab, true), &tok); err != nil {
		t.Fatal(err)
	}
	for _, w := range vocab {
		if _, ok := tok.Model.Vocab[w]; !ok {
			t.Errorf("%q is not in the tokenizer's vocabulary", w)
		}
	}
}

// The padded vocabulary keeps the test vocabulary first and has n tokens,
// the padding numbered by position.
func TestPaddedVocab(t *testing.T) {
	base := TestVocab()
	v := PaddedVocab(len(base) + 3)
	if len(v) != len(base)+3 || v[0] != base[0] || v[len(base)] != fmt.Sprintf("[unused%d]", len(base)) {
		t.Fatalf("padded vocabulary: %d tokens, %q … %q", len(v), v[:1], v[len(base):])
	}
}

type closer struct{ closed bool }

func (c *closer) Close() error { c.closed = true; return nil }

// Open hands the model over and closes it when the test ends.
func TestOpen(t *testing.T) {
	var c *closer
	t.Run("open", func(t *testing.T) {
		c = Open(t, func() (*closer, error) { return &closer{}, nil })
		if c.closed {
			t.Error("closed before the test ended")
		}
	})
	if !c.closed {
		t.Error("not closed when the test ended")
	}
}
