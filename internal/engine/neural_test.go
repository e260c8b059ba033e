package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/embed/onnxbuild"
	"github.com/scry-dev/scry/internal/engine"
)

// TestHybridSearchWithLocalModel runs the whole pipeline with a local ONNX
// embedder and cross-encoder (small BERT-shaped models the test builds, run
// by the real ONNX Runtime): sync embeds every chunk, the vector index
// feeds candidates, and the configured reranker scores them.
func TestHybridSearchWithLocalModel(t *testing.T) {
	lib := onnxbuild.Runtime(t)
	vocab := onnxbuild.TestVocab()
	small := onnxbuild.BertConfig{Vocab: len(vocab), Hidden: 32, Layers: 2, Heads: 2, Intermediate: 64, MaxPos: 128, Seed: 1}
	cross := small
	cross.CrossEncoder = true
	modelDir := func(c onnxbuild.BertConfig) string {
		return onnxbuild.ModelDir(t, map[string][]byte{
			"model.onnx": onnxbuild.BERT(c), "tokenizer.json": onnxbuild.WordPieceJSON(vocab, true), "scry.json": []byte(`{"maxLength": 128}`),
		})
	}
	embedDir, rerankDir := modelDir(small), modelDir(cross)
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{
		Root: "../../testdata/project", IndexPath: filepath.Join(t.TempDir(), "index.db"),
		Configure: func(cfg *config.Config) error {
			cfg.Embedding.Provider, cfg.Embedding.Dir, cfg.Embedding.ONNXRuntimeLib = "onnx", embedDir, lib
			cfg.Reranking.Provider, cfg.Reranking.Dir = "onnx", rerankDir
			return nil
		},
		Models: true,
		Sync:   true,
		Warn:   func(err error) { t.Log(err) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, chunks, _ := e.Store().Stats()
	if got, err := e.Vectors(); err != nil || got == 0 || got != chunks {
		t.Fatalf("vector index holds %d vectors for %d chunks (%v)", got, chunks, err)
	}
	zero := 0.0
	ans, err := e.Search(ctx, engine.Query{Text: "validate a signed token", Threshold: &zero, CallDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ans.Response.Reranker, "onnx") {
		t.Errorf("reranker %q used", ans.Response.Reranker)
	}
	if len(ans.Response.Results) == 0 || len(ans.Snapshots) == 0 {
		t.Fatalf("no answer: %+v", ans.Response)
	}
	// A second sync finds nothing new to embed.
	if _, err := e.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if got, err := e.Vectors(); err != nil || got != chunks {
		t.Fatalf("after re-sync the index holds %d vectors for %d chunks (%v)", got, chunks, err)
	}
}
