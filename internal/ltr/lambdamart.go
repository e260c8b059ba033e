package ltr

import (
	"math"
	"sort"
)

// LambdaMART boosts regression trees on LambdaRank gradients (Burges,
// "From RankNet to LambdaRank to LambdaMART: An Overview", 2010): each
// tree moves every document's score in the direction that most raises the
// NDCG of its query, so the ensemble learns what a linear model cannot —
// one feature mattering only when another holds (a path match counts for a
// terse fix subject, less for a sentence of prose). The fit starts from
// each document's base score (a linear model's), so the trees correct that
// model rather than replace it. Deterministic: no sampling.

// Tree is one regression tree in arrays: node i splits on Feature[i] at
// Threshold[i] (x <= threshold goes Left), or is a leaf holding Value[i]
// when Feature[i] < 0. Node 0 is the root.
type Tree struct {
	Feature   []int     `json:"feature"`
	Threshold []float64 `json:"threshold"`
	Left      []int     `json:"left"`
	Right     []int     `json:"right"`
	Value     []float64 `json:"value"`
}

// Eval returns the tree's output for one feature vector.
func (t *Tree) Eval(x []float64) float64 {
	i := 0
	for t.Feature[i] >= 0 {
		if x[t.Feature[i]] <= t.Threshold[i] {
			i = t.Left[i]
		} else {
			i = t.Right[i]
		}
	}
	return t.Value[i]
}

// RankQuery is one query's documents for LambdaMART.
type RankQuery struct {
	X      [][]float64 // features per document
	Rel    []float64   // graded relevance per document (0: not relevant)
	Base   []float64   // starting score per document; nil means 0
	Weight float64     // the query's weight in the gradients; 0 means 1
}

// BoostOptions configure LambdaMART.
type BoostOptions struct {
	Trees   int     // boosting rounds; 0 means 100
	Depth   int     // levels of splits per tree; 0 means 3
	MinLeaf int     // fewest documents in a leaf; 0 means 50
	Rate    float64 // shrinkage of each tree; 0 means 0.1
	Bins    int     // quantile bins per feature; 0 means 64 (at most 255)
	// Truncate limits NDCG to the top k in the gradients; 0 means 10.
	Truncate int
	// After, when set, is called after each tree with the ensemble so far;
	// returning false stops the boosting.
	After func(trees []Tree) bool
}

// LambdaMART fits an ensemble of trees whose sum, added to each document's
// base score, ranks the queries' documents.
func LambdaMART(qs []RankQuery, opt BoostOptions) []Tree {
	if opt.Trees <= 0 {
		opt.Trees = 100
	}
	if opt.Depth <= 0 {
		opt.Depth = 3
	}
	if opt.MinLeaf <= 0 {
		opt.MinLeaf = 50
	}
	if opt.Rate <= 0 {
		opt.Rate = 0.1
	}
	if opt.Bins <= 0 || opt.Bins > 255 {
		opt.Bins = min(max(opt.Bins, 64), 255)
	}
	if opt.Truncate <= 0 {
		opt.Truncate = 10
	}
	var rows [][]float64
	var start []int // first row of each query
	for _, q := range qs {
		start = append(start, len(rows))
		rows = append(rows, q.X...)
	}
	if len(rows) == 0 {
		return nil
	}
	nf := len(rows[0])
	cuts := binCuts(rows, nf, opt.Bins)
	binned := make([][]uint8, nf)
	for f := 0; f < nf; f++ {
		binned[f] = make([]uint8, len(rows))
		for r, x := range rows {
			binned[f][r] = uint8(sort.SearchFloat64s(cuts[f], x[f]))
		}
	}
	scores := make([]float64, len(rows))
	for qi, q := range qs {
		for d := range q.X {
			if q.Base != nil {
				scores[start[qi]+d] = q.Base[d]
			}
		}
	}
	grad := make([]float64, len(rows))
	hess := make([]float64, len(rows))
	var trees []Tree
	all := make([]int, len(rows))
	for i := range all {
		all[i] = i
	}
	for t := 0; t < opt.Trees; t++ {
		clear(grad)
		clear(hess)
		for qi, q := range qs {
			lambdas(q, scores[start[qi]:start[qi]+len(q.X)], grad[start[qi]:], hess[start[qi]:], opt.Truncate)
		}
		g := &grower{binned: binned, cuts: cuts, grad: grad, hess: hess, minLeaf: opt.MinLeaf, rate: opt.Rate, bins: opt.Bins}
		tree := Tree{}
		g.grow(&tree, all, opt.Depth)
		trees = append(trees, tree)
		for r, x := range rows {
			scores[r] += tree.Eval(x)
		}
		if opt.After != nil && !opt.After(trees) {
			break
		}
	}
	return trees
}

// binCuts are each feature's bin upper bounds: up to bins distinct
// quantiles of its values, so a split costs a pass over a histogram rather
// than a sort.
func binCuts(rows [][]float64, nf, bins int) [][]float64 {
	cuts := make([][]float64, nf)
	vals := make([]float64, len(rows))
	for f := 0; f < nf; f++ {
		for r, x := range rows {
			vals[r] = x[f]
		}
		sort.Float64s(vals)
		var c []float64
		for b := 1; b < bins; b++ {
			v := vals[b*len(vals)/bins]
			if len(c) == 0 || v > c[len(c)-1] {
				c = append(c, v)
			}
		}
		// Values equal to the last cut fall in its bin; the top bin holds
		// everything above.
		if len(c) > 0 && c[len(c)-1] == vals[len(vals)-1] {
			c = c[:len(c)-1]
		}
		cuts[f] = c
	}
	return cuts
}

// lambdas adds one query's LambdaRank gradients (to raise a document's
// score, positive) and their second derivatives: for each pair that the
// relevance orders, the RankNet gradient scaled by how much swapping the
// two would change NDCG@truncate.
func lambdas(q RankQuery, s, grad, hess []float64, truncate int) {
	n := len(q.X)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s[order[a]] > s[order[b]] })
	rank := make([]int, n)
	for r, i := range order {
		rank[i] = r
	}
	ideal := append([]float64(nil), q.Rel...)
	sort.Sort(sort.Reverse(sort.Float64Slice(ideal)))
	idcg := 0.0
	for r, g := range ideal {
		if r >= truncate || g <= 0 {
			break
		}
		idcg += g / math.Log2(float64(r)+2)
	}
	if idcg == 0 {
		return
	}
	w := q.Weight
	if w == 0 {
		w = 1
	}
	disc := func(r int) float64 {
		if r >= truncate {
			return 0
		}
		return 1 / math.Log2(float64(r)+2)
	}
	for i := 0; i < n; i++ {
		if q.Rel[i] <= 0 {
			continue
		}
		for j := 0; j < n; j++ {
			if q.Rel[j] >= q.Rel[i] {
				continue
			}
			delta := math.Abs((q.Rel[i]-q.Rel[j])*(disc(rank[i])-disc(rank[j]))) / idcg
			if delta == 0 {
				continue
			}
			rho := 1 / (1 + math.Exp(s[i]-s[j]))
			grad[i] += w * delta * rho
			grad[j] -= w * delta * rho
			h := w * delta * rho * (1 - rho)
			hess[i] += h
			hess[j] += h
		}
	}
}

type grower struct {
	binned  [][]uint8
	cuts    [][]float64
	grad    []float64
	hess    []float64
	minLeaf int
	rate    float64
	bins    int
}

// grow adds the subtree over rows to t, depth levels deep, and returns its
// node index.
func (g *grower) grow(t *Tree, rows []int, depth int) int {
	node := len(t.Feature)
	t.Feature = append(t.Feature, -1)
	t.Threshold = append(t.Threshold, 0)
	t.Left = append(t.Left, -1)
	t.Right = append(t.Right, -1)
	var sg, sh float64
	for _, r := range rows {
		sg += g.grad[r]
		sh += g.hess[r]
	}
	// A Newton step, damped where the second derivative vanishes.
	t.Value = append(t.Value, g.rate*sg/(sh+1e-6))
	if depth == 0 || len(rows) < 2*g.minLeaf {
		return node
	}
	bestGain, bestF, bestBin := 0.0, -1, 0
	n := float64(len(rows))
	base := sg * sg / n
	var hg [256]float64
	var hc [256]int
	for f := range g.binned {
		nb := len(g.cuts[f]) + 1
		if nb < 2 {
			continue
		}
		clear(hg[:nb])
		clear(hc[:nb])
		col := g.binned[f]
		for _, r := range rows {
			b := col[r]
			hg[b] += g.grad[r]
			hc[b]++
		}
		var lg float64
		var lc int
		for b := 0; b < nb-1; b++ {
			lg += hg[b]
			lc += hc[b]
			rc := len(rows) - lc
			if lc < g.minLeaf || rc < g.minLeaf {
				continue
			}
			rg := sg - lg
			// Least squares on the gradients: the split that best
			// separates documents to push up from those to push down.
			gain := lg*lg/float64(lc) + rg*rg/float64(rc) - base
			if gain > bestGain {
				bestGain, bestF, bestBin = gain, f, b
			}
		}
	}
	if bestF < 0 {
		return node
	}
	var left, right []int
	col := g.binned[bestF]
	for _, r := range rows {
		if int(col[r]) <= bestBin {
			left = append(left, r)
		} else {
			right = append(right, r)
		}
	}
	t.Feature[node] = bestF
	t.Threshold[node] = g.cuts[bestF][bestBin]
	l := g.grow(t, left, depth-1)
	r := g.grow(t, right, depth-1)
	t.Left[node], t.Right[node] = l, r
	return node
}
