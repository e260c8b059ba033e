package ltr

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// ndcg is the mean NDCG@10 of the queries under scores base + trees.
func ndcg(qs []RankQuery, trees []Tree) float64 {
	total := 0.0
	for _, q := range qs {
		s := make([]float64, len(q.X))
		for i, x := range q.X {
			if q.Base != nil {
				s[i] = q.Base[i]
			}
			for t := range trees {
				s[i] += trees[t].Eval(x)
			}
		}
		order := make([]int, len(s))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return s[order[a]] > s[order[b]] })
		ideal := append([]float64(nil), q.Rel...)
		sort.Sort(sort.Reverse(sort.Float64Slice(ideal)))
		dcg, idcg := 0.0, 0.0
		for r := 0; r < 10 && r < len(order); r++ {
			dcg += q.Rel[order[r]] / math.Log2(float64(r)+2)
			idcg += ideal[r] / math.Log2(float64(r)+2)
		}
		if idcg > 0 {
			total += dcg / idcg
		}
	}
	return total / float64(len(qs))
}

// xorQueries: a document is relevant when exactly one of two features is
// high — an interaction no linear score can rank — and a third feature is
// noise. The base score is a linear model's best effort (feature 0).
func xorQueries(seed uint64, n int) []RankQuery {
	rng := rand.New(rand.NewPCG(seed, 7))
	var qs []RankQuery
	for q := 0; q < n; q++ {
		var rq RankQuery
		for d := 0; d < 40; d++ {
			a, b, noise := rng.Float64(), rng.Float64(), rng.Float64()
			rel := 0.0
			if (a > 0.5) != (b > 0.5) && math.Abs(a-b) > 0.3 {
				rel = 1
			}
			rq.X = append(rq.X, []float64{a, b, noise})
			rq.Rel = append(rq.Rel, rel)
			rq.Base = append(rq.Base, 0.1*a)
		}
		qs = append(qs, rq)
	}
	return qs
}

func TestLambdaMARTLearnsAnInteraction(t *testing.T) {
	train, test := xorQueries(1, 60), xorQueries(2, 60)
	before := ndcg(test, nil)
	var trainCurve []float64
	trees := LambdaMART(train, BoostOptions{Trees: 40, Depth: 2, MinLeaf: 20, After: func(ts []Tree) bool {
		trainCurve = append(trainCurve, ndcg(train, ts))
		return true
	}})
	after := ndcg(test, trees)
	if len(trees) != 40 {
		t.Fatalf("%d trees, want 40", len(trees))
	}
	if after < before+0.2 || after < 0.8 {
		t.Errorf("held-out NDCG@10 %.3f before boosting, %.3f after: the trees did not learn the interaction", before, after)
	}
	if trainCurve[len(trainCurve)-1] <= trainCurve[0] {
		t.Errorf("training NDCG did not rise: %.3f → %.3f", trainCurve[0], trainCurve[len(trainCurve)-1])
	}
	// Deterministic: the same data gives the same trees.
	again := LambdaMART(train, BoostOptions{Trees: 40, Depth: 2, MinLeaf: 20})
	for i := range trees {
		if len(trees[i].Value) != len(again[i].Value) || trees[i].Value[0] != again[i].Value[0] {
			t.Fatalf("tree %d differs between two fits of the same data", i)
		}
	}
}

func TestLambdaMARTStopsWhenTold(t *testing.T) {
	trees := LambdaMART(xorQueries(3, 10), BoostOptions{Trees: 50, After: func(ts []Tree) bool { return len(ts) < 7 }})
	if len(trees) != 7 {
		t.Errorf("%d trees, want 7 (After said stop)", len(trees))
	}
}

func TestTreeEval(t *testing.T) {
	// x0 <= 1 → (x1 <= 5 → 10 | 20) | 30
	tr := Tree{
		Feature:   []int{0, 1, -1, -1, -1},
		Threshold: []float64{1, 5, 0, 0, 0},
		Left:      []int{1, 2, -1, -1, -1},
		Right:     []int{4, 3, -1, -1, -1},
		Value:     []float64{0, 0, 10, 20, 30},
	}
	tests := []struct {
		x    []float64
		want float64
	}{
		{[]float64{0, 0}, 10},
		{[]float64{1, 5}, 10},
		{[]float64{1, 6}, 20},
		{[]float64{2, 0}, 30},
	}
	for _, tc := range tests {
		if got := tr.Eval(tc.x); got != tc.want {
			t.Errorf("Eval(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}
