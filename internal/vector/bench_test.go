package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Benchmarks (2 cores, shared machine; read as orders of magnitude):
//
//	go test ./internal/vector -run '^$' -bench . -benchtime 20x -timeout 30m
//
// BenchmarkFlat100k is the exact scan at 100k×768; BenchmarkQuantized1M*
// the sign-bit scan plus float32 re-score at 1M×768, with recall@10 against
// the exact scan reported as a metric, on random and on clustered data.

// filled returns an index of n vectors of dimension d written straight into
// its arrays (building 1M×768 through Upsert would hold two copies).
func filled(b *testing.B, n, d int, opt Options, gen func(rng *rand.Rand, row []float32)) *Index {
	b.Helper()
	ix, err := New("bench", d, opt)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	ix.data = make([]float32, n*d)
	ix.ids = make([]string, n)
	for i := 0; i < n; i++ {
		row := ix.data[i*d : (i+1)*d]
		gen(rng, row)
		normalize(row)
		ix.ids[i] = idOf(i)
		ix.pos[ix.ids[i]] = i
	}
	return ix
}

func gaussian(rng *rand.Rand, row []float32) {
	for j := range row {
		row[j] = float32(rng.NormFloat64())
	}
}

// clusteredGen draws around one of c fixed centres.
func clusteredGen(d, c int, spread float64) func(rng *rand.Rand, row []float32) {
	crng := rand.New(rand.NewPCG(13, 14))
	centres := randomUnit(crng, c, d)
	s := spread / math.Sqrt(float64(d))
	return func(rng *rand.Rand, row []float32) {
		ctr := centres[rng.IntN(c)]
		for j := range row {
			row[j] = ctr[j] + float32(s*rng.NormFloat64())
		}
	}
}

func queries(ix *Index, n int) [][]float32 {
	rng := rand.New(rand.NewPCG(15, 16))
	out := make([][]float32, n)
	d := ix.dim
	for i := range out {
		row := ix.data[rng.IntN(len(ix.ids))*d:]
		out[i] = perturb(rng, row[:d], 0.8)
	}
	return out
}

func BenchmarkFlat100k(b *testing.B) { benchFlat(b, 100_000) }

func BenchmarkFlat1M(b *testing.B) { benchFlat(b, 1_000_000) }

// benchFlat times exact searches over n random 768-dimensional vectors.
func benchFlat(b *testing.B, n int) {
	ix := filled(b, n, 768, Options{QuantizeAbove: -1}, gaussian)
	qs := queries(ix, 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ix.Search(Query{Vector: qs[i%len(qs)], K: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchQuantized(b *testing.B, n int, opt Options, gen func(rng *rand.Rand, row []float32)) {
	opt.QuantizeAbove = 1
	ix := filled(b, n, 768, opt, gen)
	ix.buildCodes()
	qs := queries(ix, 16)
	var rsum float64
	for _, q := range qs {
		got, _ := ix.Search(Query{Vector: q, K: 10})
		want, _ := ix.Search(Query{Vector: q, K: 10, Exact: true})
		rsum += recall(got, want)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ix.Search(Query{Vector: qs[i%len(qs)], K: 10}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(rsum/float64(len(qs)), "recall@10")
}

// Default options: re-score a tenth of the data, safe on any distribution.
func BenchmarkQuantized1MRandom(b *testing.B) { benchQuantized(b, 1_000_000, Options{}, gaussian) }

func BenchmarkQuantized1MClustered(b *testing.B) {
	benchQuantized(b, 1_000_000, Options{}, clusteredGen(768, 1000, 0.8))
}

// Re-scoring only max(400, 10·k): the fast setting for clustered spaces.
func BenchmarkQuantized1MRandomFast(b *testing.B) {
	benchQuantized(b, 1_000_000, Options{RescoreFraction: -1}, gaussian)
}

func BenchmarkQuantized1MClusteredFast(b *testing.B) {
	benchQuantized(b, 1_000_000, Options{RescoreFraction: -1}, clusteredGen(768, 1000, 0.8))
}
