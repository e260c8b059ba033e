package fit

import (
	"math"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/search"
)

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
