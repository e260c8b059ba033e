package fit

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync"

	"github.com/scry-dev/scry/internal/ltr"
	"github.com/scry-dev/scry/internal/search"
)

// boostTrees fits regression trees on top of m's linear score. The number
// of trees is chosen on the tune instances of about a quarter of the
// repositories and packages (by a hash of the name) held back from a first
// fit, by the fit objective, stopping after 60 trees without a gain; the
// trees are then refit on every tune instance. Holding back whole
// repositories, not instances, asks what the reported holdout asks: do the
// trees carry over to code they have not seen.
func boostTrees(tune []*fitInstance, m *search.Model, opt Options) ([]ltr.Tree, float64) {
	if opt.Bag {
		return bagTrees(tune, m, opt)
	}
	var fitPart, valPart []*fitInstance
	for _, fi := range tune {
		h := fnv.New32a()
		h.Write([]byte(fi.in.Repo))
		if h.Sum32()%4 == 0 {
			valPart = append(valPart, fi)
		} else {
			fitPart = append(fitPart, fi)
		}
	}
	if opt.Log != nil {
		repos := map[string]bool{}
		for _, fi := range valPart {
			repos[fi.in.Repo] = true
		}
		fmt.Fprintf(opt.Log, "trees: choosing their number on %d instances of %d repositories held back\n", len(valPart), len(repos))
	}
	_, bestN, best := boostStopping(fitPart, valPart, m, opt)
	if bestN == 0 {
		return nil, best
	}
	bopt := ltr.BoostOptions{Trees: bestN, Depth: opt.Depth, MinLeaf: opt.MinLeaf, Rate: opt.Rate}
	return ltr.LambdaMART(rankQueries(tune, m, opt), bopt), best
}

// boostStopping boosts trees on fitPart, measuring the objective on
// valPart every 10 trees and stopping 60 trees after its best; it returns
// the trees up to the best number, that number and the objective there.
func boostStopping(fitPart, valPart []*fitInstance, m *search.Model, opt Options) ([]ltr.Tree, int, float64) {
	bopt := ltr.BoostOptions{Trees: opt.Trees, Depth: opt.Depth, MinLeaf: opt.MinLeaf, Rate: opt.Rate}
	best, bestN := objective(valPart, m, opt), 0
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "trees: validation objective %.4f with none\n", best)
	}
	bopt.After = func(ts []ltr.Tree) bool {
		if opt.Log != nil && len(ts) <= 3 {
			lo, hi := 0.0, 0.0
			for _, v := range ts[len(ts)-1].Value {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			fmt.Fprintf(opt.Log, "trees: tree %d nodes %d leaf values %.4f..%.4f\n", len(ts), len(ts[len(ts)-1].Value), lo, hi)
		}
		if len(ts)%10 != 0 {
			return true
		}
		c := *m
		c.Trees = ts
		o := objective(valPart, &c, opt)
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "trees: validation objective %.4f with %d\n", o, len(ts))
		}
		if o > best+1e-4 {
			best, bestN = o, len(ts)
		}
		return len(ts)-bestN < 60
	}
	ts := ltr.LambdaMART(rankQueries(fitPart, m, opt), bopt)
	return ts[:min(bestN, len(ts))], bestN, best
}

// bagTrees is boostTrees for Options.Bag: the tune repositories and
// packages are dealt into opt.Folds folds (foldsOf); for each fold, trees
// are boosted on the others and stopped at their best on it; the result
// is the mean of these ensembles (each tree's values divided by the
// number of folds, then all concatenated), so no one hold-back choice of
// repositories decides the model. It returns the mean of the folds' best
// objectives.
func bagTrees(tune []*fitInstance, m *search.Model, opt Options) ([]ltr.Tree, float64) {
	folds := max(opt.Folds, 2)
	fold := foldsOf(tune, folds)
	o := opt
	o.Log = nil
	ensembles := make([][]ltr.Tree, folds)
	objectives := make([]float64, folds)
	var wg sync.WaitGroup
	for k := range folds {
		wg.Go(func() {
			valPart, fitPart := foldParts(tune, fold, k)
			ensembles[k], _, objectives[k] = boostStopping(fitPart, valPart, m, o)
		})
	}
	wg.Wait()
	var out []ltr.Tree
	var sum float64
	for k, ts := range ensembles {
		sum += objectives[k]
		for _, t := range ts {
			t.Value = slices.Clone(t.Value)
			for i := range t.Value {
				t.Value[i] /= float64(folds)
			}
			out = append(out, t)
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "trees: bag %d of %d: %d trees, objective %.4f on its fold\n", k+1, folds, len(ts), objectives[k])
		}
	}
	return out, sum / float64(folds)
}

// rankQueries turns instances into LambdaMART's queries: two kinds of
// relevance as in Objective (the first symbol hit, discounted by size, and
// the first file hit, weighing half each), the linear score as the base,
// and weights that make fix commits and JSDoc questions halves.
func rankQueries(set []*fitInstance, m *search.Model, opt Options) []ltr.RankQuery {
	power, without := opt.sizePower(), opt.TreesWithout
	n := kindCounts(set)
	shares := kindShares(n, opt)
	qs := make([]ltr.RankQuery, 0, len(set))
	for _, fi := range set {
		g := fi.kind()
		q := ltr.RankQuery{Weight: shares[g] / float64(n[g]), KindWeights: []float64{0.5, 0.5}}
		if g == kindQuestion {
			// Each target file is a kind of its own, weighing 1/ideal DCG:
			// first-hit DCG over them is the benchmark's NDCG@10.
			ideal := 0.0
			for i := range min(10, len(fi.in.GoldFiles)) {
				ideal += 1 / math.Log2(float64(i)+2)
			}
			q.KindWeights = make([]float64, len(fi.in.GoldFiles))
			for k := range q.KindWeights {
				q.KindWeights[k] = 1 / ideal
			}
		}
		for i := range fi.feats {
			x := fi.feats[i][:]
			if len(without) > 0 {
				x = append([]float64(nil), x...)
				for _, f := range without {
					x[f] = 0
				}
			}
			q.X = append(q.X, x)
			q.Base = append(q.Base, m.Score(&fi.feats[i]))
			file := 0.0
			if fi.fileRel[i] {
				file = 1
			}
			if g == kindQuestion {
				gains := make([]float64, len(fi.in.GoldFiles))
				for k, f := range fi.in.GoldFiles {
					if fi.results[i].Chunk.RelativePath == f {
						gains[k] = 1
					}
				}
				q.Gains = append(q.Gains, gains)
				continue
			}
			q.Gains = append(q.Gains, []float64{fi.symGain(i, power), file})
		}
		qs = append(qs, q)
	}
	return qs
}
