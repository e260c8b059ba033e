package ltr

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// A ranking problem with a known best weight direction: documents whose
// relevance is a noisy linear function of three features, one of them
// useless. Coordinate ascent from zero weights must reach the ranking
// quality of the true weights and give the useless feature little weight.
func TestCoordinateAscentLearnsRanking(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type doc struct {
		f   [3]float64
		rel bool
	}
	var queries [][]doc
	for q := 0; q < 60; q++ {
		var ds []doc
		for d := 0; d < 30; d++ {
			var x doc
			for i := range x.f {
				x.f[i] = rng.Float64()
			}
			x.rel = 2*x.f[0]-1.5*x.f[1]+0.3*rng.NormFloat64() > 0.9
			ds = append(ds, x)
		}
		queries = append(queries, ds)
	}
	// Objective: mean reciprocal rank of the first relevant document.
	mrr := func(w []float64) float64 {
		total := 0.0
		for _, ds := range queries {
			idx := make([]int, len(ds))
			for i := range idx {
				idx[i] = i
			}
			score := func(d doc) float64 { return w[0]*d.f[0] + w[1]*d.f[1] + w[2]*d.f[2] }
			sort.SliceStable(idx, func(a, b int) bool { return score(ds[idx[a]]) > score(ds[idx[b]]) })
			for r, i := range idx {
				if ds[i].rel {
					total += 1 / float64(r+1)
					break
				}
			}
		}
		return total / float64(len(queries))
	}
	start := []float64{0, 0, 0}
	w, obj := CoordinateAscent(start, mrr, AscentOptions{Seed: 7, Passes: 20})
	truth := mrr([]float64{2, -1.5, 0})
	if obj < truth-0.05 {
		t.Fatalf("fitted MRR %.3f, true weights give %.3f (weights %v)", obj, truth, w)
	}
	if obj <= mrr(start) {
		t.Fatalf("no improvement over the start: %.3f", obj)
	}
	if !(w[0] > 0 && w[1] < 0) {
		t.Fatalf("weights %v: want the first positive and the second negative", w)
	}
	if start[0] != 0 {
		t.Fatal("start was modified")
	}
	// Deterministic for a seed.
	w2, obj2 := CoordinateAscent(start, mrr, AscentOptions{Seed: 7, Passes: 20})
	if obj2 != obj || w2[0] != w[0] || w2[1] != w[1] {
		t.Fatalf("two runs with one seed differ: %v %v", w, w2)
	}
}

func TestCoordinateAscentKeepsFixed(t *testing.T) {
	obj := func(x []float64) float64 { return -(x[0]-3)*(x[0]-3) - (x[1]-1)*(x[1]-1) }
	x, _ := CoordinateAscent([]float64{0, 0}, obj, AscentOptions{Fixed: map[int]bool{1: true}, Passes: 50})
	if x[1] != 0 {
		t.Fatalf("fixed coordinate moved to %v", x[1])
	}
	if math.Abs(x[0]-3) > 0.05 {
		t.Fatalf("free coordinate at %v, want 3", x[0])
	}
}

func TestLogisticRecoversParameters(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const a, b = 3.0, -1.0
	var s []float64
	var y []bool
	for i := 0; i < 20000; i++ {
		x := rng.Float64()*4 - 2
		p := 1 / (1 + math.Exp(-(a*x + b)))
		s = append(s, x)
		y = append(y, rng.Float64() < p)
	}
	fa, fb := Logistic(s, y)
	if math.Abs(fa-a) > 0.2 || math.Abs(fb-b) > 0.15 {
		t.Fatalf("fitted a=%.3f b=%.3f, want %.1f %.1f", fa, fb, a, b)
	}
	probs := make([]float64, len(s))
	for i, x := range s {
		probs[i] = 1 / (1 + math.Exp(-(fa*x + fb)))
	}
	flat := make([]float64, len(s))
	for i := range flat {
		flat[i] = 0.5
	}
	if LogLoss(probs, y) >= LogLoss(flat, y) {
		t.Fatal("fitted calibration is no better than a constant")
	}
}

func TestLogisticNRecoversParameters(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	w0 := []float64{2, -1, 0.5}
	const b0 = -0.5
	var xs [][]float64
	var y []bool
	for i := 0; i < 30000; i++ {
		x := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		z := b0
		for k := range x {
			z += w0[k] * x[k]
		}
		xs = append(xs, x)
		y = append(y, rng.Float64() < 1/(1+math.Exp(-z)))
	}
	w, b := LogisticN(xs, y)
	for k := range w0 {
		if math.Abs(w[k]-w0[k]) > 0.15 {
			t.Fatalf("w = %v, want %v", w, w0)
		}
	}
	if math.Abs(b-b0) > 0.1 {
		t.Fatalf("b = %v, want %v", b, b0)
	}
}

// A weight of 2 on an example fits as two copies of it would.
func TestLogisticNWeightedCountsCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var xs, twice [][]float64
	var y, ytwice []bool
	var weights []float64
	for i := 0; i < 2000; i++ {
		x := []float64{rng.NormFloat64()}
		lab := rng.Float64() < 1/(1+math.Exp(-(1.5*x[0]-0.3)))
		w := 1.0
		if i%3 == 0 {
			w = 2
			twice = append(twice, x)
			ytwice = append(ytwice, lab)
		}
		xs, y, weights = append(xs, x), append(y, lab), append(weights, w)
		twice, ytwice = append(twice, x), append(ytwice, lab)
	}
	wa, ba := LogisticNWeighted(xs, y, weights)
	wb, bb := LogisticN(twice, ytwice)
	if math.Abs(wa[0]-wb[0]) > 1e-6 || math.Abs(ba-bb) > 1e-6 {
		t.Fatalf("weighted fit (%v, %v) differs from the fit on copies (%v, %v)", wa, ba, wb, bb)
	}
}
