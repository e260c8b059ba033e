// Package fit fits the shipped ranker (search.Model: the linear weights,
// the boosted trees and the calibration) to the feature dumps that the
// benchmarks write, and reports how the fitted model scores on the held-out
// questions.
package fit

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/ltr"
	"github.com/scry-dev/scry/internal/search"
)

// Options configure Fit.
type Options struct {
	Start  *search.Model // starting weights; nil: search.DefaultModel
	Params search.Params // selection parameters for the answer figures
	Seed   uint64
	Passes int
	// Ablate refits with each feature group switched off and reports
	// the holdout figures of each.
	Ablate bool
	// FileRelevance calibrates the probability that a result lies in a
	// file the fix changed, instead of overlapping the changed code.
	FileRelevance bool
	// Leads overrides the number of leads of the simulated answers.
	Leads int
	// KeepLinear keeps the starting model's linear weights and penalty
	// instead of refitting them.
	KeepLinear bool
	// FitLinear, with KeepLinear, names the features whose linear weights
	// are fitted all the same, from their starting values, the others
	// kept: a new feature joins a model without refitting the rest.
	FitLinear []int
	// Trees, when positive, boosts up to this many regression trees on top
	// of the linear score (LambdaMART); their number is chosen on a fifth
	// of the tune instances held back, then the trees are refit on all.
	Trees   int
	Depth   int     // levels per tree (ltr default when 0)
	MinLeaf int     // fewest candidates per leaf (ltr default when 0)
	Rate    float64 // shrinkage (ltr default when 0)
	// JSDocShare is the JSDoc questions' share of the objective (0 means
	// DefaultJSDocShare).
	JSDocShare float64
	// QuestionShare is the agent questions' share (0 means
	// DefaultQuestionShare).
	QuestionShare float64
	// TreesWithout names features the trees may not split on (an
	// ablation: the trees see them as 0, a constant no split can use).
	TreesWithout []int
	// SizePower is the power of a symbol hit's size discount in the
	// objective: 0 means DefaultSizePower, a negative value no discount.
	SizePower float64
	// Folds, when above 1, also reports the fit procedure cross-validated
	// on tune: the tune repositories and JSDoc packages are dealt into
	// this many folds, and each fold is scored by a model fitted without
	// it (Report.CrossValidated), a tune-side figure for choosing
	// between fit settings that is not the fitted data's own.
	Folds int
	// KeepRanking keeps the starting model's weights, penalty and trees:
	// only the margin and the calibration are fitted.
	KeepRanking bool
	// LeaveOneOut reports the agent questions of each repository scored by
	// a model fitted (as Fit fits, calibration included) without that
	// repository's questions and fix commits.
	LeaveOneOut bool
	// Bag fits the trees as the mean of Folds ensembles, each boosted
	// without one fold and stopped at its best on it (bagTrees), instead
	// of one ensemble whose number is chosen on a fixed quarter.
	Bag bool
	Log io.Writer
}

// DefaultSizePower is the power of the size discount of a symbol hit (see
// Objective): the square root.
const DefaultSizePower = 0.5

func (o Options) sizePower() float64 {
	switch {
	case o.SizePower == 0:
		return DefaultSizePower
	case o.SizePower < 0:
		return 0
	}
	return o.SizePower
}

func (o Options) questionShare() float64 {
	if o.QuestionShare <= 0 {
		return DefaultQuestionShare
	}
	return o.QuestionShare
}

func (o Options) share() float64 {
	if o.JSDocShare <= 0 {
		return DefaultJSDocShare
	}
	return o.JSDocShare
}

// AblationGroups are switched off together: features that carry one idea.
// Every feature belongs to exactly one group (TestAblationGroupsCoverEveryFeature),
// so the ablation table accounts for the whole ranker.
var AblationGroups = []struct {
	Name     string
	Features []int
}{
	{"first-stage score and rank", []int{search.FBM25, search.FBM25Rank}},
	{"IDF-weighted coverage (text, name, header, parents)", []int{search.FCovAll, search.FCovName, search.FCovHeader, search.FCovParent}},
	{"path and file-name matches", []int{search.FCovPath, search.FCovBase, search.FBaseIdent, search.FStemName}},
	{"identifiers the query writes (definitions, parents)", []int{search.FDefines, search.FDefinesCode, search.FParentNamed}},
	{"file coherence (file-level scores)", []int{search.FFileCov, search.FFileBest, search.FFileCount, search.FFileSum}},
	{"symbols of top files (expansion flag)", []int{search.FExpanded}},
	{"tests, auxiliary code, declarations", []int{search.FTest, search.FAux, search.FDecl}},
	{"kinds (imports, comments, statements, callbacks …)", []int{search.FNonCode, search.FStatement, search.FCallable, search.FTypeDecl, search.FContainer, search.FCallback}},
	{"size, export, depth", []int{search.FLines, search.FExported, search.FDepth}},
	{"name rarity (index-time usage prior)", []int{search.FRare}},
	{"semantic similarity (built-in model)", []int{search.FSemantic, search.FSemanticRel, search.FFileSemantic}},
	{"term frequency (not divided by length)", []int{search.FTermFreq}},
	{"the question's words in code, not in strings", []int{search.FCovCode, search.FCovString}},
	{"called by the strongest candidates (callee marks)", []int{search.FCallee, search.FFileCallee}},
	{"a question's candidates that call other strong ones (hubs)", []int{search.FHub}},
	{"strong files beside the chunk's in its directory (peers)", []int{search.FDirPeers}},
	{"files that import the chunk's file or that it imports, among the strongest (links)", []int{search.FImportLinks}},
	{"the whole query names the chunk", []int{search.FWholeName}},
	{"types files and type questions", []int{search.FTypesFile, search.FQueryTypes}},
	{"query descriptors (length, prose, code)", []int{search.FQueryTerms, search.FQueryProse, search.FQueryCode}},
	{"file diversity penalty", []int{search.NumFeatures}},
}

func paramsOf(m *search.Model) []float64 {
	return append(append([]float64(nil), m.Weights...), m.FilePenalty)
}

func withParams(m *search.Model, x []float64) *search.Model {
	c := *m
	c.Weights = append([]float64(nil), x[:search.NumFeatures]...)
	c.FilePenalty = math.Max(0, x[search.NumFeatures])
	return &c
}

func split(set []*fitInstance, name string) []*fitInstance {
	var out []*fitInstance
	for _, fi := range set {
		if fi.in.Split == name {
			out = append(out, fi)
		}
	}
	return out
}

// byKind keeps the JSDoc questions (jsdoc) or the fix commits (!jsdoc).
func byKind(set []*fitInstance, jsdoc bool) []*fitInstance {
	var out []*fitInstance
	for _, fi := range set {
		if fi.isJSDoc() == jsdoc {
			out = append(out, fi)
		}
	}
	return out
}

func scoresOf(set []*fitInstance, m *search.Model) bench.LocMetrics {
	sc := make([]bench.LocScore, len(set))
	for i, fi := range set {
		sc[i] = fi.score(m)
	}
	return bench.SummarizeLoc(sc)
}

func fitWeights(tune []*fitInstance, start *search.Model, fixed map[int]bool, opt Options) *search.Model {
	x0 := paramsOf(start)
	for i := range fixed {
		x0[i] = 0
	}
	obj := func(x []float64) float64 { return objective(tune, withParams(start, x), opt) }
	x, _ := ltr.CoordinateAscent(x0, obj, ltr.AscentOptions{
		Seed: opt.Seed, Passes: opt.Passes, Fixed: fixed, Tolerance: 1e-4,
		Log: func(r, p int, o float64) {
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "  restart %d pass %d: objective %.4f\n", r, p, o)
			}
		},
	})
	return withParams(start, x)
}

// fitSomeWeights fits the linear weights of the free features only, from
// their values in start; every other weight and the file penalty are kept.
func fitSomeWeights(tune []*fitInstance, start *search.Model, free []int, opt Options) *search.Model {
	fixed := map[int]bool{}
	for i := 0; i <= search.NumFeatures; i++ {
		fixed[i] = true
	}
	for _, f := range free {
		delete(fixed, f)
	}
	obj := func(x []float64) float64 { return objective(tune, withParams(start, x), opt) }
	x, _ := ltr.CoordinateAscent(paramsOf(start), obj, ltr.AscentOptions{Seed: opt.Seed, Passes: opt.Passes, Fixed: fixed, Tolerance: 1e-4})
	return withParams(start, x)
}

// calibrate fits P(relevant | score) on the top LocDepth candidates of
// every instance given, relevant meaning the candidate lies in a file that
// answers it (fileLevel; a gold or labelled file) or overlaps a gold
// symbol. Each kind of instance weighs its share of the objective, so the
// probability means the same for a bare name, a question and a fix.
func calibrate(tune []*fitInstance, m *search.Model, fileLevel bool, opt Options) []float64 {
	var xs [][]float64
	var y []bool
	var weights []float64
	n := kindCounts(tune)
	shares := kindShares(n, opt)
	for _, fi := range tune {
		order := fi.ranked(m, bench.LocDepth)
		scores := scoresOfOrder(order)
		w := shares[fi.kind()] / float64(n[fi.kind()]) * float64(len(tune))
		for k, o := range order {
			in := search.CalibrationInputs(scores, k, &fi.feats[o.Index], m.LoneMargin)
			xs = append(xs, in[:])
			y = append(y, fi.relevant(o.Index, fileLevel))
			weights = append(weights, w)
		}
	}
	w, b := ltr.LogisticNWeighted(xs, y, weights)
	return append(w, b)
}

// medianMargin is the median lead of the best candidate over the second
// on the tune queries that have two.
func medianMargin(tune []*fitInstance, m *search.Model) float64 {
	var ms []float64
	for _, fi := range tune {
		if order := fi.ranked(m, 2); len(order) == 2 {
			ms = append(ms, order[0].Score-order[1].Score)
		}
	}
	if len(ms) == 0 {
		return 0
	}
	sort.Float64s(ms)
	return ms[len(ms)/2]
}

func scoresOfOrder(order []search.Ranked) []float64 {
	s := make([]float64, len(order))
	for i, o := range order {
		s[i] = o.Score
	}
	return s
}

// Fit learns the ranker's weights and calibration on the dump's tune
// instances and reports them on its holdout instances.
func Fit(set []*fitInstance, opt Options) (*Report, error) {
	tune, hold, questions := split(set, "tune"), split(set, "holdout"), split(set, bench.QuestionSplit)
	if len(tune) == 0 {
		return nil, fmt.Errorf("bench: fit: the dump has no tune instances")
	}
	// The weights, trees and calibration are fitted on every tune
	// instance — fix commits, JSDoc questions and agent questions alike,
	// each kind weighing its share — so that one probability means
	// "relevant to the question" whatever kind of question it is. The
	// agent questions are all fitted on; their figures are reported left
	// out one repository at a time (Options.LeaveOneOut).
	locTune, jsTune, jsHold := byKind(tune, false), byKind(tune, true), split(set, bench.JSDocHoldout)
	tune = append(tune, questions...)
	if len(locTune) == 0 {
		return nil, fmt.Errorf("bench: fit: the dumps have no tune fix commits")
	}
	start := opt.Start
	if start == nil {
		start = search.DefaultModel
	}
	if opt.Params == (search.Params{}) {
		opt.Params = search.DefaultParams()
	}
	if opt.Leads > 0 {
		opt.Params.Leads = opt.Leads
	}
	r := &Report{TuneN: len(locTune), HoldoutN: len(hold), JSDocTuneN: len(jsTune), JSDocHoldoutN: len(jsHold)}
	r.StartTune, r.StartHoldout = scoresOf(locTune, start), scoresOf(hold, start)
	r.StartJSDocTune, r.StartJSDocHoldout = scoresOf(jsTune, start), scoresOf(jsHold, start)
	if len(questions) > 0 {
		r.QuestionsStart = questionFigures(questions, func(string) *search.Model { return start }, opt.Params)
	}
	m, heldBack := fitModel(tune, start, opt)
	r.HeldBack = heldBack
	m.LoneMargin = round4(medianMargin(tune, m))
	m.Calibration = calibrate(tune, m, opt.FileRelevance, opt)
	// Rounded before anything is measured, so the figures are those of the
	// model as written to model.json.
	for i := range m.Weights {
		m.Weights[i] = round4(m.Weights[i])
	}
	m.FilePenalty = round4(m.FilePenalty)
	for _, t := range m.Trees {
		for i := range t.Value {
			t.Value[i] = round6(t.Value[i])
		}
	}
	for i := range m.Calibration {
		m.Calibration[i] = round4(m.Calibration[i])
	}
	m.Relevance = "the result overlaps the code that answers the question (gold symbols of fix commits and JSDoc questions, files of agent questions)"
	if opt.FileRelevance {
		m.Relevance = "the result lies in a file that answers the question (files a fix changed, the documented function's file, the files labelled relevant or secondary for an agent question)"
	}
	r.Model = *m
	r.Tune, r.Holdout = scoresOf(locTune, m), scoresOf(hold, m)
	r.JSDocTune, r.JSDocHoldout = scoresOf(jsTune, m), scoresOf(jsHold, m)
	answers := func(set []*fitInstance) bench.AnswerMetrics {
		as := make([]bench.LocAnswer, len(set))
		for i, fi := range set {
			as[i] = fi.answer(m, opt.Params)
		}
		return bench.SummarizeAnswers(as)
	}
	r.TuneAnswer, r.HoldoutAnswer = answers(locTune), answers(hold)
	if len(questions) > 0 && opt.LeaveOneOut {
		models := leaveOneOut(tune, questions, start, opt)
		byRepo := func(repo string) *search.Model { return models[repo] }
		r.QuestionsLOO = questionFigures(questions, byRepo, opt.Params)
		r.Gates = gateTable(locTune, hold, questions, m, byRepo, opt.Params)
	}
	r.Reliability, r.HoldoutLogLoss = reliability(hold, m, opt.FileRelevance)
	if opt.Folds > 1 {
		r.Folds = opt.Folds
		r.CrossValidated, r.CrossValidatedJSDoc = crossValidate(tune, start, opt)
	}
	if opt.Ablate {
		r.AblationKeptLinear = opt.KeepLinear && opt.Trees > 0
		r.Ablations = ablate(byKind(split(set, "tune"), false), byKind(split(set, "tune"), true), hold, jsHold, questions, m, opt)
	}
	return r, nil
}

// crossValidate deals the tune repositories and JSDoc packages into
// opt.Folds folds (each kind in name order, round robin, so every fold has
// both kinds), fits a model on the other folds as Fit does (linear weights
// unless kept, then trees) and scores the fold with it. The folds run side
// by side; each fit is deterministic, so the figures are too.
func crossValidate(tune []*fitInstance, start *search.Model, opt Options) (loc, jsdoc bench.LocMetrics) {
	fold := foldsOf(tune, opt.Folds)
	o := opt
	o.Log = nil
	scores := make([][]bench.LocScore, opt.Folds)
	jsScores := make([][]bench.LocScore, opt.Folds)
	var wg sync.WaitGroup
	for k := range opt.Folds {
		wg.Go(func() {
			test, train := foldParts(tune, fold, k)
			m, _ := fitModel(train, start, o)
			for _, fi := range test {
				if fi.isJSDoc() {
					jsScores[k] = append(jsScores[k], fi.score(m))
				} else {
					scores[k] = append(scores[k], fi.score(m))
				}
			}
		})
	}
	wg.Wait()
	return bench.SummarizeLoc(slices.Concat(scores...)), bench.SummarizeLoc(slices.Concat(jsScores...))
}

// fitModel is Fit's model before calibration: the linear weights fitted
// from start (or kept), then the trees, with the held-back objective that
// chose them (NaN without trees).
func fitModel(tune []*fitInstance, start *search.Model, opt Options) (*search.Model, float64) {
	var m *search.Model
	switch {
	case opt.KeepRanking:
		// Only the calibration is fitted (by the caller).
		c := *start
		return &c, math.NaN()
	case !opt.KeepLinear:
		m = fitWeights(tune, start, nil, opt)
	case len(opt.FitLinear) > 0:
		m = fitSomeWeights(tune, start, opt.FitLinear, opt)
	default:
		c := *start
		m = &c
	}
	m.Trees = nil
	heldBack := math.NaN()
	if opt.Trees > 0 {
		m.Trees, heldBack = boostTrees(tune, m, opt)
	}
	return m, heldBack
}

// foldParts splits set into fold k (in) and the other folds (out).
func foldParts(set []*fitInstance, fold map[string]int, k int) (in, out []*fitInstance) {
	for _, fi := range set {
		if fold[fi.in.Repo] == k {
			in = append(in, fi)
		} else {
			out = append(out, fi)
		}
	}
	return in, out
}

// foldsOf assigns each repository (and JSDoc package) of set to a fold.
func foldsOf(set []*fitInstance, folds int) map[string]int {
	// A repository's fix commits and agent questions are one name, so
	// they always fall in one fold: a fold asks about code the fit has not
	// seen.
	var names [2][]string
	seen := map[string]bool{}
	for _, fi := range set {
		if !seen[fi.in.Repo] {
			seen[fi.in.Repo] = true
			g := 0
			if fi.isJSDoc() {
				g = 1
			}
			names[g] = append(names[g], fi.in.Repo)
		}
	}
	out := map[string]int{}
	for _, ns := range names {
		sort.Strings(ns)
		for i, n := range ns {
			out[n] = i % folds
		}
	}
	return out
}

// ablate refits the model with nothing off, then with each feature group
// off in turn (ablationGroups), and scores every refit. The refits are
// fitted on the fix commits and JSDoc questions of tune alone: the agent
// questions are left out of all of them whole, so their NDCG@10 is held
// out as the holdout's figures are, and the first row (nothing off, the
// same refit) is what each group's row compares with. Two refits run side
// by side; each is deterministic, so the table is too.
func ablate(locTune, jsTune, hold, jsHold, questions []*fitInstance, m *search.Model, opt Options) []Ablation {
	tune := append(append([]*fitInstance(nil), locTune...), jsTune...)
	groups := append([]struct {
		Name     string
		Features []int
	}{{"nothing (the same refit)", nil}}, AblationGroups...)
	o := opt
	o.Log = nil
	out := make([]Ablation, len(groups))
	twoAtATime(len(groups), func(k int) {
		g := groups[k]
		var am *search.Model
		heldBack := math.NaN()
		if opt.KeepLinear && opt.Trees > 0 {
			am, heldBack = ablateTrees(tune, m, g.Features, o)
		} else {
			fixed := map[int]bool{}
			for _, f := range g.Features {
				fixed[f] = true
			}
			am = fitWeights(tune, m, fixed, o)
		}
		a := Ablation{Off: g.Name, HeldBack: heldBack, Tune: scoresOf(locTune, am),
			Holdout: scoresOf(hold, am), JSDocHoldout: scoresOf(jsHold, am)}
		if len(questions) > 0 {
			a.Questions = questionNDCG(questions, am)
		}
		out[k] = a
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "ablation: %s off done\n", g.Name)
		}
	})
	return out
}

// twoAtATime runs job(i) for each i in [0,n), two at a time: the fits
// are CPU-bound, and each is deterministic, so the order they finish in
// changes nothing.
func twoAtATime(n int, job func(i int)) {
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			job(i)
		})
	}
	wg.Wait()
}

// questionNDCG is the agent questions' NDCG@10 under one model: the mean
// of the repositories' means ("overall"), and each category's mean.
func questionNDCG(questions []*fitInstance, m *search.Model) map[string]float64 {
	rs := make([]bench.QuestionResult, len(questions))
	for i, fi := range questions {
		rs[i] = bench.QuestionResult{ID: fi.in.ID, Repo: fi.in.Repo, Category: fi.in.Category,
			NDCG: map[string]float64{bench.QScry: fi.ndcg(m)}}
	}
	qr := bench.NewQuestionReport(rs)
	out := map[string]float64{"overall": qr.Overall[bench.QScry]}
	for c, v := range qr.Categories {
		out[c] = v[bench.QScry]
	}
	return out
}

// ablateTrees is the ablation of a model whose linear weights are kept:
// the group's linear weights (or the file penalty) are zeroed, the others
// kept, and the trees are refit without the group's features. It also
// returns the held-back objective that chose the trees' number, the tune
// side's criterion, comparable with the full model's.
func ablateTrees(tune []*fitInstance, m *search.Model, group []int, opt Options) (*search.Model, float64) {
	c := *m
	c.Weights = append([]float64(nil), m.Weights...)
	o := opt
	o.TreesWithout = append([]int(nil), opt.TreesWithout...)
	for _, f := range group {
		if f == search.NumFeatures {
			c.FilePenalty = 0
			continue
		}
		c.Weights[f] = 0
		o.TreesWithout = append(o.TreesWithout, f)
	}
	c.Trees = nil
	o.Log = nil
	var heldBack float64
	c.Trees, heldBack = boostTrees(tune, &c, o)
	return &c, heldBack
}

// FeatureIndexes maps feature names (model.json's) to their indexes.
func FeatureIndexes(names []string) ([]int, error) {
	var out []int
	for _, n := range names {
		i := slices.Index(search.FeatureNames[:], n)
		if i < 0 {
			return nil, fmt.Errorf("bench fit: no feature is named %q", n)
		}
		out = append(out, i)
	}
	return out, nil
}
