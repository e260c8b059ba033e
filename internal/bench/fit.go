package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/ltr"
	"github.com/scry-dev/scry/internal/search"
)

// fitInstance is one dumped instance, ready to be ranked by any model.
type fitInstance struct {
	in      Instance
	feats   []search.Features
	results []search.Result // chunk ranges (ID = candidate index), tokens
	mirror  []string
	symRel  []bool // candidate overlaps a gold symbol
	fileRel []bool // candidate is in a gold file
}

// LoadDump reads a feature dump written by `scry bench localize --dump`.
func LoadDump(path string) ([]*fitInstance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bench: dump: %w", err)
	}
	defer f.Close()
	var out []*fitInstance
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for line := 1; sc.Scan(); line++ {
		var d DumpInstance
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("bench: dump %s:%d: %w", path, line, err)
		}
		fi := &fitInstance{in: d.Instance}
		for i, c := range d.Candidates {
			if len(c.Features) != search.NumFeatures {
				return nil, fmt.Errorf("bench: dump %s:%d: %d features, scry computes %d: dump again", path, line, len(c.Features), search.NumFeatures)
			}
			var fv search.Features
			copy(fv[:], c.Features)
			fi.feats = append(fi.feats, fv)
			fi.results = append(fi.results, search.Result{
				Chunk: chunk.Chunk{ID: fmt.Sprint(i), RelativePath: c.File, StartLine: c.StartLine, EndLine: c.EndLine,
					Depth: int(math.Round(fv[search.FDepth] * 3))},
				Tokens: c.Tokens,
			})
			fi.mirror = append(fi.mirror, c.Mirror)
			sc := ScoreList(&fi.in, []LocSpan{{c.File, c.StartLine, c.EndLine}})
			fi.symRel = append(fi.symRel, sc.SymbolRank == 1)
			fi.fileRel = append(fi.fileRel, sc.FileRank == 1)
		}
		out = append(out, fi)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: dump: %w", err)
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

func (fi *fitInstance) score(m *search.Model) LocScore {
	order := fi.ranked(m, LocDepth)
	spans := make([]LocSpan, len(order))
	for i, o := range order {
		c := fi.results[o.Index].Chunk
		spans[i] = LocSpan{c.RelativePath, c.StartLine, c.EndLine}
	}
	return ScoreList(&fi.in, spans)
}

// answer simulates the default answer with the pipeline's own selection.
func (fi *fitInstance) answer(m *search.Model, prm search.Params) LocAnswer {
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
	results, leads := search.SelectAnswer(rs, prm)
	return answerOf(&fi.in, results, leads)
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
	if len(set) == 0 {
		return 0
	}
	s := 0.0
	for _, fi := range set {
		sym, file := fi.gains(m)
		s += 0.5*sym + 0.5*file
	}
	return s / float64(len(set))
}

// gains are an instance's symbol gain (discounted by size, see Objective)
// and file gain under a model.
func (fi *fitInstance) gains(m *search.Model) (sym, file float64) {
	order := fi.ranked(m, 10)
	gold := map[string]bool{}
	for _, f := range fi.in.GoldFiles {
		gold[f] = true
	}
	symDone, fileDone := false, false
	for i, o := range order {
		c := fi.results[o.Index].Chunk
		if !fileDone && gold[c.RelativePath] {
			file, fileDone = dcg(i+1), true
		}
		if !symDone {
			for _, g := range fi.in.GoldSymbols {
				if g.File == c.RelativePath && c.StartLine <= g.EndLine && g.StartLine <= c.EndLine {
					ratio := float64(g.EndLine-g.StartLine+1) / float64(c.EndLine-c.StartLine+1)
					sym, symDone = dcg(i+1)*math.Sqrt(math.Min(1, ratio)), true
					break
				}
			}
		}
		if symDone && fileDone {
			break
		}
	}
	return sym, file
}

// FitOptions configure Fit.
type FitOptions struct {
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
	Log   io.Writer
}

// Ablation is one refit with a feature group switched off.
type Ablation struct {
	Off     string     `json:"off"`
	Holdout LocMetrics `json:"holdout"`
}

// FitReport is what Fit found.
type FitReport struct {
	Model                     search.Model  `json:"model"`
	TuneN, HoldoutN           int           `json:"-"`
	Tune, Holdout             LocMetrics    `json:"-"`
	StartTune, StartHoldout   LocMetrics    `json:"-"`
	TuneAnswer, HoldoutAnswer AnswerMetrics `json:"-"`
	Ablations                 []Ablation    `json:"-"`
	Reliability               []Bin         `json:"-"`
	HoldoutLogLoss            float64       `json:"-"`
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

func scoresOf(set []*fitInstance, m *search.Model) LocMetrics {
	sc := make([]LocScore, len(set))
	for i, fi := range set {
		sc[i] = fi.score(m)
	}
	return SummarizeLoc(sc)
}

func fitWeights(tune []*fitInstance, start *search.Model, fixed map[int]bool, opt FitOptions) *search.Model {
	x0 := paramsOf(start)
	for i := range fixed {
		x0[i] = 0
	}
	obj := func(x []float64) float64 { return Objective(tune, withParams(start, x)) }
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

// calibrate fits P(relevant | score) on the tune split's top LocDepth
// candidates, relevant meaning the candidate overlaps a gold symbol.
func calibrate(tune []*fitInstance, m *search.Model, fileLevel bool) []float64 {
	var xs [][]float64
	var y []bool
	for _, fi := range tune {
		order := fi.ranked(m, LocDepth)
		scores := scoresOfOrder(order)
		for k, o := range order {
			in := search.CalibrationInputs(scores, k, &fi.feats[o.Index])
			xs = append(xs, in[:])
			y = append(y, fi.relevant(o.Index, fileLevel))
		}
	}
	w, b := ltr.LogisticN(xs, y)
	return append(w, b)
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
		order := fi.ranked(m, LocDepth)
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
func Fit(set []*fitInstance, opt FitOptions) (*FitReport, error) {
	tune, hold := split(set, "tune"), split(set, "holdout")
	if len(tune) == 0 {
		return nil, fmt.Errorf("bench: fit: the dump has no tune instances")
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
	r := &FitReport{TuneN: len(tune), HoldoutN: len(hold)}
	r.StartTune, r.StartHoldout = scoresOf(tune, start), scoresOf(hold, start)
	m := fitWeights(tune, start, nil, opt)
	m.Calibration = calibrate(tune, m, opt.FileRelevance)
	// Rounded before anything is measured, so the figures are those of the
	// model as written to model.json.
	for i := range m.Weights {
		m.Weights[i] = round4(m.Weights[i])
	}
	m.FilePenalty = round4(m.FilePenalty)
	for i := range m.Calibration {
		m.Calibration[i] = round4(m.Calibration[i])
	}
	m.Relevance = "the result overlaps code that a fix changed (gold symbols of the localization benchmark's tune split)"
	if opt.FileRelevance {
		m.Relevance = "the result lies in a file that a fix changed (gold files of the localization benchmark's tune split)"
	}
	r.Model = *m
	r.Tune, r.Holdout = scoresOf(tune, m), scoresOf(hold, m)
	answers := func(set []*fitInstance) AnswerMetrics {
		as := make([]LocAnswer, len(set))
		for i, fi := range set {
			as[i] = fi.answer(m, opt.Params)
		}
		return summarizeAnswers(as)
	}
	r.TuneAnswer, r.HoldoutAnswer = answers(tune), answers(hold)
	r.Reliability, r.HoldoutLogLoss = reliability(hold, m, opt.FileRelevance)
	if opt.Ablate {
		for _, g := range AblationGroups {
			fixed := map[int]bool{}
			for _, f := range g.Features {
				fixed[f] = true
			}
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "ablation: %s off\n", g.Name)
			}
			am := fitWeights(tune, m, fixed, opt)
			r.Ablations = append(r.Ablations, Ablation{Off: g.Name, Holdout: scoresOf(hold, am)})
		}
	}
	return r, nil
}

// WriteText writes the fit's figures as Markdown.
func (r *FitReport) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	row := func(name string, x LocMetrics) {
		fmt.Fprintf(bw, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |\n",
			name, x.N, x.F1, x.F5, x.F10, x.FMRR, x.S1, x.S5, x.S10, x.SMRR, x.Lines5)
	}
	fmt.Fprintf(bw, "## Fit\n\n| model, split | n | F@1 | F@5 | F@10 | F-MRR | S@1 | S@5 | S@10 | S-MRR | lines@5 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row("start, tune", r.StartTune)
	row("fitted, tune", r.Tune)
	row("start, holdout", r.StartHoldout)
	row("fitted, holdout", r.Holdout)
	fmt.Fprintf(bw, "\n| default answer | n | gold file in results | in results or leads | gold symbol | leads only | empty | median tokens | mean results |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, a := range []struct {
		n string
		m AnswerMetrics
	}{{"tune", r.TuneAnswer}, {"holdout", r.HoldoutAnswer}} {
		fmt.Fprintf(bw, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %d | %.1f |\n", a.n, a.m.N, a.m.GoldFile, a.m.GoldFileOrLead,
			a.m.GoldSymbol, a.m.NoResults, a.m.Empty, a.m.MedianTokens, a.m.MeanResults)
	}
	fmt.Fprintf(bw, "\nCalibration on holdout (top %d of each list; log loss %.3f):\n\n| predicted | n | mean predicted | observed |\n|---|---:|---:|---:|\n", LocDepth, r.HoldoutLogLoss)
	for _, b := range r.Reliability {
		if b.N > 0 {
			fmt.Fprintf(bw, "| %.1f–%.1f | %d | %.3f | %.3f |\n", b.Lo, b.Hi, b.N, b.Predicted, b.Observed)
		}
	}
	if len(r.Ablations) > 0 {
		fmt.Fprintf(bw, "\nAblations on holdout (each group off, weights refit on tune):\n\n| off | F@1 | F@5 | S@1 | S@5 | S@10 | S-MRR | lines@5 |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
		fmt.Fprintf(bw, "| (none) | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |\n", r.Holdout.F1, r.Holdout.F5, r.Holdout.S1, r.Holdout.S5, r.Holdout.S10, r.Holdout.SMRR, r.Holdout.Lines5)
		for _, a := range r.Ablations {
			x := a.Holdout
			fmt.Fprintf(bw, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |\n", a.Off, x.F1, x.F5, x.S1, x.S5, x.S10, x.SMRR, x.Lines5)
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
func (r *FitReport) WriteModel(path, command string) error {
	m := r.Model
	m.Provenance = fmt.Sprintf("%s — fitted on %d tune instances; holdout (n=%d): file H@5 %.3f, symbol H@5 %.3f, symbol MRR %.3f",
		command, r.TuneN, r.HoldoutN, r.Holdout.F5, r.Holdout.S5, r.Holdout.SMRR)
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
