// Package onnxbuild writes ONNX model files from Go, field by field in the
// protobuf wire format, and generates the models scry's tests and
// benchmarks run: BERT-shaped encoders and cross-encoders with random
// weights (no weights can be downloaded, but the runtime's cost depends on
// shape, not values), small models whose output can be computed by hand,
// and matching tokenizer.json files.
//
// Field numbers follow onnx.proto (IR version 8, default-domain opset 17).
package onnxbuild

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Tensor element types (TensorProto.DataType).
const (
	Float = 1
	Int64 = 7
)

// IRVersion and Opset are what the models declare.
const (
	IRVersion = 8
	Opset     = 17
)

// msg is a protobuf message under construction.
type msg []byte

func (m msg) bytes(field protowire.Number, b []byte) msg {
	m = protowire.AppendTag(m, field, protowire.BytesType)
	return protowire.AppendBytes(m, b)
}

func (m msg) str(field protowire.Number, s string) msg { return m.bytes(field, []byte(s)) }

func (m msg) varint(field protowire.Number, v int64) msg {
	m = protowire.AppendTag(m, field, protowire.VarintType)
	return protowire.AppendVarint(m, uint64(v))
}

func (m msg) float(field protowire.Number, f float32) msg {
	m = protowire.AppendTag(m, field, protowire.Fixed32Type)
	return protowire.AppendFixed32(m, math.Float32bits(f))
}

// Tensor is an initializer or constant.
type Tensor struct {
	Name  string
	Dims  []int64
	Type  int
	Float []float32
	Int   []int64
}

func (t Tensor) proto() msg {
	var m msg
	for _, d := range t.Dims {
		m = m.varint(1, d) // dims
	}
	m = m.varint(2, int64(t.Type)) // data_type
	if t.Name != "" {
		m = m.str(8, t.Name) // name
	}
	// raw_data (9): little-endian values, the compact form exporters use.
	var raw []byte
	switch t.Type {
	case Float:
		raw = make([]byte, 4*len(t.Float))
		for i, f := range t.Float {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(f))
		}
	case Int64:
		raw = make([]byte, 8*len(t.Int))
		for i, v := range t.Int {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
		}
	}
	return m.bytes(9, raw)
}

// Attr is a node attribute.
type Attr struct {
	Name string
	Int  *int64
	F    *float32
	Ints []int64
	T    *Tensor
}

// AttrInt, AttrFloat, AttrInts and AttrTensor build attributes.
func AttrInt(name string, v int64) Attr     { return Attr{Name: name, Int: &v} }
func AttrFloat(name string, v float32) Attr { return Attr{Name: name, F: &v} }
func AttrInts(name string, v ...int64) Attr { return Attr{Name: name, Ints: v} }
func AttrTensor(name string, t Tensor) Attr { return Attr{Name: name, T: &t} }
func (a Attr) proto() msg {
	m := msg(nil).str(1, a.Name)
	switch {
	case a.F != nil:
		m = m.float(2, *a.F).varint(20, 1) // f, type FLOAT
	case a.Int != nil:
		m = m.varint(3, *a.Int).varint(20, 2) // i, type INT
	case a.T != nil:
		m = m.bytes(5, a.T.proto()).varint(20, 4) // t, type TENSOR
	default:
		for _, v := range a.Ints {
			m = m.varint(8, v) // ints
		}
		m = m.varint(20, 7) // type INTS
	}
	return m
}

// Node is one operator application.
type Node struct {
	Op      string
	Inputs  []string
	Outputs []string
	Attrs   []Attr
}

func (n Node) proto(name string) msg {
	var m msg
	for _, in := range n.Inputs {
		m = m.str(1, in)
	}
	for _, out := range n.Outputs {
		m = m.str(2, out)
	}
	m = m.str(3, name).str(4, n.Op)
	for _, a := range n.Attrs {
		m = m.bytes(5, a.proto())
	}
	return m
}

// Value is a graph input or output: a tensor with dimensions given as
// sizes or symbolic names ("batch", "seq").
type Value struct {
	Name string
	Type int
	Dims []any // int64 or string
}

func (v Value) proto() msg {
	var shape msg
	for _, d := range v.Dims {
		var dim msg
		switch d := d.(type) {
		case int64:
			dim = dim.varint(1, d) // dim_value
		case int:
			dim = dim.varint(1, int64(d))
		case string:
			dim = dim.str(2, d) // dim_param
		}
		shape = shape.bytes(1, dim)
	}
	tensorType := msg(nil).varint(1, int64(v.Type)).bytes(2, shape)
	typ := msg(nil).bytes(1, tensorType) // TypeProto.tensor_type
	return msg(nil).str(1, v.Name).bytes(2, typ)
}

// Graph is a model under construction.
type Graph struct {
	Name    string
	Nodes   []Node
	Inits   []Tensor
	Inputs  []Value
	Outputs []Value
	n       int
}

// Add appends a node whose single output gets a fresh name, returned.
func (g *Graph) Add(op string, inputs []string, attrs ...Attr) string {
	g.n++
	out := op + "_" + itoa(g.n)
	g.Nodes = append(g.Nodes, Node{Op: op, Inputs: inputs, Outputs: []string{out}, Attrs: attrs})
	return out
}

// Init adds an initializer and returns its name.
func (g *Graph) Init(t Tensor) string {
	g.Inits = append(g.Inits, t)
	return t.Name
}

// Rename makes the last node's output carry name (for graph outputs).
func (g *Graph) Rename(from, to string) {
	for i := range g.Nodes {
		for j, o := range g.Nodes[i].Outputs {
			if o == from {
				g.Nodes[i].Outputs[j] = to
			}
		}
		for j, in := range g.Nodes[i].Inputs {
			if in == from {
				g.Nodes[i].Inputs[j] = to
			}
		}
	}
}

// Model serialises the graph as a ModelProto.
func (g *Graph) Model() []byte {
	var gm msg
	for i, n := range g.Nodes {
		gm = gm.bytes(1, n.proto("n"+itoa(i)))
	}
	gm = gm.str(2, g.Name)
	for _, t := range g.Inits {
		gm = gm.bytes(5, t.proto())
	}
	for _, v := range g.Inputs {
		gm = gm.bytes(11, v.proto())
	}
	for _, v := range g.Outputs {
		gm = gm.bytes(12, v.proto())
	}
	opset := msg(nil).str(1, "").varint(2, Opset)
	m := msg(nil).varint(1, IRVersion).str(2, "scry-onnxbuild").bytes(7, gm).bytes(8, opset)
	return m
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	p := len(b)
	for ; i > 0; i /= 10 {
		p--
		b[p] = byte('0' + i%10)
	}
	return string(b[p:])
}
