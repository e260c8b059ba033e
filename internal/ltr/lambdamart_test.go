package ltr

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// firstHit is the mean first-hit DCG@10 of the queries (one kind) under
// scores base + trees.
func firstHit(qs []RankQuery, trees []Tree) float64 {
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
		for r := 0; r < 10 && r < len(order); r++ {
			if q.Gains[order[r]][0] > 0 {
				total += 1 / math.Log2(float64(r)+2)
				break
			}
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
		rq := RankQuery{KindWeights: []float64{1}}
		for d := 0; d < 100; d++ {
			a, b, noise := rng.Float64(), rng.Float64(), rng.Float64()
			rel := 0.0
			if (a > 0.5) != (b > 0.5) && math.Abs(a-b) > 0.6 {
				rel = 1
			}
			rq.X = append(rq.X, []float64{a, b, noise})
			rq.Gains = append(rq.Gains, []float64{rel})
			rq.Base = append(rq.Base, 0.1*a)
		}
		qs = append(qs, rq)
	}
	return qs
}

func TestLambdaMARTLearnsAnInteraction(t *testing.T) {
	train, test := xorQueries(1, 60), xorQueries(2, 60)
	before := firstHit(test, nil)
	var trainCurve []float64
	trees := LambdaMART(train, BoostOptions{Trees: 40, Depth: 2, MinLeaf: 20, After: func(ts []Tree) bool {
		trainCurve = append(trainCurve, firstHit(train, ts))
		return true
	}})
	after := firstHit(test, trees)
	if len(trees) != 40 {
		t.Fatalf("%d trees, want 40", len(trees))
	}
	t.Logf("held-out first-hit DCG@10: %.3f before, %.3f after", before, after)
	if after < before+0.2 || after < 0.8 {
		t.Errorf("held-out first-hit DCG@10 %.3f before boosting, %.3f after: the trees did not learn the interaction", before, after)
	}
	if start := firstHit(train, nil); trainCurve[len(trainCurve)-1] <= start {
		t.Errorf("training first-hit DCG did not rise: %.3f → %.3f", start, trainCurve[len(trainCurve)-1])
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
