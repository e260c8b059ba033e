package search

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"

	"github.com/scry-dev/scry/internal/ltr"
)

// Model is the fitted ranker: a linear score over the candidate features,
// a per-file diversity penalty and a logistic calibration of the score into
// the probability that a result is relevant. model.json holds the shipped
// one; `scry bench fit` writes it from features recorded on the tune split
// of the localization benchmark.
type Model struct {
	// Features names the features in Weights' order; a model whose names
	// differ from FeatureNames is refused (it was fitted on other features).
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	// FilePenalty is subtracted from a candidate's score for each better
	// candidate of the same file already ranked: several chunks of one file
	// still rank together when each is strong, but one file cannot fill the
	// top of the list on the strength of its first chunk.
	FilePenalty float64 `json:"file_penalty"`
	// Calibration maps a ranked result to P(relevant) by logistic
	// regression over CalibrationInputs; its last entry is the intercept.
	// A score alone says little across queries (a terse query's best score
	// is low even when it is right), so the inputs also say how far the
	// result is from the query's best and how clearly the best stands out.
	Calibration []float64 `json:"calibration"`
	// LoneMargin is the best's margin over the second that a lone
	// candidate is calibrated with: the median margin of the tune queries.
	// One candidate has no second to lead, and a margin of 0 would read as
	// a tie (a one-function workspace asked for that function would get a
	// lead, not a result).
	LoneMargin float64 `json:"lone_margin,omitempty"`
	// Relevance says what the calibration's "relevant" means.
	Relevance string `json:"relevance"`
	// Trees are boosted regression trees (LambdaMART) added to the linear
	// score: they correct it where features interact, which a weighted sum
	// cannot express. Empty in a purely linear model.
	Trees []ltr.Tree `json:"trees,omitempty"`
	// SpreadFirst is how many of the first places of every list go to
	// different files, each file's best chunk in score order, before the
	// penalty orders the rest (a question spreads its whole list: see
	// OrderTop). An agent reads a file once it has one of its chunks, so
	// the first few places are worth most as different files; further down,
	// a strong file's second chunk may be the very function asked for.
	SpreadFirst int `json:"spread_first,omitempty"`
	// SpreadTail, when set, gives the places after the first SpreadTail of
	// a description's or a name's list to files not listed yet, in the
	// order they would have come, before any further chunk of a listed
	// file. Beside the best matches, what also answers is a file that
	// works with them (the helper they import, the module that uses
	// them), which ranks below their own further chunks; an agent that
	// has read a file has its further chunks already.
	SpreadTail int `json:"spread_tail,omitempty"`
	// Provenance records how the model was produced (command, data, figures).
	Provenance string `json:"provenance,omitempty"`
}

//go:embed model.json
var modelJSON []byte

// DefaultModel is the shipped model.
var DefaultModel = mustModel(modelJSON)

func mustModel(b []byte) *Model {
	m, err := ParseModel(b)
	if err != nil {
		panic(fmt.Sprintf("search: shipped model.json: %v", err))
	}
	return m
}

// ParseModel reads and checks a model.
func ParseModel(b []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("search: model: %w", err)
	}
	if len(m.Calibration) != NumCalibrationInputs+1 {
		return nil, fmt.Errorf("search: model has %d calibration weights, scry uses %d: refit it", len(m.Calibration), NumCalibrationInputs+1)
	}
	if len(m.Features) != NumFeatures || len(m.Weights) != NumFeatures {
		return nil, fmt.Errorf("search: model has %d features and %d weights, scry computes %d: refit it", len(m.Features), len(m.Weights), NumFeatures)
	}
	for i, n := range m.Features {
		if n != FeatureNames[i] {
			return nil, fmt.Errorf("search: model feature %d is %q, scry computes %q: refit it", i, n, FeatureNames[i])
		}
	}
	for k, t := range m.Trees {
		if err := checkTree(t); err != nil {
			return nil, fmt.Errorf("search: model tree %d: %w", k, err)
		}
	}
	return &m, nil
}

// checkTree refuses a tree that Eval could not walk: arrays of different
// lengths, a feature scry does not compute, a child that is missing or
// points back up (a loop).
func checkTree(t ltr.Tree) error {
	n := len(t.Feature)
	if n == 0 || len(t.Threshold) != n || len(t.Left) != n || len(t.Right) != n || len(t.Value) != n {
		return fmt.Errorf("arrays of different lengths")
	}
	for i, f := range t.Feature {
		if f < 0 {
			continue
		}
		if f >= NumFeatures {
			return fmt.Errorf("node %d splits on feature %d of %d", i, f, NumFeatures)
		}
		if t.Left[i] <= i || t.Left[i] >= n || t.Right[i] <= i || t.Right[i] >= n {
			return fmt.Errorf("node %d has children %d and %d", i, t.Left[i], t.Right[i])
		}
	}
	return nil
}

// Score is the model's score of one feature vector: the linear part plus
// the trees.
func (m *Model) Score(f *Features) float64 {
	s := 0.0
	for i, w := range m.Weights {
		s += w * f[i]
	}
	for t := range m.Trees {
		s += m.Trees[t].Eval(f[:])
	}
	return s
}

// NumCalibrationInputs is the length of CalibrationInputs.
const NumCalibrationInputs = 4 + NumFeatures

// CalibrationInputs describe the result at 0-based position rank of a
// ranked list (scores best first, after the diversity penalty): its score,
// its distance below the best, the best's lead over the second (lone when
// there is no second), the reciprocal of its position, then its features — what makes a result
// trustworthy (the query names it, its file is clearly the subject) is not
// all in where it ranks.
func CalibrationInputs(scores []float64, rank int, f *Features, lone float64) [NumCalibrationInputs]float64 {
	top, margin := scores[0], lone
	if len(scores) > 1 {
		margin = scores[0] - scores[1]
	}
	var in [NumCalibrationInputs]float64
	in[0], in[1], in[2], in[3] = scores[rank], scores[rank]-top, margin, 1/float64(rank+1)
	copy(in[4:], f[:])
	return in
}

// Probability calibrates the result at position rank of a ranked list,
// whose features are f.
func (m *Model) Probability(scores []float64, rank int, f *Features) float64 {
	in := CalibrationInputs(scores, rank, f, m.LoneMargin)
	z := m.Calibration[NumCalibrationInputs]
	for i, x := range in {
		z += m.Calibration[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// RankedProbabilities calibrates every result of a ranked list (scores
// best first; feat gives the features of the result at a rank) and makes
// the probabilities non-increasing down the list: a result never claims a
// higher probability than one ranked above it, so the gate cuts the list
// at one place and leads read best first. The calibration alone can rank
// two neighbours the other way (it weighs the features differently from
// the ranker), and the ranking is what the benchmark measures.
func (m *Model) RankedProbabilities(scores []float64, feat func(rank int) *Features) []float64 {
	out := make([]float64, len(scores))
	for k := range scores {
		out[k] = m.Probability(scores, k, feat(k))
		if k > 0 && out[k] > out[k-1] {
			out[k] = out[k-1]
		}
	}
	return out
}

// Ranked is one candidate in the model's order.
type Ranked struct {
	Index int     // into the candidate list
	Score float64 // after the diversity penalty
}

// Order ranks candidates: by linear score, each file's later chunks lowered
// by the diversity penalty, and mirrored copies (the same symbol, the same
// size, the same file name in another directory, as in src/ and a generated
// deno/ copy) moved behind everything else so they do not crowd out other
// answers. keyOf gives what identifies a mirror: name, line count and file
// name. question says the query is a question (AsksQuestion): its results
// are spread over files, every file's best chunk before any file's second.
func (m *Model) Order(feats []Features, keyOf func(i int) (file, mirrorKey string), question bool) []Ranked {
	return m.OrderTop(feats, keyOf, len(feats), question)
}

// OrderTop is Order for the best k candidates only (mirrors beyond them are
// not collected): what a metric over the top of the list needs, at a
// fraction of the cost.
//
// A question ("how does a request reach the handler") asks which files
// take part, and an agent reads a file once it has one of its chunks: a
// second chunk of a file tells it less than the best chunk of the next
// file. So a question's list takes each file's best chunk in score order
// first, and only then the files' further chunks (penalised as usual). A
// description of behaviour or a name asks for one piece of code, whose
// file's second chunk may well be it: only its first SpreadFirst places go
// to different files, and the fitted penalty orders the rest.
func (m *Model) OrderTop(feats []Features, keyOf func(i int) (file, mirrorKey string), k int, question bool) []Ranked {
	n := len(feats)
	base := make([]float64, n)
	idx := make([]int, n)
	for i := range feats {
		base[i] = m.Score(&feats[i])
		idx[i] = i
	}
	definitionsFirst(feats, base)
	sort.SliceStable(idx, func(a, b int) bool { return base[idx[a]] > base[idx[b]] })
	out := make([]Ranked, 0, min(n, k))
	var mirrors []Ranked
	perFile := map[string]int{}
	seen := map[string]string{} // mirror key → file that holds it
	place := func(i int, score float64) {
		file, key := keyOf(i)
		if f, ok := seen[key]; ok && f != file && key != "" {
			mirrors = append(mirrors, Ranked{Index: i, Score: score})
			return
		}
		if key != "" {
			seen[key] = file
		}
		perFile[file]++
		out = append(out, Ranked{Index: i, Score: score})
	}
	spread := min(m.SpreadFirst, k)
	if question {
		spread = k
	}
	remaining := idx
	if spread > 0 {
		rest := make([]int, 0, n)
		for j, i := range idx {
			if len(out) >= spread {
				rest = append(rest, idx[j:]...)
				break
			}
			// Every definition of a name asked for keeps its place: a
			// class and the type it merges with, or overloads, are
			// one answer, however many of them a file holds.
			if file, _ := keyOf(i); perFile[file] > 0 && !isDefinition(&feats[i]) {
				rest = append(rest, i)
				continue
			}
			place(i, base[i])
		}
		remaining = rest
	}
	// The tail spread reorders a longer list than k: the new files it
	// brings up lie beyond the k-th place.
	want := k
	tail := m.SpreadTail > 0 && !question && k > m.SpreadTail
	if tail {
		want = n
	}
	// Greedy: the penalty depends on what ranked before, so the order is
	// built one pick at a time over a window of the best remaining
	// candidates (the penalty can only lower scores, so a candidate beyond
	// the window cannot overtake one inside it by more than the window).
	const window = 64
	for len(remaining) > 0 && len(out) < want {
		best, bestScore := -1, math.Inf(-1)
		for k := 0; k < len(remaining) && k < window; k++ {
			i := remaining[k]
			file, _ := keyOf(i)
			s := base[i] - m.FilePenalty*float64(perFile[file])
			if s > bestScore {
				best, bestScore = k, s
			}
		}
		i := remaining[best]
		remaining = append(remaining[:best:best], remaining[best+1:]...)
		place(i, bestScore)
	}
	if tail {
		out = spreadTail(out, m.SpreadTail, keyOf)
	}
	if len(out) < k {
		out = append(out, mirrors...)
	}
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// spreadTail moves, after the first from places of list, the first
// result of each file not listed yet ahead of the further results of
// listed files, keeping the order within each group.
func spreadTail(list []Ranked, from int, keyOf func(i int) (file, mirrorKey string)) []Ranked {
	if len(list) <= from {
		return list
	}
	listed := map[string]bool{}
	for _, r := range list[:from] {
		file, _ := keyOf(r.Index)
		listed[file] = true
	}
	out := append(make([]Ranked, 0, len(list)), list[:from]...)
	var later []Ranked
	for _, r := range list[from:] {
		file, _ := keyOf(r.Index)
		if listed[file] {
			later = append(later, r)
			continue
		}
		listed[file] = true
		out = append(out, r)
	}
	return append(out, later...)
}

// definitionsFirst lifts the chunks that define what a bare-name query
// names (the whole query is their name or path: "StateManager",
// "Router.navigate") above every other candidate, keeping their order
// among themselves: asked for a name, an agent wants its definition, not
// the code that uses it or a longer name that contains it. Imports,
// re-exports, comments, tests and auxiliary code are not definitions.
// The lift is the least that puts them first, plus definitionLift, so the
// calibration sees a clear lead.
func definitionsFirst(feats []Features, base []float64) {
	lowDef, highOther, defs := math.Inf(1), math.Inf(-1), 0
	for i := range feats {
		if isDefinition(&feats[i]) {
			lowDef = math.Min(lowDef, base[i])
			defs++
		} else {
			highOther = math.Max(highOther, base[i])
		}
	}
	if defs == 0 || defs == len(feats) || lowDef > highOther+definitionLift {
		return
	}
	lift := highOther - lowDef + definitionLift
	for i := range feats {
		if isDefinition(&feats[i]) {
			base[i] += lift
		}
	}
}

// definitionLift is the lead of the weakest definition over the best
// other candidate after definitionsFirst: about the file penalty's size,
// so a definition is never overtaken by another file's chunk.
const definitionLift = 1.0

func isDefinition(f *Features) bool {
	return f[FWholeName] == 1 && f[FNonCode] == 0 && f[FTest] == 0 && f[FAux] == 0
}

// MirrorKey identifies a symbol across mirrored copies of a tree.
func MirrorKey(r Result) string {
	c := r.Chunk
	if c.Name == "" {
		return ""
	}
	return c.Name + "|" + strconv.Itoa(c.EndLine-c.StartLine) + "|" + path.Base(c.RelativePath) + "|" + c.NodeKind
}
