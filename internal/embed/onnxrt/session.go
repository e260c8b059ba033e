package onnxrt

import (
	"fmt"
	"runtime"
	"slices"

	ort "github.com/yalue/onnxruntime_go"
)

// Session is one loaded model. Run is safe for concurrent use (ONNX
// Runtime sessions are), though callers batch instead.
type Session struct {
	s       *ort.DynamicAdvancedSession
	Path    string
	Inputs  []ort.InputOutputInfo
	Outputs []ort.InputOutputInfo
}

// Open loads the model at path with threads intra-op threads (0: one per
// core). Init must have succeeded.
func Open(path string, threads int) (*Session, error) {
	inputs, outputs, err := ort.GetInputOutputInfo(path)
	if err != nil {
		return nil, fmt.Errorf("onnxrt: read %s: %w", path, err)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("onnxrt: session options: %w", err)
	}
	defer opts.Destroy()
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	if err := opts.SetIntraOpNumThreads(threads); err != nil {
		return nil, fmt.Errorf("onnxrt: threads: %w", err)
	}
	// One request runs at a time per model; a second pool of inter-op
	// threads would only compete with the first.
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, fmt.Errorf("onnxrt: threads: %w", err)
	}
	in := make([]string, len(inputs))
	for i, x := range inputs {
		in[i] = x.Name
	}
	out := make([]string, len(outputs))
	for i, x := range outputs {
		out[i] = x.Name
	}
	s, err := ort.NewDynamicAdvancedSession(path, in, out, opts)
	if err != nil {
		return nil, fmt.Errorf("onnxrt: load %s: %w", path, err)
	}
	return &Session{s: s, Path: path, Inputs: inputs, Outputs: outputs}, nil
}

// HasInput reports whether the model takes an input of that name.
func (s *Session) HasInput(name string) bool {
	return slices.ContainsFunc(s.Inputs, func(x ort.InputOutputInfo) bool { return x.Name == name })
}

// Output is one float32 output of a run.
type Output struct {
	Name  string
	Shape []int64
	Data  []float32
}

// RunInt64 feeds the named int64 inputs, all of shape (batch, seq), and
// returns every output, copied out of ONNX Runtime's memory. Inputs the
// model does not declare are left out; a declared input missing from
// inputs is an error.
func (s *Session) RunInt64(batch, seq int, inputs map[string][]int64) ([]Output, error) {
	shape := ort.NewShape(int64(batch), int64(seq))
	vals := make([]ort.Value, len(s.Inputs))
	defer func() {
		for _, v := range vals {
			if v != nil {
				v.Destroy()
			}
		}
	}()
	for i, info := range s.Inputs {
		data, ok := inputs[info.Name]
		if !ok {
			return nil, fmt.Errorf("onnxrt: %s: no data for input %q", s.Path, info.Name)
		}
		if info.DataType != ort.TensorElementDataTypeInt64 {
			return nil, fmt.Errorf("onnxrt: %s: input %q is %s, want int64", s.Path, info.Name, info.DataType)
		}
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return nil, fmt.Errorf("onnxrt: %s: input %q: %w", s.Path, info.Name, err)
		}
		vals[i] = t
	}
	outs := make([]ort.Value, len(s.Outputs))
	if err := s.s.Run(vals, outs); err != nil {
		return nil, fmt.Errorf("onnxrt: run %s: %w", s.Path, err)
	}
	defer func() {
		for _, v := range outs {
			if v != nil {
				v.Destroy()
			}
		}
	}()
	res := make([]Output, len(outs))
	for i, v := range outs {
		t, ok := v.(*ort.Tensor[float32])
		if !ok {
			// Models may have extra non-float outputs; they are not ours.
			res[i] = Output{Name: s.Outputs[i].Name}
			continue
		}
		res[i] = Output{Name: s.Outputs[i].Name, Shape: slices.Clone([]int64(t.GetShape())), Data: slices.Clone(t.GetData())}
	}
	return res, nil
}

// Close releases the model.
func (s *Session) Close() error {
	if s == nil || s.s == nil {
		return nil
	}
	if err := s.s.Destroy(); err != nil {
		return fmt.Errorf("onnxrt: close %s: %w", s.Path, err)
	}
	s.s = nil
	return nil
}
