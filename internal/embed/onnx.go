package embed

import (
	"context"
	"fmt"
	"sort"

	"github.com/scry-dev/scry/internal/embed/onnxrt"
	"github.com/scry-dev/scry/internal/embed/tokenizer"
)

// DefaultONNXBatch is the number of texts per ONNX run. Larger batches pad
// more (a batch is as long as its longest text, after sorting by length)
// and gain little on CPU.
const DefaultONNXBatch = 16

// ONNX embeds with a local model directory through ONNX Runtime.
type ONNX struct {
	md     *ModelDir
	s      *onnxrt.Session
	output int // index of the output read
	pooled bool
	dim    int
	batch  int
}

// OpenSession opens the ONNX model at path with threads intra-op threads,
// first loading the ONNX Runtime library (the explicit path,
// SCRY_ONNXRUNTIME_LIB, or scry's cache) once per process.
func OpenSession(explicit, path string, threads int) (*onnxrt.Session, error) {
	lib, err := onnxrt.FindLibrary(explicit, "")
	if err != nil {
		return nil, err
	}
	if err := onnxrt.Init(lib); err != nil {
		return nil, err
	}
	return onnxrt.Open(path, threads)
}

// NewONNX loads cfg.Dir's model.
func NewONNX(cfg Config) (*ONNX, error) {
	md, err := LoadModelDir(cfg.Dir, cfg.MaxTokens)
	if err != nil {
		return nil, fmt.Errorf("embed: onnx: %w", err)
	}
	s, err := OpenSession(cfg.ONNXRuntimeLib, md.ModelPath, cfg.Threads)
	if err != nil {
		return nil, fmt.Errorf("embed: onnx: %w", err)
	}
	e := &ONNX{md: md, s: s, output: -1, batch: cfg.BatchSize}
	if e.batch <= 0 {
		e.batch = DefaultONNXBatch
	}
	if err := e.pickOutput(); err != nil {
		s.Close()
		return nil, fmt.Errorf("embed: onnx: %s: %w", md.ModelPath, err)
	}
	// The dimension is whatever the model produces: one probe run finds it
	// even when the file declares it symbolically.
	v, err := e.run([]string{"dimension probe"})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("embed: onnx: %s: %w", md.ModelPath, err)
	}
	e.dim = len(v[0])
	return e, nil
}

func (e *ONNX) pickOutput() error {
	want := []string{"sentence_embedding", "last_hidden_state", "token_embeddings"}
	if e.md.Config.Output != "" {
		want = []string{e.md.Config.Output}
	}
	for _, name := range want {
		for i, o := range e.s.Outputs {
			if o.Name == name {
				e.output = i
				break
			}
		}
		if e.output >= 0 {
			break
		}
	}
	if e.output < 0 {
		if e.md.Config.Output != "" {
			return fmt.Errorf("no output named %q", e.md.Config.Output)
		}
		e.output = 0
	}
	o := e.s.Outputs[e.output]
	switch len(o.Dimensions) {
	case 2:
		e.pooled = true // [batch, dim]: the model pools itself
	case 3:
		e.pooled = e.md.Config.Pooling == "none"
		if e.pooled {
			return fmt.Errorf("output %q is per token [batch, seq, dim] but pooling is none", o.Name)
		}
	default:
		return fmt.Errorf("output %q has rank %d; want [batch, dim] or [batch, seq, dim]", o.Name, len(o.Dimensions))
	}
	for _, in := range e.s.Inputs {
		switch in.Name {
		case "input_ids", "attention_mask", "token_type_ids", "position_ids":
		default:
			return fmt.Errorf("model input %q is not one scry can feed (input_ids, attention_mask, token_type_ids, position_ids)", in.Name)
		}
	}
	if !e.s.HasInput("input_ids") {
		return fmt.Errorf("model has no input_ids input")
	}
	return nil
}

// ModelID implements Embedder.
func (e *ONNX) ModelID() string {
	return fmt.Sprintf("onnx/%s@%d#%s", safeName(e.md.Config.Name), e.dim, e.md.Fingerprint)
}

// Dim implements Embedder.
func (e *ONNX) Dim() int { return e.dim }

// Close implements Embedder.
func (e *ONNX) Close() error { return e.s.Close() }

// Dir returns the resolved model directory.
func (e *ONNX) Dir() *ModelDir { return e.md }

// EmbedDocuments implements Embedder. Texts are run in batches of similar
// length so that little time goes to padding.
func (e *ONNX) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = e.md.Config.DocumentPrefix + t
	}
	order := make([]int, len(in))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(in[order[a]]) < len(in[order[b]]) })
	out := make([][]float32, len(in))
	for lo := 0; lo < len(order); lo += e.batch {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("embed: onnx: %w", err)
		}
		hi := min(lo+e.batch, len(order))
		group := make([]string, hi-lo)
		for j := lo; j < hi; j++ {
			group[j-lo] = in[order[j]]
		}
		vs, err := e.run(group)
		if err != nil {
			return nil, fmt.Errorf("embed: onnx %s: %w", e.md.Config.Name, err)
		}
		for j := lo; j < hi; j++ {
			out[order[j]] = vs[j-lo]
		}
	}
	return out, nil
}

// EmbedQuery implements Embedder.
func (e *ONNX) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := e.run([]string{e.md.Config.QueryPrefix + text})
	if err != nil {
		return nil, fmt.Errorf("embed: onnx %s: query: %w", e.md.Config.Name, err)
	}
	return vs[0], nil
}

// run tokenizes, pads, runs the model and pools one batch.
func (e *ONNX) run(texts []string) ([][]float32, error) {
	encs := make([]tokenizer.Encoding, len(texts))
	for i, t := range texts {
		enc, err := e.md.Tokenizer.Encode(t)
		if err != nil {
			return nil, err
		}
		encs[i] = enc
	}
	b, outs, err := RunBatch(e.s, e.md.Tokenizer, encs)
	if err != nil {
		return nil, err
	}
	o := outs[e.output]
	vs, err := Pool(o.Data, o.Shape, b.Mask, e.pooled, e.md.Config.Pooling)
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", o.Name, err)
	}
	for i, v := range vs {
		if err := normalize(v); err != nil {
			return nil, fmt.Errorf("text %d: %w", i, err)
		}
	}
	return vs, nil
}

// RunBatch pads encodings into one batch and runs a BERT-shaped session
// on it (input ids, attention mask, token types, positions; inputs the
// model does not declare are left out): the embedders' and the
// cross-encoders' one way to call a model.
func RunBatch(s *onnxrt.Session, t *tokenizer.Tokenizer, encs []tokenizer.Encoding) (tokenizer.Batch, []onnxrt.Output, error) {
	b := t.Pad(encs)
	outs, err := s.RunInt64(b.Rows, b.Cols, map[string][]int64{
		"input_ids":      b.IDs,
		"attention_mask": b.Mask,
		"token_type_ids": b.TypeIDs,
		"position_ids":   b.PositionIDs,
	})
	return b, outs, err
}

// Pool turns a model output into one vector per row. An output already of
// shape [batch, dim] is split into rows; a per-token output [batch, seq,
// dim] is pooled with the attention mask: "mean" averages the real tokens,
// "cls" takes the first, "last" the last real one (right padding).
func Pool(data []float32, shape []int64, mask []int64, pooled bool, mode string) ([][]float32, error) {
	if pooled {
		if len(shape) != 2 {
			return nil, fmt.Errorf("shape %v, want [batch, dim]", shape)
		}
		rows, dim := int(shape[0]), int(shape[1])
		out := make([][]float32, rows)
		for r := range out {
			out[r] = append([]float32(nil), data[r*dim:(r+1)*dim]...)
		}
		return out, nil
	}
	if len(shape) != 3 {
		return nil, fmt.Errorf("shape %v, want [batch, seq, dim]", shape)
	}
	rows, seq, dim := int(shape[0]), int(shape[1]), int(shape[2])
	if len(mask) != rows*seq {
		return nil, fmt.Errorf("mask of %d for shape %v", len(mask), shape)
	}
	out := make([][]float32, rows)
	for r := 0; r < rows; r++ {
		v := make([]float32, dim)
		switch mode {
		case "cls":
			copy(v, data[r*seq*dim:r*seq*dim+dim])
		case "last":
			last := 0
			for t := 0; t < seq; t++ {
				if mask[r*seq+t] != 0 {
					last = t
				}
			}
			copy(v, data[(r*seq+last)*dim:(r*seq+last+1)*dim])
		default: // mean
			acc := make([]float64, dim)
			n := 0
			for t := 0; t < seq; t++ {
				if mask[r*seq+t] == 0 {
					continue
				}
				n++
				row := data[(r*seq+t)*dim : (r*seq+t+1)*dim]
				for j, x := range row {
					acc[j] += float64(x)
				}
			}
			if n == 0 {
				n = 1
			}
			for j := range v {
				v[j] = float32(acc[j] / float64(n))
			}
		}
		out[r] = v
	}
	return out, nil
}
