package bench

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/search"
)

// A symbol hit is discounted by the ratio of the gold's lines to the
// result's, raised to the configured power.
func TestSizePowerDiscountsLargeHits(t *testing.T) {
	// The gold symbol has 3 lines, the only result 12: ratio 1/4.
	fi := &fitInstance{
		in: Instance{Repo: "o/r", Split: "tune", GoldFiles: []string{"a.ts"},
			GoldSymbols: []GoldSymbol{{File: "a.ts", StartLine: 5, EndLine: 7}}},
		feats:   []search.Features{{}},
		results: []search.Result{{Chunk: chunk.Chunk{ID: "0", RelativePath: "a.ts", StartLine: 1, EndLine: 12}}},
		mirror:  []string{""},
		symRel:  []bool{true},
		fileRel: []bool{true},
	}
	tests := []struct {
		name  string
		power float64
		want  float64 // objective: (symbol gain + file gain) / 2 at rank 1
	}{
		{"default: square root", 0, (0.5 + 1) / 2},
		{"explicit square root", 0.5, (0.5 + 1) / 2},
		{"linear", 1, (0.25 + 1) / 2},
		{"none", -1, 1},
	}
	for _, tc := range tests {
		got := objective([]*fitInstance{fi}, search.DefaultModel, FitOptions{SizePower: tc.power})
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: objective %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
}

// synthetic builds tune instances of several repositories and JSDoc
// packages whose relevant candidate is the one with the largest first
// feature, blurred by noise, so that trees have something to learn.
func synthetic(repos []string, perRepo, cands int) []*fitInstance {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []*fitInstance
	for _, repo := range repos {
		for q := range perRepo {
			fi := &fitInstance{in: Instance{ID: repo + strconv.Itoa(q), Repo: repo, Split: "tune", GoldFiles: []string{"gold.ts"},
				GoldSymbols: []GoldSymbol{{File: "gold.ts", StartLine: 1, EndLine: 5}}}}
			best := rng.IntN(cands)
			for c := range cands {
				var f search.Features
				for k := range f {
					f[k] = rng.Float64() * 0.5
				}
				file := "other" + strconv.Itoa(c) + ".ts"
				if c == best {
					f[search.FCovAll] += 0.4
					file = "gold.ts"
				}
				fi.feats = append(fi.feats, f)
				fi.results = append(fi.results, search.Result{Chunk: chunk.Chunk{ID: strconv.Itoa(c), RelativePath: file, StartLine: 1, EndLine: 5}})
				fi.mirror = append(fi.mirror, "")
				fi.symRel = append(fi.symRel, c == best)
				fi.fileRel = append(fi.fileRel, c == best)
			}
			out = append(out, fi)
		}
	}
	return out
}

func TestFoldsDealBothKinds(t *testing.T) {
	set := synthetic([]string{"o/d", "o/a", "o/c", "o/b", "jsdoc/y", "jsdoc/x"}, 1, 2)
	got := foldsOf(set, 2)
	want := map[string]int{"o/a": 0, "o/b": 1, "o/c": 0, "o/d": 1, "jsdoc/x": 0, "jsdoc/y": 1}
	for repo, k := range want {
		if got[repo] != k {
			t.Errorf("%s in fold %d, want %d", repo, got[repo], k)
		}
	}
}

// Cross-validation scores every tune instance once, by a model that did
// not see its repository; bagged trees are the mean of the folds' own
// ensembles.
func TestCrossValidationAndBagging(t *testing.T) {
	repos := []string{"o/a", "o/b", "o/c", "o/d", "jsdoc/x", "jsdoc/y"}
	set := synthetic(repos, 12, 10)
	opt := FitOptions{KeepLinear: true, Trees: 30, Depth: 2, MinLeaf: 5, Folds: 2}
	r, err := Fit(set, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.CrossValidated.N != 48 || r.CrossValidatedJSDoc.N != 24 {
		t.Fatalf("cross-validated %d fix commits and %d questions, want 48 and 24", r.CrossValidated.N, r.CrossValidatedJSDoc.N)
	}
	// The synthetic signal is learnable from other repositories: the
	// cross-validated figure beats chance (1 in 10 at rank 1) by far.
	if r.CrossValidated.S1 < 0.3 {
		t.Errorf("cross-validated S@1 %.3f: the folds' models learned nothing", r.CrossValidated.S1)
	}

	// The bag's sum is the mean of the sums of the ensembles boosted
	// without each fold and stopped on it.
	opt.Bag = true
	bagged, _ := boostTrees(set, search.DefaultModel, opt)
	fold := foldsOf(set, 2)
	var folds [2][]float64
	for k := range 2 {
		valPart, fitPart := foldParts(set, fold, k)
		ts, _, _ := boostStopping(fitPart, valPart, search.DefaultModel, opt)
		if len(ts) == 0 {
			t.Fatalf("fold %d grew no tree", k)
		}
		for _, fi := range set[:5] {
			var s float64
			for _, tr := range ts {
				s += tr.Eval(fi.feats[0][:])
			}
			folds[k] = append(folds[k], s)
		}
	}
	for i, fi := range set[:5] {
		var s float64
		for _, tr := range bagged {
			s += tr.Eval(fi.feats[0][:])
		}
		if want := (folds[0][i] + folds[1][i]) / 2; math.Abs(s-want) > 1e-9 {
			t.Errorf("instance %d: bagged trees sum to %.6f, the folds' mean is %.6f", i, s, want)
		}
	}
}

// FitLinear fits the named features' weights and keeps every other one
// (and the file penalty) as the starting model has them.
func TestFitLinearMovesOnlyTheNamedWeights(t *testing.T) {
	set := synthetic([]string{"o/a", "o/b", "jsdoc/x"}, 10, 8)
	start := *search.DefaultModel
	start.Weights = make([]float64, search.NumFeatures)
	start.Weights[search.FBM25] = 0.3
	start.FilePenalty = 0.2
	start.Trees = nil
	m, _ := fitModel(set, &start, FitOptions{KeepLinear: true, FitLinear: []int{search.FCovAll}, Passes: 2})
	for i, w := range m.Weights {
		if i != search.FCovAll && w != start.Weights[i] {
			t.Errorf("weight of %s moved from %v to %v", search.FeatureNames[i], start.Weights[i], w)
		}
	}
	if m.FilePenalty != start.FilePenalty {
		t.Errorf("file penalty moved from %v to %v", start.FilePenalty, m.FilePenalty)
	}
	// The synthetic signal is in FCovAll: its weight must grow.
	if m.Weights[search.FCovAll] <= 0 {
		t.Errorf("weight of cov_all %v: the free feature was not fitted", m.Weights[search.FCovAll])
	}
}

func TestFeatureIndexes(t *testing.T) {
	got, err := FeatureIndexes([]string{"term_freq", "bm25"})
	if err != nil || len(got) != 2 || got[0] != search.FTermFreq || got[1] != search.FBM25 {
		t.Errorf("FeatureIndexes = %v, %v", got, err)
	}
	if _, err := FeatureIndexes([]string{"no_such_feature"}); err == nil {
		t.Error("an unknown feature name was accepted")
	}
}
