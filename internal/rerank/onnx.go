package rerank

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/embed/onnxrt"
	"github.com/scry-dev/scry/internal/embed/tokenizer"
)

// ONNX is a local cross-encoder: each (query, document) pair is encoded
// together ([CLS] query [SEP] document [SEP]) and the model outputs a
// relevance logit, mapped to [0,1] by the model directory's activation
// (sigmoid unless scry.json says otherwise).
type ONNX struct {
	md    *embed.ModelDir
	s     *onnxrt.Session
	out   int
	batch int
}

// DefaultONNXBatch is the number of pairs per ONNX run.
const DefaultONNXBatch = 8

// NewONNX loads the cross-encoder in cfg.Dir.
func NewONNX(cfg Config) (*ONNX, error) {
	md, err := embed.LoadModelDir(cfg.Dir, cfg.MaxTokens)
	if err != nil {
		return nil, fmt.Errorf("rerank: onnx: %w", err)
	}
	switch md.Config.Activation {
	case "", "sigmoid", "softmax", "none":
	default:
		return nil, fmt.Errorf("rerank: onnx: activation %q: want sigmoid, softmax or none", md.Config.Activation)
	}
	s, err := embed.OpenSession(cfg.ONNXRuntimeLib, md.ModelPath, cfg.Threads)
	if err != nil {
		return nil, fmt.Errorf("rerank: onnx: %w", err)
	}
	r := &ONNX{md: md, s: s, out: -1, batch: cfg.BatchSize}
	if r.batch <= 0 {
		r.batch = DefaultONNXBatch
	}
	for i, o := range s.Outputs {
		if o.Name == "logits" || (md.Config.Output != "" && o.Name == md.Config.Output) {
			r.out = i
		}
	}
	if r.out < 0 {
		r.out = 0
	}
	if !s.HasInput("input_ids") {
		s.Close()
		return nil, fmt.Errorf("rerank: onnx: %s has no input_ids input", md.ModelPath)
	}
	return r, nil
}

// Name implements Reranker.
func (r *ONNX) Name() string { return "onnx:" + r.md.Config.Name }

// Close releases the model.
func (r *ONNX) Close() error { return r.s.Close() }

// Rerank implements Reranker. Pairs are batched by length so that padding
// costs little.
func (r *ONNX) Rerank(ctx context.Context, query string, docs []Doc) ([]float64, error) {
	texts := make([]string, len(docs))
	for i, d := range docs {
		// The tokenizer cuts at the model's length; 16 bytes per token
		// is more than any pair keeps.
		texts[i] = DocText(d, 16*r.md.Config.MaxLength)
	}
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(texts[order[a]]) < len(texts[order[b]]) })
	out := make([]float64, len(docs))
	for lo := 0; lo < len(order); lo += r.batch {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("rerank: onnx: %w", err)
		}
		hi := min(lo+r.batch, len(order))
		encs := make([]tokenizer.Encoding, 0, hi-lo)
		for _, i := range order[lo:hi] {
			enc, err := r.md.Tokenizer.EncodePair(query, texts[i])
			if err != nil {
				return nil, fmt.Errorf("rerank: onnx: %w", err)
			}
			encs = append(encs, enc)
		}
		scores, err := r.run(encs)
		if err != nil {
			return nil, fmt.Errorf("rerank: onnx %s: %w", r.md.Config.Name, err)
		}
		for j, i := range order[lo:hi] {
			out[i] = scores[j]
		}
	}
	return out, nil
}

func (r *ONNX) run(encs []tokenizer.Encoding) ([]float64, error) {
	b, outs, err := embed.RunBatch(r.s, r.md.Tokenizer, encs)
	if err != nil {
		return nil, err
	}
	o := outs[r.out]
	// logits are [batch] or [batch, classes]; one class is a relevance
	// logit, two or more a classifier whose last class is "relevant".
	classes := 1
	if len(o.Shape) == 2 {
		classes = int(o.Shape[1])
	}
	if len(o.Data) != b.Rows*classes || classes < 1 {
		return nil, fmt.Errorf("output %s has shape %v for %d pairs", o.Name, o.Shape, b.Rows)
	}
	act := r.md.Config.Activation
	if act == "" {
		act = "sigmoid"
		if classes > 1 {
			act = "softmax"
		}
	}
	scores := make([]float64, b.Rows)
	for i := range scores {
		row := o.Data[i*classes : (i+1)*classes]
		last := float64(row[classes-1])
		switch act {
		case "softmax":
			var sum float64
			for _, x := range row {
				sum += math.Exp(float64(x) - last)
			}
			scores[i] = 1 / sum
		case "none":
			scores[i] = min(max(last, 0), 1)
		default:
			scores[i] = Sigmoid(last)
		}
		if math.IsNaN(scores[i]) {
			return nil, fmt.Errorf("pair %d scored NaN", i)
		}
	}
	return scores, nil
}
