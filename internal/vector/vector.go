// Package vector answers k-nearest-neighbour queries over one embedding
// model's chunk vectors, held in memory.
//
// Vectors are L2-normalised on the way in, so cosine similarity is a dot
// product. Up to Options.QuantizeAbove vectors the scan is exact (SIMD dot
// products over a flat float32 array, split across cores); above it, every
// vector also has a sign-bit code, the scan ranks codes by Hamming distance
// (popcount) and only the best few hundred candidates are re-scored in
// float32. Measured in FINDINGS and in this package's benchmarks: the flat
// scan is memory-bound (a 768-d vector is 3 KiB; its code is 96 bytes), so
// the quantized scan reads 32× less and the re-score keeps recall near 1.
//
// An Index belongs to one (model, dimension) pair: vectors of any other
// dimension are refused, and a query of the wrong dimension is an error, so
// two embedding spaces are never compared.
package vector

import (
	"container/heap"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sort"
	"sync"

	"github.com/viterin/vek/vek32"

	"github.com/scry-dev/scry/internal/store"
)

// DefaultQuantizeAbove is the index size above which searches use the
// sign-bit scan with float32 re-scoring instead of the exact scan.
const DefaultQuantizeAbove = 200_000

// DefaultRescore is the minimum number of quantized candidates re-scored in
// float32; Search re-scores max(Rescore, 10·k, RescoreFraction·n).
const DefaultRescore = 400

// DefaultRescoreFraction is the share of the scanned vectors re-scored in
// float32. Sign bits keep little of the signal when the data has no
// structure: on uniformly random 768-d vectors the true top 10 are only
// about 0.14 cosine from the query, and 400 Hamming candidates hold under
// half of them, while a tenth of the data holds 95% or more (measured in
// TestQuantizedRecallRandom100k). Real embeddings are clustered and need far
// fewer (recall 0.99 with 400 candidates in TestQuantizedRecallClustered),
// so a deployment that knows its model can lower this for speed.
const DefaultRescoreFraction = 0.1

// Options tune an Index.
type Options struct {
	// QuantizeAbove: searches over more vectors than this use the quantized
	// scan. 0 means DefaultQuantizeAbove; a negative value never quantizes.
	QuantizeAbove int
	// Rescore is the minimum number of quantized candidates re-scored
	// exactly; 0 means DefaultRescore.
	Rescore int
	// RescoreFraction is the share of the scanned vectors re-scored
	// exactly; 0 means DefaultRescoreFraction, a negative value none
	// beyond Rescore.
	RescoreFraction float64
	// Workers split a scan; 0 means GOMAXPROCS.
	Workers int
}

func (o Options) quantizeAbove() int {
	switch {
	case o.QuantizeAbove == 0:
		return DefaultQuantizeAbove
	case o.QuantizeAbove < 0:
		return math.MaxInt
	}
	return o.QuantizeAbove
}

func (o Options) rescore(k, n int) int {
	r := o.Rescore
	if r <= 0 {
		r = DefaultRescore
	}
	r = max(r, 10*k)
	f := o.RescoreFraction
	if f == 0 {
		f = DefaultRescoreFraction
	}
	if f > 0 {
		r = max(r, int(math.Ceil(f*float64(n))))
	}
	return r
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Hit is one neighbour: a chunk id and its cosine similarity to the query.
type Hit struct {
	ID    string
	Score float32
}

// Index holds one model's vectors. It is safe for concurrent use: searches
// share a read lock, updates take the write lock.
type Index struct {
	model string
	dim   int
	words int // uint64 words per sign code
	opt   Options

	mu    sync.RWMutex
	ids   []string
	pos   map[string]int
	data  []float32 // len(ids)·dim, row-major
	codes []uint64  // len(ids)·words when quantized (built lazily), else nil
}

// New returns an empty index for vectors of model with dimension dim.
func New(model string, dim int, opt Options) (*Index, error) {
	if model == "" {
		return nil, fmt.Errorf("vector: empty model id")
	}
	if dim <= 0 {
		return nil, fmt.Errorf("vector: model %s: dimension %d", model, dim)
	}
	return &Index{model: model, dim: dim, words: (dim + 63) / 64, opt: opt, pos: map[string]int{}}, nil
}

// Source is where Load reads stored vectors (a *store.Store).
type Source interface {
	VectorsByModel(model string) ([]store.Vector, error)
}

// Load builds an index from every vector stored under model. Vectors of
// another dimension under the same model id (a provider whose output size
// was changed without changing the id) are skipped and counted in skipped.
func Load(src Source, model string, dim int, opt Options) (ix *Index, skipped int, err error) {
	ix, err = New(model, dim, opt)
	if err != nil {
		return nil, 0, err
	}
	vecs, err := src.VectorsByModel(model)
	if err != nil {
		return nil, 0, fmt.Errorf("vector: load %s: %w", model, err)
	}
	keep := vecs[:0]
	for _, v := range vecs {
		if len(v.Data) != dim {
			skipped++
			continue
		}
		keep = append(keep, v)
	}
	if err := ix.Upsert(keep); err != nil {
		return nil, skipped, err
	}
	return ix, skipped, nil
}

// Model returns the model id the index belongs to.
func (ix *Index) Model() string { return ix.model }

// Dim returns the vector dimension.
func (ix *Index) Dim() int { return ix.dim }

// Len returns the number of vectors.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.ids)
}

// Has reports whether the index holds a vector for id.
func (ix *Index) Has(id string) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	_, ok := ix.pos[id]
	return ok
}

// Similarities returns the cosine of q with the vector of each id, in the
// order of ids; an id the index does not hold gets 0. It is what a search
// says of chunks that are not among its nearest: the ranker reads every
// candidate's similarity, not only the neighbours'.
func (ix *Index) Similarities(q []float32, ids []string) ([]float32, error) {
	if len(q) != ix.dim {
		return nil, fmt.Errorf("vector: %s: query has dimension %d, index has %d", ix.model, len(q), ix.dim)
	}
	qv := Normalize(q)
	out := make([]float32, len(ids))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for k, id := range ids {
		if i, ok := ix.pos[id]; ok {
			out[k] = vek32.Dot(qv, ix.data[i*ix.dim:(i+1)*ix.dim])
		}
	}
	return out, nil
}

// Upsert adds vectors or replaces those already present. Each is stored
// normalised; a zero vector is stored as zeros (it matches nothing).
func (ix *Index) Upsert(vecs []store.Vector) error {
	for _, v := range vecs {
		if len(v.Data) != ix.dim {
			return fmt.Errorf("vector: %s: chunk %s has dimension %d, index has %d", ix.model, v.ChunkID, len(v.Data), ix.dim)
		}
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if need := len(ix.data) + len(vecs)*ix.dim; need > cap(ix.data) {
		grown := make([]float32, len(ix.data), need)
		copy(grown, ix.data)
		ix.data = grown
	}
	for _, v := range vecs {
		i, ok := ix.pos[v.ChunkID]
		if !ok {
			i = len(ix.ids)
			ix.ids = append(ix.ids, v.ChunkID)
			ix.pos[v.ChunkID] = i
			ix.data = append(ix.data, make([]float32, ix.dim)...)
			if ix.codes != nil {
				ix.codes = append(ix.codes, make([]uint64, ix.words)...)
			}
		}
		row := ix.data[i*ix.dim : (i+1)*ix.dim]
		copy(row, v.Data)
		normalize(row)
		if ix.codes != nil {
			signCode(ix.codes[i*ix.words:(i+1)*ix.words], row)
		}
	}
	return nil
}

// Remove drops the vectors of ids; unknown ids are ignored. The last row
// moves into each hole so the arrays stay dense.
func (ix *Index) Remove(ids []string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, id := range ids {
		i, ok := ix.pos[id]
		if !ok {
			continue
		}
		last := len(ix.ids) - 1
		if i != last {
			ix.ids[i] = ix.ids[last]
			ix.pos[ix.ids[i]] = i
			copy(ix.data[i*ix.dim:(i+1)*ix.dim], ix.data[last*ix.dim:(last+1)*ix.dim])
			if ix.codes != nil {
				copy(ix.codes[i*ix.words:(i+1)*ix.words], ix.codes[last*ix.words:(last+1)*ix.words])
			}
		}
		delete(ix.pos, id)
		ix.ids = ix.ids[:last]
		ix.data = ix.data[:last*ix.dim]
		if ix.codes != nil {
			ix.codes = ix.codes[:last*ix.words]
		}
	}
}

// Query is one k-NN search.
type Query struct {
	Vector []float32
	K      int
	// Allow restricts the search to these chunk ids (computed by SQL for
	// path, kind and language filters). nil means every vector; an empty,
	// non-nil slice allows nothing.
	Allow []string
	// Exact forces the float32 scan whatever the size.
	Exact bool
}

// Search returns the K nearest vectors by cosine similarity, best first
// (ties broken by chunk id, so results are deterministic).
func (ix *Index) Search(q Query) ([]Hit, error) {
	if len(q.Vector) != ix.dim {
		return nil, fmt.Errorf("vector: %s: query has dimension %d, index has %d", ix.model, len(q.Vector), ix.dim)
	}
	if q.K <= 0 {
		return nil, nil
	}
	qv := make([]float32, ix.dim)
	copy(qv, q.Vector)
	normalize(qv)

	ix.mu.RLock()
	var rows []int // nil: all rows
	if q.Allow != nil {
		rows = make([]int, 0, len(q.Allow))
		for _, id := range q.Allow {
			if i, ok := ix.pos[id]; ok {
				rows = append(rows, i)
			}
		}
		sort.Ints(rows) // sequential memory access, and dedupes below
		rows = dedupeSorted(rows)
	}
	n := len(ix.ids)
	if rows != nil {
		n = len(rows)
	}
	quantize := !q.Exact && n > ix.opt.quantizeAbove()
	if quantize && ix.codes == nil {
		// Codes are built on first need, under the write lock.
		ix.mu.RUnlock()
		ix.buildCodes()
		ix.mu.RLock()
		if rows != nil { // rows may be stale if vectors moved meanwhile
			rows = rows[:0]
			for _, id := range q.Allow {
				if i, ok := ix.pos[id]; ok {
					rows = append(rows, i)
				}
			}
			sort.Ints(rows)
			rows = dedupeSorted(rows)
		}
	}
	defer ix.mu.RUnlock()
	var top []cand
	if quantize && ix.codes != nil {
		top = ix.quantizedScan(qv, q.K, rows)
	} else {
		top = ix.flatScan(qv, q.K, rows)
	}
	hits := make([]Hit, len(top))
	for i, c := range top {
		hits[i] = Hit{ID: ix.ids[c.row], Score: c.score}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	return hits, nil
}

func (ix *Index) buildCodes() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.codes != nil {
		return
	}
	n := len(ix.ids)
	codes := make([]uint64, n*ix.words)
	parallel(n, ix.opt.workers(), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			signCode(codes[i*ix.words:(i+1)*ix.words], ix.data[i*ix.dim:(i+1)*ix.dim])
		}
	})
	ix.codes = codes
}

// flatScan scores every row (or the given rows) exactly.
func (ix *Index) flatScan(q []float32, k int, rows []int) []cand {
	n := len(ix.ids)
	if rows != nil {
		n = len(rows)
	}
	if n == 0 {
		return nil
	}
	d := ix.dim
	parts := make([]topK, ix.opt.workers())
	parallelIdx(n, len(parts), func(w, lo, hi int) {
		t := newTopK(k)
		for j := lo; j < hi; j++ {
			i := j
			if rows != nil {
				i = rows[j]
			}
			t.push(cand{row: i, score: vek32.Dot(q, ix.data[i*d:(i+1)*d])})
		}
		parts[w] = t
	})
	return mergeTop(parts, k)
}

// quantizedScan ranks rows by the Hamming distance between sign codes, then
// re-scores the best R exactly.
func (ix *Index) quantizedScan(q []float32, k int, rows []int) []cand {
	n := len(ix.ids)
	if rows != nil {
		n = len(rows)
	}
	r := ix.opt.rescore(k, n)
	if r >= n {
		return ix.flatScan(q, k, rows)
	}
	qc := make([]uint64, ix.words)
	signCode(qc, q)
	w := ix.words
	dist := make([]uint16, n)
	workers := ix.opt.workers()
	hists := make([][]int, workers)
	parallelIdx(n, workers, func(wk, lo, hi int) {
		h := make([]int, ix.dim+1)
		codes := ix.codes
		for j := lo; j < hi; j++ {
			i := j
			if rows != nil {
				i = rows[j]
			}
			c := codes[i*w : i*w+w]
			c = c[:len(qc)] // lets the compiler drop the bounds checks below
			dd := 0
			for x, qw := range qc {
				dd += bits.OnesCount64(qw ^ c[x])
			}
			dist[j] = uint16(dd)
			h[dd]++
		}
		hists[wk] = h
	})
	// The cut-off distance: every row nearer than t is a candidate, and
	// rows exactly at t fill the remaining places in scan order.
	hist := make([]int, ix.dim+1)
	for _, h := range hists {
		for d, c := range h {
			hist[d] += c
		}
	}
	t, below := 0, 0
	for ; t <= ix.dim; t++ {
		if below+hist[t] >= r {
			break
		}
		below += hist[t]
	}
	atT := r - below
	cands := make([]int, 0, r)
	for j, dd := range dist {
		switch {
		case int(dd) < t:
			cands = append(cands, j)
		case int(dd) == t && atT > 0:
			cands = append(cands, j)
			atT--
		}
	}
	if rows != nil {
		for x, j := range cands {
			cands[x] = rows[j]
		}
	}
	return ix.flatScan(q, k, cands)
}

type cand struct {
	row   int
	score float32
}

// topK is a min-heap of the best k candidates seen.
type topK struct {
	k int
	h candHeap
}

func newTopK(k int) topK { return topK{k: k, h: make(candHeap, 0, k)} }

func (t *topK) push(c cand) {
	if len(t.h) < t.k {
		heap.Push(&t.h, c)
		return
	}
	if c.score > t.h[0].score {
		t.h[0] = c
		heap.Fix(&t.h, 0)
	}
}

type candHeap []cand

func (h candHeap) Len() int           { return len(h) }
func (h candHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h candHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(x any)        { *h = append(*h, x.(cand)) }
func (h *candHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

func mergeTop(parts []topK, k int) []cand {
	all := newTopK(k)
	for _, p := range parts {
		for _, c := range p.h {
			all.push(c)
		}
	}
	return all.h
}

// parallelIdx runs fn over [0,n) split into at most workers contiguous
// ranges; fn gets its worker number.
func parallelIdx(n, workers int, fn func(w, lo, hi int)) {
	if workers < 1 {
		workers = 1
	}
	// Small scans are not worth a goroutine each.
	if n < 4096 || workers == 1 {
		fn(0, 0, n)
		return
	}
	step := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*step, min((w+1)*step, n)
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			fn(w, lo, hi)
		}(w, lo, hi)
	}
	wg.Wait()
}

func parallel(n, workers int, fn func(lo, hi int)) {
	parallelIdx(n, workers, func(_, lo, hi int) { fn(lo, hi) })
}

// signCode sets bit i of code when v[i] > 0.
func signCode(code []uint64, v []float32) {
	for i := range code {
		code[i] = 0
	}
	for i, x := range v {
		if x > 0 {
			code[i>>6] |= 1 << (uint(i) & 63)
		}
	}
}

// normalize scales v to unit length in place; a zero vector stays zero.
func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Normalize returns v scaled to unit length (a copy); embedders use it so
// that every stored vector is comparable by dot product.
func Normalize(v []float32) []float32 {
	out := make([]float32, len(v))
	copy(out, v)
	normalize(out)
	return out
}

func dedupeSorted(s []int) []int {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
