package embed

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/embed/onnxbuild"
)

// Local embedding throughput on BERT-shaped models with random weights
// (fp32; the runtime's cost depends on shape, not on values), 256-token
// chunks of real-looking code, batches of 16, all cores:
//
//	SCRY_ONNXRUNTIME_LIB=… go test ./internal/embed -run '^$' -bench ONNX -benchtime 3x -timeout 30m
//
// The chunks/s metric is what indexing a workspace costs per chunk.
func benchONNX(b *testing.B, cfg onnxbuild.BertConfig) {
	lib := onnxbuild.Runtime(b)
	vocab := onnxbuild.PaddedVocab(cfg.Vocab)
	dir := onnxbuild.ModelDir(b, map[string][]byte{
		"model.onnx":     onnxbuild.BERT(cfg),
		"tokenizer.json": onnxbuild.WordPieceJSON(vocab, true),
		"scry.json":      []byte(`{"maxLength": 256}`),
	})
	e, err := NewONNX(Config{Dir: dir, ONNXRuntimeLib: lib, BatchSize: 16})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	// 64 chunks that each fill the 256-token window.
	chunks := make([]string, 64)
	for i := range chunks {
		var sb strings.Builder
		for sb.Len() < 2000 {
			sb.WriteString(codeSamples[(i+sb.Len())%3])
			sb.WriteString("\n")
		}
		chunks[i] = sb.String()
	}
	enc, _ := e.md.Tokenizer.Encode(chunks[0])
	if len(enc.IDs) != 256 {
		b.Fatalf("benchmark chunk has %d tokens, want 256", len(enc.IDs))
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := e.EmbedDocuments(context.Background(), chunks); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(chunks))/time.Since(start).Seconds(), "chunks/s")
}

func BenchmarkONNXMiniLM(b *testing.B) { benchONNX(b, onnxbuild.MiniLM) }
func BenchmarkONNXBase(b *testing.B)   { benchONNX(b, onnxbuild.Base) }
