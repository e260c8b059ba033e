package ltr

import (
	"math"
	"sort"
)

// LambdaMART boosts regression trees on LambdaRank gradients (Burges,
// "From RankNet to LambdaRank to LambdaMART: An Overview", 2010): each
// tree moves every document's score in the direction that most raises the
// query's metric, so the ensemble learns what a linear model cannot —
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
//
// The metric is first-hit DCG over kinds of relevance: for each kind k,
// the document of that kind ranked highest contributes
// KindWeights[k] · Gains[d][k] / log2(rank + 1) within the top Truncate,
// and the rest of that kind nothing — an agent stops at the first right
// answer, so a second chunk of the right file earns nothing, and NDCG
// with many relevant documents would push the ranker to fill the top with
// one file.
type RankQuery struct {
	X           [][]float64 // features per document
	Gains       [][]float64 // per document, its gain for each kind (0: not of that kind)
	KindWeights []float64   // per kind
	Base        []float64   // starting score per document; nil means 0
	Weight      float64     // the query's weight in the gradients; 0 means 1
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
	// L2 regularises each leaf's Newton step, value = Σgrad / (Σhess +
	// L2) (XGBoost's lambda): without it a leaf whose documents are
	// already far apart (tiny second derivatives) takes a huge step.
	// 0 means 1; query weights are normalised to a mean of 1 so that it
	// means the same for any number of queries.
	L2 float64
	// Sigma scales score differences in the pairwise probabilities
	// (RankNet's σ). Boosting from a base whose scores lie far apart
	// would otherwise see probabilities of 0 or 1, second derivatives of
	// 0 and Newton steps without bound. 0 means the reciprocal of the
	// median spread (standard deviation) of the base scores within a
	// query, so that a step is measured in the base's own units.
	Sigma float64
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
	if opt.L2 <= 0 {
		opt.L2 = 1
	}
	if opt.Sigma <= 0 {
		opt.Sigma = autoSigma(qs)
	}
	meanWeight := 0.0
	for _, q := range qs {
		w := q.Weight
		if w == 0 {
			w = 1
		}
		meanWeight += w / float64(len(qs))
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
			if q.Weight == 0 {
				q.Weight = 1
			}
			q.Weight /= meanWeight
			lambdas(q, scores[start[qi]:start[qi]+len(q.X)], grad[start[qi]:], hess[start[qi]:], opt.Truncate, opt.Sigma)
		}
		g := &grower{binned: binned, cuts: cuts, grad: grad, hess: hess, minLeaf: opt.MinLeaf, rate: opt.Rate, bins: opt.Bins, l2: opt.L2}
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

// autoSigma is the reciprocal of the median within-query standard
// deviation of the base scores (1 without a base).
func autoSigma(qs []RankQuery) float64 {
	var sds []float64
	for _, q := range qs {
		if len(q.Base) < 2 {
			continue
		}
		mean, sq := 0.0, 0.0
		for _, b := range q.Base {
			mean += b
		}
		mean /= float64(len(q.Base))
		for _, b := range q.Base {
			sq += (b - mean) * (b - mean)
		}
		if sd := math.Sqrt(sq / float64(len(q.Base))); sd > 0 {
			sds = append(sds, sd)
		}
	}
	if len(sds) == 0 {
		return 1
	}
	sort.Float64s(sds)
	return 1 / sds[len(sds)/2]
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
// score, positive) and their second derivatives: for each pair whose swap
// would change the metric, the RankNet gradient scaled by that change.
func lambdas(q RankQuery, s, grad, hess []float64, truncate int, sigma float64) {
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
	disc := func(r int) float64 {
		if r >= truncate {
			return 0
		}
		return 1 / math.Log2(float64(r)+2)
	}
	nk := len(q.KindWeights)
	first, second := make([]int, nk), make([]int, nk)
	ideal := 0.0
	for k := range first {
		first[k], second[k] = -1, -1
		best := 0.0
		for d := 0; d < n; d++ {
			best = max(best, q.Gains[d][k])
		}
		ideal += q.KindWeights[k] * best
	}
	if ideal == 0 {
		return
	}
	var rel []int
	isRel := make([]bool, n)
	for _, d := range order {
		for k := 0; k < nk; k++ {
			if q.Gains[d][k] <= 0 {
				continue
			}
			switch {
			case first[k] < 0:
				first[k] = d
			case second[k] < 0:
				second[k] = d
			}
			if !isRel[d] {
				isRel[d] = true
				rel = append(rel, d)
			}
		}
	}
	w := q.Weight
	if w == 0 {
		w = 1
	}
	// change is the metric's change when the documents at ranks a < b
	// (x above y) trade places.
	change := func(x, y int) float64 {
		a, b := rank[x], rank[y]
		delta := 0.0
		for k := 0; k < nk; k++ {
			xr, yr := q.Gains[x][k] > 0, q.Gains[y][k] > 0
			if !xr && !yr {
				continue
			}
			f := first[k]
			cur := q.Gains[f][k] * disc(rank[f])
			next := cur
			switch {
			case xr && f == x && !yr:
				// The first hit moves down to b, unless the second
				// hit is above b.
				next = q.Gains[x][k] * disc(b)
				if sd := second[k]; sd >= 0 && rank[sd] < b {
					next = q.Gains[sd][k] * disc(rank[sd])
				}
			case xr && f == x && yr:
				next = q.Gains[y][k] * disc(a)
			case yr && !xr && a < rank[f]:
				next = q.Gains[y][k] * disc(a)
			}
			delta += q.KindWeights[k] * (next - cur)
		}
		return delta
	}
	for _, p := range rel {
		for d := 0; d < n; d++ {
			if d == p || isRel[d] && d < p {
				continue // each pair of relevant documents once
			}
			x, y := p, d
			if rank[y] < rank[x] {
				x, y = y, x
			}
			if rank[x] >= truncate {
				continue // both below the cut: nothing changes
			}
			delta := change(x, y)
			if delta == 0 {
				continue
			}
			up, down := y, x // a positive change: y belongs above x
			if delta < 0 {
				up, down = x, y
			}
			m := w * math.Abs(delta) / ideal
			rho := 1 / (1 + math.Exp(sigma*(s[up]-s[down])))
			grad[up] += sigma * m * rho
			grad[down] -= sigma * m * rho
			h := sigma * sigma * m * rho * (1 - rho)
			hess[up] += h
			hess[down] += h
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
	l2      float64
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
	// A regularised Newton step (see BoostOptions.L2).
	t.Value = append(t.Value, g.rate*sg/(sh+g.l2))
	if depth == 0 || len(rows) < 2*g.minLeaf {
		return node
	}
	bestGain, bestF, bestBin := 0.0, -1, 0
	// XGBoost's split gain: how much the regularised Newton steps of the
	// two halves lower the loss beyond the parent's one step.
	base := sg * sg / (sh + g.l2)
	var hg, hh [256]float64
	var hc [256]int
	for f := range g.binned {
		nb := len(g.cuts[f]) + 1
		if nb < 2 {
			continue
		}
		clear(hg[:nb])
		clear(hh[:nb])
		clear(hc[:nb])
		col := g.binned[f]
		for _, r := range rows {
			b := col[r]
			hg[b] += g.grad[r]
			hh[b] += g.hess[r]
			hc[b]++
		}
		var lg, lh float64
		var lc int
		for b := 0; b < nb-1; b++ {
			lg += hg[b]
			lh += hh[b]
			lc += hc[b]
			rc := len(rows) - lc
			if lc < g.minLeaf || rc < g.minLeaf {
				continue
			}
			rg, rh := sg-lg, sh-lh
			gain := lg*lg/(lh+g.l2) + rg*rg/(rh+g.l2) - base
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
