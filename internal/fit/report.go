package fit

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/ltr"
	"github.com/scry-dev/scry/internal/search"
)

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
	// Questions is the agent questions' NDCG@10 ("overall", the mean of
	// the repositories' means, and each category's), never fitted on.
	Questions map[string]float64 `json:"questions,omitempty"`
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
	twoAtATime(len(repos), func(i int) {
		repo := repos[i]
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
		fmt.Fprintf(bw, "\nAblations (each group off, %s; every row fitted on the fix commits and JSDoc questions of tune alone, the first with nothing off). Tune side, what a choice may rest on: the held-back objective and tune S@5. Held out, only reported: the rest (JSDoc: the benchmark's questions; agent questions: never fitted on by any row):\n\n| off | held-back objective | tune S@5 | F@1 | F@5 | S@1 | S@5 | S@10 | S-MRR | lines@5 | JSDoc S@10 | JSDoc S-MRR | questions NDCG@10 | architecture | semantic | symbol |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", how)
		for _, a := range r.Ablations {
			x, j, q := a.Holdout, a.JSDocHoldout, a.Questions
			fmt.Fprintf(bw, "| %s | %.4f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", a.Off, a.HeldBack, a.Tune.S5, x.F1, x.F5, x.S1, x.S5, x.S10, x.SMRR, x.Lines5, j.S10, j.SMRR,
				q["overall"], q["architecture"], q["semantic"], q["symbol"])
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
	return bench.WriteJSON(path, m)
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
