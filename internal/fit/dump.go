package fit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/chunk"
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
	// question: the query opens with a question word, and the model
	// spreads its results over files as the pipeline does.
	question bool
	// unknown: the query asks for a name the index does not hold, and the
	// answer holds leads only (search.Candidates.Unknown).
	unknown string
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
		fi := &fitInstance{in: d.Instance, question: search.AsksQuestion(d.Query), unknown: d.Unknown}
		for i, c := range d.Candidates {
			// A dump of other features cannot be mapped: the features it
			// lacks depend on the candidates' text, which it does not hold.
			if len(c.Features) != search.NumFeatures {
				return nil, fmt.Errorf("fit: dump %s:%d: %d features, scry computes %d: dump again", path, line, len(c.Features), search.NumFeatures)
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
	return m.OrderTop(fi.feats, fi.keyOf, k, fi.question)
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
	search.MarkDefinition(rs, func(k int) *search.Features { return &fi.feats[order[k].Index] })
	return search.AnswerOf(rs, fi.unknown, prm)
}

func (fi *fitInstance) relevant(i int, fileLevel bool) bool {
	if fileLevel {
		return fi.fileRel[i]
	}
	return fi.symRel[i]
}
