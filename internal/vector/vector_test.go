package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/store"
)

// randomUnit returns n random unit vectors of dimension d (Gaussian
// coordinates, so directions are uniform on the sphere).
func randomUnit(rng *rand.Rand, n, d int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, d)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		normalize(v)
		out[i] = v
	}
	return out
}

// clustered returns n unit vectors around c random centres, the shape real
// embeddings have (code of one module lies close together).
func clustered(rng *rand.Rand, n, d, c int, spread float64) [][]float32 {
	centres := randomUnit(rng, c, d)
	out := make([][]float32, n)
	for i := range out {
		ctr := centres[rng.IntN(c)]
		v := make([]float32, d)
		for j := range v {
			v[j] = ctr[j] + float32(spread*rng.NormFloat64()/math.Sqrt(float64(d)))
		}
		normalize(v)
		out[i] = v
	}
	return out
}

func idOf(i int) string { return fmt.Sprintf("c%07d", i) }

func build(t testing.TB, vecs [][]float32, opt Options) *Index {
	t.Helper()
	ix, err := New("m", len(vecs[0]), opt)
	if err != nil {
		t.Fatal(err)
	}
	batch := make([]store.Vector, len(vecs))
	for i, v := range vecs {
		batch[i] = store.Vector{ChunkID: idOf(i), Data: v}
	}
	if err := ix.Upsert(batch); err != nil {
		t.Fatal(err)
	}
	return ix
}

// bruteForce is the reference: float64 dot products over every allowed row,
// best first, ties by id.
func bruteForce(vecs [][]float32, q []float32, k int, allow map[string]bool) []Hit {
	qn := Normalize(q)
	var all []Hit
	for i, v := range vecs {
		id := idOf(i)
		if allow != nil && !allow[id] {
			continue
		}
		var s float64
		vn := Normalize(v)
		for j := range vn {
			s += float64(vn[j]) * float64(qn[j])
		}
		all = append(all, Hit{ID: id, Score: float32(s)})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Score != all[j].Score {
			return all[i].Score > all[j].Score
		}
		return all[i].ID < all[j].ID
	})
	if len(all) > k {
		all = all[:k]
	}
	return all
}

func recall(got, want []Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	in := map[string]bool{}
	for _, h := range want {
		in[h.ID] = true
	}
	n := 0
	for _, h := range got {
		if in[h.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func TestFlatScanEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 5000, 20000} { // below and above the parallel cut
		vecs := randomUnit(rng, n, 96)
		ix := build(t, vecs, Options{QuantizeAbove: -1})
		for qi := 0; qi < 5; qi++ {
			q := randomUnit(rng, 1, 96)[0]
			for _, k := range []int{1, 10, 50} {
				got, err := ix.Search(Query{Vector: q, K: k})
				if err != nil {
					t.Fatal(err)
				}
				want := bruteForce(vecs, q, k, nil)
				if len(got) != len(want) {
					t.Fatalf("n=%d k=%d: %d hits, want %d", n, k, len(got), len(want))
				}
				for i := range want {
					// Same ranking; the SIMD sum may differ from float64 in
					// the last bits, so ids must match where scores differ
					// by more than rounding.
					if got[i].ID != want[i].ID && math.Abs(float64(got[i].Score-want[i].Score)) > 1e-5 {
						t.Fatalf("n=%d k=%d rank %d: got %s (%v), want %s (%v)", n, k, i, got[i].ID, got[i].Score, want[i].ID, want[i].Score)
					}
					if math.Abs(float64(got[i].Score-want[i].Score)) > 1e-5 {
						t.Fatalf("n=%d k=%d rank %d: score %v, want %v", n, k, i, got[i].Score, want[i].Score)
					}
				}
			}
		}
	}
}

func TestQuantizedRecallRandom100k(t *testing.T) {
	if testing.Short() {
		t.Skip("100k×768 vectors")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d = 100_000, 768
	vecs := randomUnit(rng, n, d)
	ix := build(t, vecs, Options{QuantizeAbove: 1})
	vecs = nil // the index holds its own copy
	var sum float64
	const queries = 20
	for qi := 0; qi < queries; qi++ {
		// Queries near a stored vector, as a real query lies near the code
		// it asks for; pure noise queries have no meaningful neighbours.
		row := rng.IntN(n)
		q := perturb(rng, ix.data[row*d:(row+1)*d], 0.8)
		got, err := ix.Search(Query{Vector: q, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ix.Search(Query{Vector: q, K: 10, Exact: true})
		sum += recall(got, want)
	}
	r := sum / queries
	t.Logf("quantized recall@10 on %d random %d-d vectors: %.3f", n, d, r)
	if r < 0.95 {
		t.Fatalf("recall@10 = %.3f, want >= 0.95", r)
	}
}

// perturb returns v plus Gaussian noise of the given total norm, normalised.
func perturb(rng *rand.Rand, v []float32, noise float64) []float32 {
	out := make([]float32, len(v))
	s := noise / math.Sqrt(float64(len(v)))
	for i := range v {
		out[i] = v[i] + float32(s*rng.NormFloat64())
	}
	normalize(out)
	return out
}

func TestQuantizedRecallClustered(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 30_000, 256
	vecs := clustered(rng, n, d, 50, 0.6)
	ix := build(t, vecs, Options{QuantizeAbove: 1, RescoreFraction: -1})
	var sum float64
	const queries = 20
	for qi := 0; qi < queries; qi++ {
		q := perturb(rng, vecs[rng.IntN(n)], 0.5)
		got, err := ix.Search(Query{Vector: q, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		sum += recall(got, bruteForce(vecs, q, 10, nil))
	}
	if r := sum / queries; r < 0.95 {
		t.Fatalf("clustered recall@10 = %.3f, want >= 0.95", r)
	}
}

func TestFilterRespected(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vecs := randomUnit(rng, 10_000, 64)
	allow := map[string]bool{}
	var ids []string
	for i := 0; i < len(vecs); i += 7 {
		allow[idOf(i)] = true
		ids = append(ids, idOf(i))
	}
	ids = append(ids, "not-in-index", idOf(0)) // unknown and duplicate ids are harmless
	for _, opt := range []Options{{QuantizeAbove: -1}, {QuantizeAbove: 1, Rescore: 200, RescoreFraction: -1}} {
		ix := build(t, vecs, opt)
		q := randomUnit(rng, 1, 64)[0]
		got, err := ix.Search(Query{Vector: q, K: 20, Allow: ids})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 20 {
			t.Fatalf("%d hits", len(got))
		}
		for _, h := range got {
			if !allow[h.ID] {
				t.Fatalf("hit %s is outside the allow-set", h.ID)
			}
		}
		want := bruteForce(vecs, q, 20, allow)
		// Exact scans must be exact; the quantized one with few candidates
		// on random data only needs to keep the filter.
		if r := recall(got, want); opt.QuantizeAbove < 0 && r != 1 {
			t.Fatalf("options %+v: filtered recall %.2f", opt, r)
		}
		none, err := ix.Search(Query{Vector: q, K: 5, Allow: []string{}})
		if err != nil || len(none) != 0 {
			t.Fatalf("empty allow-set: %v, %v", none, err)
		}
	}
}

func TestUpsertRemove(t *testing.T) {
	ix, _ := New("m", 3, Options{})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(ix.Upsert([]store.Vector{{ChunkID: "a", Data: []float32{1, 0, 0}}, {ChunkID: "b", Data: []float32{0, 2, 0}}, {ChunkID: "c", Data: []float32{0, 0, 3}}}))
	must(ix.Upsert([]store.Vector{{ChunkID: "a", Data: []float32{0, 0, -1}}}))
	ix.Remove([]string{"b", "zzz"})
	if ix.Len() != 2 || ix.Has("b") || !ix.Has("a") {
		t.Fatalf("len %d", ix.Len())
	}
	got, _ := ix.Search(Query{Vector: []float32{0, 0, 1}, K: 5})
	if len(got) != 2 || got[0].ID != "c" || got[0].Score < 0.999 || got[1].ID != "a" || got[1].Score > -0.999 {
		t.Fatalf("after upsert/remove: %+v", got)
	}
	if err := ix.Upsert([]store.Vector{{ChunkID: "d", Data: []float32{1, 2}}}); err == nil {
		t.Fatal("a vector of another dimension was accepted")
	}
	if _, err := ix.Search(Query{Vector: []float32{1, 2}, K: 1}); err == nil {
		t.Fatal("a query of another dimension was accepted")
	}
}

// TestModelIsolation stores vectors of two models (one with another
// dimension, one a same-dimension space) for the same chunks in a real
// store and checks that each index sees only its own.
func TestModelIsolation(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var chunks []chunk.Chunk
	for i := 0; i < 3; i++ {
		chunks = append(chunks, chunk.Chunk{ID: idOf(i), RelativePath: "a.ts", NodeKind: "function", Name: fmt.Sprint("f", i),
			FullSource: "x", EmbeddingText: "x", StartLine: i + 1, EndLine: i + 1, Breadcrumb: "a.ts > f"})
	}
	if _, err := st.ReplaceFile(chunkindex.FileRecord{Path: "a.ts", ContentHash: "h", Language: "typescript"}, chunks); err != nil {
		t.Fatal(err)
	}
	put := func(model string, vs ...store.Vector) {
		t.Helper()
		if err := st.PutVectors(model, vs); err != nil {
			t.Fatal(err)
		}
	}
	put("A@3", store.Vector{ChunkID: idOf(0), Data: []float32{1, 0, 0}}, store.Vector{ChunkID: idOf(1), Data: []float32{0, 1, 0}})
	put("B@3", store.Vector{ChunkID: idOf(2), Data: []float32{1, 0, 0}})
	put("C@2", store.Vector{ChunkID: idOf(0), Data: []float32{1, 0}})
	// A stray vector of another dimension under A's id must be skipped.
	put("A@3", store.Vector{ChunkID: idOf(2), Data: []float32{1, 0}})

	a, skipped, err := Load(st, "A@3", 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != 2 || skipped != 1 {
		t.Fatalf("A: %d vectors, %d skipped", a.Len(), skipped)
	}
	hits, _ := a.Search(Query{Vector: []float32{1, 0, 0}, K: 10})
	for _, h := range hits {
		if h.ID == idOf(2) {
			t.Fatal("model B's vector leaked into model A's index")
		}
	}
	b, _, _ := Load(st, "B@3", 3, Options{})
	if b.Len() != 1 || !b.Has(idOf(2)) {
		t.Fatalf("B: %d vectors", b.Len())
	}
	c, _, _ := Load(st, "C@2", 2, Options{})
	if c.Len() != 1 {
		t.Fatalf("C: %d vectors", c.Len())
	}
}

// Similarities gives any chunk's cosine to the query, the same as a
// search's score for it, whether or not it is among the nearest; a chunk
// the index does not hold gets 0, and a query of another dimension is an
// error.
func TestSimilarities(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vecs := randomUnit(rng, 200, 32)
	ix := build(t, vecs, Options{QuantizeAbove: -1})
	q := randomUnit(rng, 1, 32)[0]
	for i := range q {
		q[i] *= 3 // an unnormalised query scores the same
	}
	all := bruteForce(vecs, q, len(vecs), nil)
	ids := []string{"absent"}
	want := []float32{0}
	for _, h := range all {
		ids, want = append(ids, h.ID), append(want, h.Score)
	}
	got, err := ix.Similarities(q, ids)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ids {
		if math.Abs(float64(got[i]-want[i])) > 1e-5 {
			t.Errorf("%s: similarity %v, want %v", ids[i], got[i], want[i])
		}
	}
	if _, err := ix.Similarities(q[:16], ids); err == nil {
		t.Error("a query of dimension 16 against an index of 32 was answered")
	}
}
