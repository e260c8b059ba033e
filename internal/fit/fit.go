// Package fit fits the shipped ranker (search.Model: the linear weights,
// the boosted trees and the calibration) to the feature dumps that the
// benchmarks write, and reports how the fitted model scores on the held-out
// questions.
package fit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/ltr"
	"github.com/scry-dev/scry/internal/search"
)

// fitInstance is one dumped instance, ready to be ranked by any model.
type fitInstance struct {
	in      bench.Instance
	feats   []search.Features
	results []search.Result // chunk ranges (ID = candidate index), tokens
	mirror  []string
	symRel  []bool // candidate overlaps a gold symbol
	fileRel []bool // candidate is in a gold file
}

// isJSDoc says whether an instance is a JSDoc question rather than a fix
// commit.
func (fi *fitInstance) isJSDoc() bool { return strings.HasPrefix(fi.in.Repo, "jsdoc/") }

// LoadDumps reads and concatenates feature dumps.
func LoadDumps(paths []string) ([]*fitInstance, error) {
	var out []*fitInstance
	for _, p := range paths {
		set, err := LoadDump(p)
		if err != nil {
			return nil, err
		}
		out = append(out, set...)
	}
	return out, nil
}

// LoadDump reads a feature dump written by `scry bench localize --dump` or
// `scry bench quality --dump`.
func LoadDump(path string) ([]*fitInstance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("fit: dump: %w", err)
	}
	defer f.Close()
	var out []*fitInstance
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for line := 1; sc.Scan(); line++ {
		var d bench.DumpInstance
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("fit: dump %s:%d: %w", path, line, err)
		}
		fi := &fitInstance{in: d.Instance}
		qf := search.QueryFeatures(d.Query)
		for i, c := range d.Candidates {
			var fv search.Features
			switch len(c.Features) {
			case search.NumFeatures:
				copy(fv[:], c.Features)
			case search.FQueryTerms:
				// A dump from before the query descriptors: they depend on
				// the query's text alone, so they are computed here.
				copy(fv[:], c.Features)
				copy(fv[search.FQueryTerms:], qf[:])
			default:
				return nil, fmt.Errorf("fit: dump %s:%d: %d features, scry computes %d: dump again", path, line, len(c.Features), search.NumFeatures)
			}
			fi.feats = append(fi.feats, fv)
			fi.results = append(fi.results, search.Result{
				Chunk: chunk.Chunk{ID: fmt.Sprint(i), RelativePath: c.File, StartLine: c.StartLine, EndLine: c.EndLine,
					Depth: int(math.Round(fv[search.FDepth] * 3))},
				Tokens: c.Tokens,
			})
			fi.mirror = append(fi.mirror, c.Mirror)
			sc := bench.ScoreList(&fi.in, []bench.LocSpan{{File: c.File, StartLine: c.StartLine, EndLine: c.EndLine}})
			symHit := sc.SymbolRank == 1
			if fi.isJSDoc() {
				// The quality benchmark's rule: the answer itself, or a
				// chunk of the same name inside it or around it — not any
				// class that contains the answering method.
				g := fi.in.GoldSymbols[0]
				symHit = bench.SymbolHit(bench.Span{File: c.File, StartLine: c.StartLine, EndLine: c.EndLine, Name: c.Name},
					bench.Span{File: g.File, StartLine: g.StartLine, EndLine: g.EndLine, Name: g.Name})
			}
			if fi.in.IsQuestion() {
				// A question is labelled with files only.
				symHit = sc.FileRank == 1
			}
			fi.symRel = append(fi.symRel, symHit)
			fi.fileRel = append(fi.fileRel, sc.FileRank == 1)
		}
		out = append(out, fi)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("fit: dump: %w", err)
	}
	return out, nil
}

func (fi *fitInstance) keyOf(i int) (string, string) {
	return fi.results[i].Chunk.RelativePath, fi.mirror[i]
}

// ranked orders the instance's candidates by a model, top k.
func (fi *fitInstance) ranked(m *search.Model, k int) []search.Ranked {
	return m.OrderTop(fi.feats, fi.keyOf, k)
}

func (fi *fitInstance) score(m *search.Model) bench.LocScore {
	order := fi.ranked(m, bench.LocDepth)
	spans := make([]bench.LocSpan, len(order))
	for i, o := range order {
		c := fi.results[o.Index].Chunk
		spans[i] = bench.LocSpan{File: c.RelativePath, StartLine: c.StartLine, EndLine: c.EndLine}
	}
	sc := bench.ScoreList(&fi.in, spans)
	if fi.isJSDoc() {
		sc.SymbolRank = 0
		for i, o := range order {
			if fi.symRel[o.Index] {
				sc.SymbolRank = i + 1
				break
			}
		}
	}
	return sc
}

// answer simulates the default answer with the pipeline's own selection.
func (fi *fitInstance) answer(m *search.Model, prm search.Params) bench.LocAnswer {
	results, leads := fi.selectAnswer(m, prm)
	return bench.AnswerOf(&fi.in, results, leads)
}

// selectAnswer ranks and calibrates the candidates by a model and selects
// the default answer from them as the pipeline does.
func (fi *fitInstance) selectAnswer(m *search.Model, prm search.Params) ([]search.Result, []search.Lead) {
	order := fi.ranked(m, len(fi.feats))
	scores := scoresOfOrder(order)
	probs := m.RankedProbabilities(scores, func(k int) *search.Features { return &fi.feats[order[k].Index] })
	rs := make([]search.Result, len(order))
	for i, o := range order {
		r := fi.results[o.Index]
		r.Rerank = o.Score
		r.Score = probs[i]
		rs[i] = r
	}
	return search.SelectAnswer(rs, prm)
}

// dcg is the gain of a hit at 1-based rank r: 1/log2(r+1) within the top
// 10, else 0.
func dcg(r int) float64 {
	if r <= 0 || r > 10 {
		return 0
	}
	return 1 / math.Log2(float64(r)+1)
}

// Objective is what the fit maximises on the tune split: the mean of the
// symbol and the file NDCG@10 (one relevant item each), so the ranker is
// rewarded for the right function and, failing that, the right file. A
// symbol hit is discounted by how much larger the result is than the code
// it hits (the square root of the ratio of their line counts, at most 1):
// the scorer counts a whole class as a hit on any of its methods, and an
// agent pays for every line it is shown.
func Objective(set []*fitInstance, m *search.Model) float64 {
	return objective(set, m, Options{})
}

// DefaultJSDocShare is the JSDoc questions' share of the objective when
// both kinds are present.
const DefaultJSDocShare = 0.5

// DefaultQuestionShare is the agent questions' share of the objective when
// they are present; the fix commits and JSDoc questions share the rest.
const DefaultQuestionShare = 0.4

// The kinds of instance the fit serves.
const (
	kindFix = iota
	kindJSDoc
	kindQuestion
	numKinds
)

func (fi *fitInstance) kind() int {
	switch {
	case fi.in.IsQuestion():
		return kindQuestion
	case fi.isJSDoc():
		return kindJSDoc
	}
	return kindFix
}

// kindShares are the kinds' shares of the objective: the questions
// weighing their share, the rest divided between fix commits and JSDoc
// questions as the JSDoc share says, renormalised over the kinds present,
// whatever their numbers: one ranker serves every kind.
func kindShares(n [numKinds]int, opt Options) [numKinds]float64 {
	q, js := opt.questionShare(), opt.share()
	w := [numKinds]float64{(1 - js) * (1 - q), js * (1 - q), q}
	total := 0.0
	for k := range w {
		if n[k] == 0 {
			w[k] = 0
		}
		total += w[k]
	}
	for k := range w {
		if total > 0 {
			w[k] /= total
		}
	}
	return w
}

func kindCounts(set []*fitInstance) [numKinds]int {
	var n [numKinds]int
	for _, fi := range set {
		n[fi.kind()]++
	}
	return n
}

// objective is Objective over every kind of instance, each weighing its
// share (kindShares). A fix commit or JSDoc question gains the mean of its
// symbol and file NDCG@10; an agent question its files' NDCG@10, as the
// questions benchmark scores it.
func objective(set []*fitInstance, m *search.Model, opt Options) float64 {
	power := opt.sizePower()
	if len(set) == 0 {
		return 0
	}
	var sum [numKinds]float64
	n := kindCounts(set)
	for _, fi := range set {
		k := fi.kind()
		if k == kindQuestion {
			sum[k] += fi.ndcg(m)
			continue
		}
		sym, file := fi.gains(m, power)
		sum[k] += 0.5*sym + 0.5*file
	}
	w := kindShares(n, opt)
	out := 0.0
	for k := range sum {
		if n[k] > 0 {
			out += w[k] * sum[k] / float64(n[k])
		}
	}
	return out
}

// ndcg is an agent question's NDCG@10 under a model.
func (fi *fitInstance) ndcg(m *search.Model) float64 {
	order := fi.ranked(m, 10)
	files := make([]string, len(order))
	for i, o := range order {
		files[i] = fi.results[o.Index].Chunk.RelativePath
	}
	return bench.NDCG10(fi.in.GoldFiles, files)
}

// gains are an instance's symbol gain (discounted by size to the given
// power, see Objective) and file gain under a model.
func (fi *fitInstance) gains(m *search.Model, power float64) (sym, file float64) {
	symDone, fileDone := false, false
	for i, o := range fi.ranked(m, 10) {
		if !fileDone && fi.fileRel[o.Index] {
			file, fileDone = dcg(i+1), true
		}
		if g := fi.symGain(o.Index, power); !symDone && g > 0 {
			sym, symDone = dcg(i+1)*g, true
		}
		if symDone && fileDone {
			break
		}
	}
	return sym, file
}

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

// Ablation is one refit with a feature group switched off.
type Ablation struct {
	Off string `json:"off"`
	// HeldBack is the objective on the held-back tune repositories that
	// chose the trees (NaN for a linear ablation), and Tune the fix
	// commits of the tune split: the figures a choice may rest on.
	HeldBack     float64          `json:"held_back"`
	Tune         bench.LocMetrics `json:"tune"`
	Holdout      bench.LocMetrics `json:"holdout"`
	JSDocHoldout bench.LocMetrics `json:"jsdoc_holdout"`
}

// Report is what Fit found.
type Report struct {
	Model                   search.Model     `json:"model"`
	TuneN, HoldoutN         int              `json:"-"`
	Tune, Holdout           bench.LocMetrics `json:"-"`
	StartTune, StartHoldout bench.LocMetrics `json:"-"`
	// JSDoc questions (present when a quality dump was given): the tune
	// set's, fitted on, and the benchmark's own, only reported.
	JSDocTuneN, JSDocHoldoutN         int                 `json:"-"`
	JSDocTune, JSDocHoldout           bench.LocMetrics    `json:"-"`
	StartJSDocTune, StartJSDocHoldout bench.LocMetrics    `json:"-"`
	TuneAnswer, HoldoutAnswer         bench.AnswerMetrics `json:"-"`
	Ablations                         []Ablation          `json:"-"`
	// HeldBack is the objective on the held-back tune repositories that
	// chose the number of trees (NaN without trees).
	HeldBack           float64 `json:"-"`
	AblationKeptLinear bool    `json:"-"` // the ablations kept the linear weights and refit the trees
	// Folds and the cross-validated tune figures (see Options.Folds):
	// fix commits and JSDoc questions, each scored by a model fitted
	// without its fold.
	Folds                               int              `json:"-"`
	CrossValidated, CrossValidatedJSDoc bench.LocMetrics `json:"-"`
	Reliability                         []Bin            `json:"-"`
	HoldoutLogLoss                      float64          `json:"-"`
	// Agent questions: with the starting model, and each repository's
	// scored by a model fitted and calibrated without that repository
	// (its fix commits and questions both left out).
	QuestionsStart, QuestionsLOO *bench.QuestionReport `json:"-"`
	// Gates are the default answers under other coverage settings.
	Gates []Gate `json:"-"`
}

// Gate is what default answers hold under one answerCoverage and floor:
// fix commits of tune and holdout (the fitted model) and agent questions
// (each repository's left-out model).
type Gate struct {
	Coverage, Floor     float64
	FixTune, FixHoldout bench.AnswerMetrics
	Questions           bench.QuestionAnswerMetrics
}

// gateTable simulates the default answers over a grid of coverage
// settings, the threshold and budget as given.
func gateTable(locTune, hold, questions []*fitInstance, m *search.Model, byRepo func(string) *search.Model, prm search.Params) []Gate {
	var out []Gate
	for _, cov := range []float64{0, 0.5, 0.7, 0.8, 0.9, 0.95} {
		for _, floor := range []float64{0.02, 0.05, 0.1, 0.2} {
			if cov == 0 && floor != 0.05 {
				continue
			}
			p := prm
			p.Coverage, p.Floor = cov, floor
			fix := func(set []*fitInstance) bench.AnswerMetrics {
				as := make([]bench.LocAnswer, len(set))
				for i, fi := range set {
					as[i] = fi.answer(m, p)
				}
				return bench.SummarizeAnswers(as)
			}
			q := questionFigures(questions, byRepo, p)
			out = append(out, Gate{Coverage: cov, Floor: floor, FixTune: fix(locTune), FixHoldout: fix(hold), Questions: q.Answer})
		}
	}
	return out
}

// Bin is one bucket of a reliability table: predicted against observed.
type Bin struct {
	Lo, Hi    float64
	N         int
	Predicted float64
	Observed  float64
}

// AblationGroups are switched off together: features that carry one idea.
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
	{"kinds (imports, comments, statements …)", []int{search.FNonCode, search.FStatement, search.FCallable, search.FTypeDecl, search.FContainer}},
	{"size, export, depth", []int{search.FLines, search.FExported, search.FDepth}},
	{"name rarity (index-time usage prior)", []int{search.FRare}},
	{"semantic similarity (built-in model)", []int{search.FSemantic, search.FSemanticRel, search.FFileSemantic}},
	{"term frequency (not divided by length)", []int{search.FTermFreq}},
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

func (fi *fitInstance) relevant(i int, fileLevel bool) bool {
	if fileLevel {
		return fi.fileRel[i]
	}
	return fi.symRel[i]
}

func reliability(set []*fitInstance, m *search.Model, fileLevel bool) ([]Bin, float64) {
	bins := make([]Bin, 10)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = float64(i)/10, float64(i+1)/10
	}
	var probs []float64
	var labels []bool
	for _, fi := range set {
		order := fi.ranked(m, bench.LocDepth)
		scores := scoresOfOrder(order)
		for k, o := range order {
			p := m.Probability(scores, k, &fi.feats[o.Index])
			k := min(int(p*10), 9)
			bins[k].N++
			bins[k].Predicted += p
			rel := fi.relevant(o.Index, fileLevel)
			if rel {
				bins[k].Observed++
			}
			probs = append(probs, p)
			labels = append(labels, rel)
		}
	}
	for i := range bins {
		if bins[i].N > 0 {
			bins[i].Predicted /= float64(bins[i].N)
			bins[i].Observed /= float64(bins[i].N)
		}
	}
	return bins, ltr.LogLoss(probs, labels)
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
		for _, g := range AblationGroups {
			fixed := map[int]bool{}
			for _, f := range g.Features {
				fixed[f] = true
			}
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "ablation: %s off\n", g.Name)
			}
			var am *search.Model
			heldBack := math.NaN()
			if opt.KeepLinear && opt.Trees > 0 {
				am, heldBack = ablateTrees(tune, m, g.Features, opt)
			} else {
				am = fitWeights(tune, m, fixed, opt)
			}
			r.Ablations = append(r.Ablations, Ablation{Off: g.Name, HeldBack: heldBack, Tune: scoresOf(locTune, am),
				Holdout: scoresOf(hold, am), JSDocHoldout: scoresOf(jsHold, am)})
		}
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

// leaveOneOut fits, for each repository of the agent questions, a model
// (weights or trees as Fit fits them, margin and calibration) on the tune
// instances of every other repository and package. Two fits run side by
// side; each is deterministic, so the figures are too.
func leaveOneOut(tune, questions []*fitInstance, start *search.Model, opt Options) map[string]*search.Model {
	var repos []string
	seen := map[string]bool{}
	for _, fi := range questions {
		if !seen[fi.in.Repo] {
			seen[fi.in.Repo] = true
			repos = append(repos, fi.in.Repo)
		}
	}
	o := opt
	o.Log = nil
	models := make([]*search.Model, len(repos))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, repo := range repos {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var train []*fitInstance
			for _, fi := range tune {
				if fi.in.Repo != repo {
					train = append(train, fi)
				}
			}
			m, _ := fitModel(train, start, o)
			m.LoneMargin = medianMargin(train, m)
			m.Calibration = calibrate(train, m, o.FileRelevance, o)
			models[i] = m
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "leave-one-out: %s done (%d trees)\n", repo, len(m.Trees))
			}
		})
	}
	wg.Wait()
	out := map[string]*search.Model{}
	for i, repo := range repos {
		out[repo] = models[i]
	}
	return out
}

// questionFigures scores agent questions as the questions benchmark does,
// each ranked and answered by the model for its repository.
func questionFigures(questions []*fitInstance, model func(repo string) *search.Model, prm search.Params) *bench.QuestionReport {
	if prm == (search.Params{}) {
		prm = search.DefaultParams()
	}
	rs := make([]bench.QuestionResult, len(questions))
	for i, fi := range questions {
		m := model(fi.in.Repo)
		rs[i] = bench.QuestionResult{ID: fi.in.ID, Repo: fi.in.Repo, Category: fi.in.Category,
			NDCG: map[string]float64{bench.QScry: fi.ndcg(m)}, Answer: fi.questionAnswer(m, prm)}
	}
	return bench.NewQuestionReport(rs)
}

// questionAnswer simulates an agent question's default answer.
func (fi *fitInstance) questionAnswer(m *search.Model, prm search.Params) bench.QuestionAnswer {
	results, leads := fi.selectAnswer(m, prm)
	return bench.QuestionAnswerOf(&fi.in, results, leads)
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

// WriteText writes the fit's figures as Markdown.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	row := func(name string, x bench.LocMetrics) {
		fmt.Fprintf(bw, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |\n",
			name, x.N, x.F1, x.F5, x.F10, x.FMRR, x.S1, x.S5, x.S10, x.SMRR, x.Lines5)
	}
	fmt.Fprintf(bw, "## Fit\n\n| model, split | n | F@1 | F@5 | F@10 | F-MRR | S@1 | S@5 | S@10 | S-MRR | lines@5 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row("start, tune", r.StartTune)
	row("fitted, tune", r.Tune)
	row("start, holdout", r.StartHoldout)
	row("fitted, holdout", r.Holdout)
	if r.JSDocTuneN > 0 {
		row("start, JSDoc tune", r.StartJSDocTune)
		row("fitted, JSDoc tune", r.JSDocTune)
	}
	if r.JSDocHoldoutN > 0 {
		row("start, JSDoc holdout", r.StartJSDocHoldout)
		row("fitted, JSDoc holdout", r.JSDocHoldout)
	}
	fmt.Fprintf(bw, "\n| default answer | n | gold file in results | in results or leads | gold symbol | leads only | empty | median tokens | mean results |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, a := range []struct {
		n string
		m bench.AnswerMetrics
	}{{"tune", r.TuneAnswer}, {"holdout", r.HoldoutAnswer}} {
		fmt.Fprintf(bw, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %d | %.1f |\n", a.n, a.m.N, a.m.GoldFile, a.m.GoldFileOrLead,
			a.m.GoldSymbol, a.m.NoResults, a.m.Empty, a.m.MedianTokens, a.m.MeanResults)
	}
	fmt.Fprintf(bw, "\nCalibration on holdout (top %d of each list; log loss %.3f):\n\n| predicted | n | mean predicted | observed |\n|---|---:|---:|---:|\n", bench.LocDepth, r.HoldoutLogLoss)
	for _, b := range r.Reliability {
		if b.N > 0 {
			fmt.Fprintf(bw, "| %.1f–%.1f | %d | %.3f | %.3f |\n", b.Lo, b.Hi, b.N, b.Predicted, b.Observed)
		}
	}
	if r.Folds > 1 {
		fmt.Fprintf(bw, "\nCross-validated on tune (%d folds of repositories and packages, each scored by a model fitted without it):\n\n| split | n | F@1 | F@5 | F@10 | F-MRR | S@1 | S@5 | S@10 | S-MRR | lines@5 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", r.Folds)
		row("tune, cross-validated", r.CrossValidated)
		if r.CrossValidatedJSDoc.N > 0 {
			row("JSDoc tune, cross-validated", r.CrossValidatedJSDoc)
		}
	}
	if len(r.Ablations) > 0 {
		how := "weights refit on tune"
		if r.AblationKeptLinear {
			how = "its linear weights zeroed, the others kept, the trees refit on tune without it"
		}
		fmt.Fprintf(bw, "\nAblations (each group off, %s). Tune side, what a choice may rest on: the held-back objective and tune S@5. Holdout, only reported: the rest (JSDoc: the benchmark's questions):\n\n| off | held-back objective | tune S@5 | F@1 | F@5 | S@1 | S@5 | S@10 | S-MRR | lines@5 | JSDoc S@10 | JSDoc S-MRR |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", how)
		fmt.Fprintf(bw, "| (none) | %.4f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f | %.3f | %.3f |\n", r.HeldBack, r.Tune.S5, r.Holdout.F1, r.Holdout.F5, r.Holdout.S1, r.Holdout.S5, r.Holdout.S10, r.Holdout.SMRR, r.Holdout.Lines5, r.JSDocHoldout.S10, r.JSDocHoldout.SMRR)
		for _, a := range r.Ablations {
			x, j := a.Holdout, a.JSDocHoldout
			fmt.Fprintf(bw, "| %s | %.4f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f | %.3f | %.3f |\n", a.Off, a.HeldBack, a.Tune.S5, x.F1, x.F5, x.S1, x.S5, x.S10, x.SMRR, x.Lines5, j.S10, j.SMRR)
		}
	}
	for _, q := range []struct {
		name string
		r    *bench.QuestionReport
	}{{"starting model", r.QuestionsStart}, {"leave one repository out (each repository scored by a model fitted without it)", r.QuestionsLOO}} {
		if q.r != nil {
			fmt.Fprintf(bw, "\n### Agent questions, %s\n\n", q.name)
			q.r.WriteText(bw)
		}
	}
	if len(r.Gates) > 0 {
		fmt.Fprintf(bw, "\n### Default answers by answerCoverage and floor\n\nFix commits: gold file / gold symbol among full results, leads only, median tokens; agent questions (left out by repository): relevant file among full results, leads only, median results and tokens.\n\n| coverage | floor | fix tune file | fix tune symbol | fix tune leads only | fix tune tokens | questions relevant | questions leads only | questions results | questions tokens | fix holdout file | fix holdout symbol | fix holdout leads only | fix holdout tokens |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, g := range r.Gates {
			fmt.Fprintf(bw, "| %.2f | %.2f | %.3f | %.3f | %.3f | %d | %.3f | %.3f | %d | %d | %.3f | %.3f | %.3f | %d |\n", g.Coverage, g.Floor,
				g.FixTune.GoldFile, g.FixTune.GoldSymbol, g.FixTune.NoResults, g.FixTune.MedianTokens,
				g.Questions.RelevantInResults, g.Questions.LeadsOnly, g.Questions.MedianResults, g.Questions.MedianTokens,
				g.FixHoldout.GoldFile, g.FixHoldout.GoldSymbol, g.FixHoldout.NoResults, g.FixHoldout.MedianTokens)
		}
	}
	fmt.Fprintf(bw, "\nWeights:\n\n| feature | weight |\n|---|---:|\n")
	for i, n := range r.Model.Features {
		fmt.Fprintf(bw, "| %s | %.3f |\n", n, r.Model.Weights[i])
	}
	fmt.Fprintf(bw, "| file penalty | %.3f |\n| calibration (score, below best, best's margin, 1/rank, features…, intercept) | %.3f |\n", r.Model.FilePenalty, r.Model.Calibration)
	return bw.Flush()
}

// WriteModel writes the fitted model as model.json, with provenance.
func (r *Report) WriteModel(path, command string) error {
	m := r.Model
	m.Provenance = fmt.Sprintf("%s — fitted on %d tune fix commits and %d tune JSDoc questions; holdout (n=%d): file H@5 %.3f, symbol H@5 %.3f, symbol MRR %.3f; JSDoc holdout (n=%d): symbol H@10 %.3f",
		command, r.TuneN, r.JSDocTuneN, r.HoldoutN, r.Holdout.F5, r.Holdout.S5, r.Holdout.SMRR, r.JSDocHoldoutN, r.JSDocHoldout.S10)
	if q := r.QuestionsLOO; q != nil {
		m.Provenance += fmt.Sprintf("; agent questions (n=%d, fitted on; leave one repository out): NDCG@10 %.3f, relevant file in full results %.3f, leads only %.3f",
			q.Answer.N, q.Overall[bench.QScry], q.Answer.RelevantInResults, q.Answer.LeadsOnly)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("bench: fit: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("bench: fit: %w", err)
	}
	return nil
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

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

// symGain is a candidate's gain as a symbol hit: 0 when it is none, else
// discounted by size as in Objective, the ratio raised to power.
func (fi *fitInstance) symGain(i int, power float64) float64 {
	if !fi.symRel[i] {
		return 0
	}
	c := fi.results[i].Chunk
	for _, g := range fi.in.GoldSymbols {
		if g.File == c.RelativePath && c.StartLine <= g.EndLine && g.StartLine <= c.EndLine {
			ratio := float64(g.EndLine-g.StartLine+1) / float64(c.EndLine-c.StartLine+1)
			return math.Pow(math.Min(1, ratio), power)
		}
	}
	return 0
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
