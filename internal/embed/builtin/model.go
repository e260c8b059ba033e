// Package builtin is scry's own code-search embedding model, shipped inside
// the binary: a static (bag-of-tokens) model, so that embedding a chunk
// costs a tokenisation and a few hundred table look-ups, with no runtime,
// no download and no API key.
//
// A text becomes a vector in four steps:
//
//  1. terms.Split cuts it into the same terms the lexical index uses
//     (identifiers split at case and separator boundaries, lowercased,
//     stemmed, compounds also kept whole), so query words and identifier
//     fragments meet on one string;
//  2. each distinct term is a row of the embedding table when it is in the
//     learned vocabulary, else the mean of the rows of its hashed character
//     trigrams (a sub-word back-off, as fastText's, so that an unseen
//     identifier still lands near the words it is made of);
//  3. the rows are summed, each scaled by a learned weight of its term for
//     the side (queries and code weigh words differently: "function" says
//     nothing in code and a little in a question) times 1 + ln(term count);
//  4. the sum is L2-normalised, so cosine similarity is a dot product.
//
// The weights are trained by package train (cmd/scry-train, `make model`)
// with a contrastive loss on (doc comment summary → the code it documents,
// with the comment removed) pairs from public npm packages. They are stored
// quantised to int8 with one float32 scale per row.
package builtin

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/scry-dev/scry/internal/terms"
)

// Side says which tower of the model embeds a text: queries and code share
// the table but have their own term weights.
type Side int

const (
	Doc Side = iota
	Query
)

// MaxTextBytes caps the text embedded: the start of a chunk (its
// signature, its first statements) says what it is, and a bound keeps a
// 30,000-token class from costing a hundred small chunks. Training and
// embedding use the same cap.
const MaxTextBytes = 16 << 10

// Trigram back-off: an out-of-vocabulary term's character trigrams (with
// '<' and '>' marking its ends) hashed into Buckets rows after the
// vocabulary; at most maxGrams of them count.
const maxGrams = 24

// Weights is a model in float32, as the trainer holds it and as Load
// dequantises it for inspection.
type Weights struct {
	Dim     int
	Vocab   []string // term → row i
	Buckets int      // trigram rows after the vocabulary
	// Emb holds (len(Vocab)+Buckets) rows of Dim values.
	Emb []float32
	// QueryWeight and DocWeight hold one weight per vocabulary term and a
	// last one shared by every out-of-vocabulary term.
	QueryWeight, DocWeight []float32
}

// Rows is the number of rows of the embedding table.
func (w *Weights) Rows() int { return len(w.Vocab) + w.Buckets }

// Item is one distinct term of a text: the weight it takes (a vocabulary
// index, or len(Vocab) for an unknown term), the table rows whose mean is
// its vector, and how often it occurs.
type Item struct {
	Weight int32
	Rows   []int32
	Count  int32
}

// Coef is the item's weight multiplier from its count: 1 + ln(count).
func (it Item) Coef() float32 {
	if it.Count == 1 {
		return 1 // most terms, and ln is not free
	}
	return 1 + float32(math.Log(float64(it.Count)))
}

// Tokenizer maps text to items; it is shared by the trainer and the
// embedder so that the two never disagree.
type Tokenizer struct {
	vocab   map[string]int32
	buckets int
	oov     int32
}

// NewTokenizer builds the tokenizer of a vocabulary.
func NewTokenizer(vocab []string, buckets int) *Tokenizer {
	m := make(map[string]int32, len(vocab))
	for i, v := range vocab {
		m[v] = int32(i)
	}
	return &Tokenizer{vocab: m, buckets: buckets, oov: int32(len(vocab))}
}

// Terms cuts text (at most MaxTextBytes of it) into terms.
func Terms(text string) []string {
	return terms.Split(Prefix(text, MaxTextBytes))
}

// Prefix is text's first n bytes at most, cut at a character boundary.
func Prefix(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n]
}

// Items returns text's distinct terms in order of first appearance.
func (t *Tokenizer) Items(text string) []Item {
	return t.ItemsOf(Terms(text))
}

// ItemsOf is Items for terms already split.
func (t *Tokenizer) ItemsOf(ts []string) []Item {
	var sc Scratch
	t.collect(&sc, ts)
	out := make([]Item, len(sc.items))
	for i, it := range sc.items {
		rows := sc.rows[it.rows : it.rows+it.nrow : it.rows+it.nrow]
		out[i] = Item{Weight: it.weight, Rows: rows, Count: it.count}
	}
	return out
}

// collect puts ts's distinct terms, in order of first appearance, into
// sc.items, their rows end to end in sc.rows: the one rule that maps terms
// to items, for the trainer (ItemsOf) and the embedder (EmbedScratch).
func (t *Tokenizer) collect(sc *Scratch, ts []string) {
	if sc.index == nil {
		sc.index = make(map[string]int32, len(ts))
	}
	clear(sc.index)
	sc.items, sc.rows = sc.items[:0], sc.rows[:0]
	for _, term := range ts {
		if i, ok := sc.index[term]; ok {
			sc.items[i].count++
			continue
		}
		if id, ok := t.vocab[term]; ok {
			sc.index[term] = int32(len(sc.items))
			sc.items = append(sc.items, scratchItem{weight: id, rows: int32(len(sc.rows)), nrow: 1, count: 1})
			sc.rows = append(sc.rows, id)
			continue
		}
		if t.buckets == 0 {
			// An unknown term with no back-off is left out, and so is
			// each of its repeats.
			continue
		}
		sc.index[term] = int32(len(sc.items))
		start := len(sc.rows)
		sc.rows = t.appendGrams(sc.rows, term)
		sc.items = append(sc.items, scratchItem{weight: t.oov, rows: int32(start), nrow: int32(len(sc.rows) - start), count: 1})
	}
}

// appendGrams appends the back-off rows of an unknown term to rows.
func (t *Tokenizer) appendGrams(rows []int32, term string) []int32 {
	// The trigrams are those of "<" + term + ">", read in place.
	at := func(k int) byte {
		switch k {
		case 0:
			return '<'
		case len(term) + 1:
			return '>'
		}
		return term[k-1]
	}
	n := min(len(term), maxGrams)
	base := int32(len(t.vocab))
	for i := 0; i < n; i++ {
		// FNV-1a, 32 bits, of the trigram's bytes
		h := uint32(2166136261)
		for k := i; k < i+3; k++ {
			h = (h ^ uint32(at(k))) * 16777619
		}
		rows = append(rows, base+int32(h%uint32(t.buckets)))
	}
	return rows
}

// File format (little endian): magic "SCRYEMB1", dim, vocabulary size,
// buckets (uint32 each); the vocabulary as uvarint-length-prefixed strings;
// query and doc weights (float32, vocab+1 each); then per row a float32
// scale and dim int8 values (value = scale * int8).
const magic = "SCRYEMB1"

// Marshal quantises w to int8 rows (symmetric, per-row scale).
func (w *Weights) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	put32 := func(v uint32) { _ = binary.Write(&b, binary.LittleEndian, v) }
	put32(uint32(w.Dim))
	put32(uint32(len(w.Vocab)))
	put32(uint32(w.Buckets))
	var tmp [binary.MaxVarintLen64]byte
	for _, v := range w.Vocab {
		b.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(v)))])
		b.WriteString(v)
	}
	_ = binary.Write(&b, binary.LittleEndian, w.QueryWeight)
	_ = binary.Write(&b, binary.LittleEndian, w.DocWeight)
	row := make([]byte, w.Dim)
	for r := 0; r < w.Rows(); r++ {
		vals := w.Emb[r*w.Dim : (r+1)*w.Dim]
		var mx float32
		for _, v := range vals {
			mx = max(mx, float32(math.Abs(float64(v))))
		}
		scale := mx / 127
		_ = binary.Write(&b, binary.LittleEndian, scale)
		for i, v := range vals {
			q := 0.0
			if scale > 0 {
				q = math.Round(float64(v / scale))
			}
			row[i] = byte(int8(max(-127, min(127, q))))
		}
		b.Write(row)
	}
	return b.Bytes()
}

// Model is a loaded, quantised model ready to embed.
type Model struct {
	tok   *Tokenizer
	dim   int
	vocab int
	scale []float32
	// rows holds each row as stored: its float32 scale, then dim int8
	// values; stride is a row's length.
	rows   []byte
	stride int
	weight [2][]float32 // by Side
	data   []byte       // the whole model, hashed for ID on first use
	idOnce sync.Once
	id     string
	size   int
}

// Load reads a model written by Weights.Marshal.
func Load(data []byte) (*Model, error) {
	r := bytes.NewReader(data)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != magic {
		return nil, errors.New("builtin: not a scry embedding model")
	}
	var hdr [3]uint32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return nil, fmt.Errorf("builtin: header: %w", err)
	}
	dim, nv, buckets := int(hdr[0]), int(hdr[1]), int(hdr[2])
	if dim <= 0 || dim > 4096 || nv > 1<<22 || buckets > 1<<22 {
		return nil, fmt.Errorf("builtin: implausible header dim=%d vocab=%d buckets=%d", dim, nv, buckets)
	}
	vocab := make([]string, nv)
	for i := range vocab {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > 256 {
			return nil, fmt.Errorf("builtin: vocabulary entry %d: bad length", i)
		}
		s := make([]byte, n)
		if _, err := io.ReadFull(r, s); err != nil {
			return nil, fmt.Errorf("builtin: vocabulary entry %d: %w", i, err)
		}
		vocab[i] = string(s)
	}
	m := &Model{tok: NewTokenizer(vocab, buckets), dim: dim, vocab: nv, size: len(data)}
	for s := range m.weight {
		m.weight[s] = make([]float32, nv+1)
	}
	// The file holds query weights, then doc weights.
	if err := binary.Read(r, binary.LittleEndian, m.weight[Query]); err != nil {
		return nil, fmt.Errorf("builtin: query weights: %w", err)
	}
	if err := binary.Read(r, binary.LittleEndian, m.weight[Doc]); err != nil {
		return nil, fmt.Errorf("builtin: doc weights: %w", err)
	}
	// The rows are used where they lie in data, without a copy: loading
	// then costs the vocabulary map and the scales, a few milliseconds,
	// which every CLI search pays.
	rows := nv + buckets
	stride := 4 + dim
	off := len(data) - r.Len()
	if want := rows * stride; r.Len() != want {
		return nil, fmt.Errorf("builtin: %d bytes of rows, want %d (%d rows of %d)", r.Len(), want, rows, stride)
	}
	m.scale = make([]float32, rows)
	m.rows = data[off:]
	m.stride = stride
	for i := range m.scale {
		m.scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(m.rows[i*stride:]))
	}
	m.data = data
	return m, nil
}

// ID names the model's vector space: its weights' fingerprint and its
// dimension.
func (m *Model) ID() string {
	m.idOnce.Do(func() {
		sum := sha256.Sum256(m.data)
		m.id = fmt.Sprintf("builtin/%s/%d", hex.EncodeToString(sum[:6]), m.dim)
	})
	return m.id
}

// Dim is the vector size.
func (m *Model) Dim() int { return m.dim }

// Size is the model's size in bytes as stored.
func (m *Model) Size() int { return m.size }

// VocabSize is the number of learned terms.
func (m *Model) VocabSize() int { return m.vocab }

// Embed returns text's unit vector for side (a zero vector when the text
// has no terms: it then matches nothing), in a new slice.
func (m *Model) Embed(text string, side Side) []float32 {
	sc := scratchPool.Get().(*Scratch)
	defer scratchPool.Put(sc)
	return append([]float32(nil), m.EmbedScratch(sc, text, side)...)
}

// scratchPool lends Embed's callers buffers (indexing embeds every chunk).
var scratchPool = sync.Pool{New: func() any { return new(Scratch) }}

// Scratch holds one goroutine's buffers for embedding text after text
// (the ranker embeds hundreds of candidates per query): with it, a text
// costs no allocation but its new terms' strings. The zero value is ready.
type Scratch struct {
	terms []string
	index map[string]int32 // term → its item
	items []scratchItem
	rows  []int32 // every item's rows, end to end
	vec   []float32
}

type scratchItem struct {
	weight     int32
	rows, nrow int32 // rows[rows : rows+nrow] of the Scratch
	count      int32
}

// EmbedScratch is Embed with sc's buffers; the vector returned is sc's and
// valid until its next use.
func (m *Model) EmbedScratch(sc *Scratch, text string, side Side) []float32 {
	sc.terms = terms.AppendSplit(sc.terms[:0], Prefix(text, MaxTextBytes))
	m.tok.collect(sc, sc.terms)
	if cap(sc.vec) < m.dim {
		sc.vec = make([]float32, m.dim)
	}
	dst := sc.vec[:m.dim]
	clear(dst)
	w := m.weight[side]
	for _, it := range sc.items {
		a := w[it.weight] * Item{Count: it.count}.Coef() / float32(it.nrow)
		for _, r := range sc.rows[it.rows : it.rows+it.nrow] {
			m.addRow(dst, a*m.scale[r], r)
		}
	}
	Normalize(dst)
	return dst
}

// addRow adds s times row r of the table to dst (len Dim).
func (m *Model) addRow(dst []float32, s float32, r int32) {
	o := int(r)*m.stride + 4
	row := m.rows[o : o+len(dst)]
	// Four at a time, with the slices resliced so that the compiler drops
	// the bounds checks: the pooling is most of an embedding's cost.
	j := 0
	for ; j+4 <= len(row); j += 4 {
		d, v := dst[j:j+4:j+4], row[j:j+4:j+4]
		d[0] += s * float32(int8(v[0]))
		d[1] += s * float32(int8(v[1]))
		d[2] += s * float32(int8(v[2]))
		d[3] += s * float32(int8(v[3]))
	}
	for ; j < len(row); j++ {
		dst[j] += s * float32(int8(row[j]))
	}
}

// Normalize scales v to unit length in place (a zero vector stays zero).
func Normalize(v []float32) float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return 0
	}
	n := math.Sqrt(s)
	inv := float32(1 / n)
	for i := range v {
		v[i] *= inv
	}
	return float32(n)
}

// Shipped weights, trained by `make model`.
//
//go:embed model.bin
var shipped []byte

var (
	loadOnce    sync.Once
	loadedModel *Model
	loadErr     error
)

// Default returns the shipped model, loaded once per process.
func Default() (*Model, error) {
	loadOnce.Do(func() { loadedModel, loadErr = Load(shipped) })
	return loadedModel, loadErr
}
