package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/tokens"
	"github.com/scry-dev/scry/internal/vector"
)

// Instance is one localization question: a real fix commit's subject asked
// of the repository as it was before the fix, with the code the fix changed
// as gold (see the benchmark's README beside the instances).
type Instance struct {
	ID                 string       `json:"instance_id"`
	Repo               string       `json:"repo"`
	Split              string       `json:"split"`
	BaseCommit         string       `json:"base_commit"`
	Date               string       `json:"date"`
	Query              string       `json:"query"`
	GoldFiles          []string     `json:"gold_files"`
	GoldSymbols        []GoldSymbol `json:"gold_symbols"`
	MentionsGoldSymbol bool         `json:"mentions_gold_symbol"`
	// An agent question (Split QuestionSplit) has a category, the files
	// that answer it best among GoldFiles, and the directory under the
	// repository that is indexed (GoldFiles are relative to it).
	Category string   `json:"category,omitempty"`
	Relevant []string `json:"relevant,omitempty"`
	Root     string   `json:"root,omitempty"`
}

// GoldSymbol is a callable the fix changed.
type GoldSymbol struct {
	File          string `json:"file"`
	Name          string `json:"name"`
	QualifiedName string `json:"qualified_name"`
	StartLine     int    `json:"start_line"`
	EndLine       int    `json:"end_line"`
}

// LoadInstances reads a JSONL file of instances.
func LoadInstances(path string) ([]Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bench: instances: %w", err)
	}
	defer f.Close()
	var out []Instance
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var in Instance
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			return nil, fmt.Errorf("bench: instances %s:%d: %w", path, line, err)
		}
		if in.ID == "" || in.Repo == "" || in.BaseCommit == "" || len(in.GoldFiles) == 0 {
			return nil, fmt.Errorf("bench: instances %s:%d: missing instance_id, repo, base_commit or gold_files", path, line)
		}
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: instances: %w", err)
	}
	return out, nil
}

// MirrorDir finds the bare git mirror of owner/name under dir: either
// dir/owner+name/repo (as the snapshot fetcher lays them out) or
// dir/owner+name.
func MirrorDir(dir, repo string) (string, error) {
	base := filepath.Join(dir, strings.ReplaceAll(repo, "/", "+"))
	for _, d := range []string{filepath.Join(base, "repo"), base} {
		if st, err := os.Stat(filepath.Join(d, "objects")); err == nil && st.IsDir() {
			return d, nil
		}
	}
	return "", fmt.Errorf("bench: no git mirror of %s under %s (expected %s/repo or %s, a bare git directory)", repo, dir, base, base)
}

// Result span of a ranked list, as the scorer reads it.
type LocSpan struct {
	File      string `json:"file"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// LocScore is one system's outcome on one instance.
type LocScore struct {
	FileRank   int `json:"file_rank"`   // 1-based within the first 20; 0: none
	SymbolRank int `json:"symbol_rank"` // likewise
	Lines5     int `json:"lines5"`
	Files5     int `json:"files5"`
}

// LocDepth is how many results the scorer looks at.
const LocDepth = 20

// ScoreList scores a ranked list against an instance's gold, as the
// benchmark's reference scorer does: the first LocDepth results, a file hit
// on an exact path, a symbol hit on a line overlap in a gold symbol's file,
// lines@5 as the union of the top 5 ranges per file.
func ScoreList(in *Instance, list []LocSpan) LocScore {
	var s LocScore
	if len(list) > LocDepth {
		list = list[:LocDepth]
	}
	gold := map[string]bool{}
	for _, f := range in.GoldFiles {
		gold[f] = true
	}
	for i, r := range list {
		if s.FileRank == 0 && gold[r.File] {
			s.FileRank = i + 1
		}
		if s.SymbolRank == 0 {
			for _, g := range in.GoldSymbols {
				if g.File == r.File && r.StartLine <= g.EndLine && g.StartLine <= r.EndLine {
					s.SymbolRank = i + 1
					break
				}
			}
		}
	}
	byFile := map[string][][2]int{}
	for i, r := range list {
		if i == 5 {
			break
		}
		byFile[r.File] = append(byFile[r.File], [2]int{r.StartLine, r.EndLine})
	}
	s.Files5 = len(byFile)
	for _, rs := range byFile {
		sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
		cs, ce := rs[0][0], rs[0][1]
		for _, r := range rs[1:] {
			if r[0] <= ce+1 {
				ce = max(ce, r[1])
				continue
			}
			s.Lines5 += ce - cs + 1
			cs, ce = r[0], r[1]
		}
		s.Lines5 += ce - cs + 1
	}
	return s
}

// Localization systems, in report order; those the quality benchmark runs
// too have its names.
const (
	LocGrep       = "grep-files"
	LocBM25Files  = SysBM25
	LocBM25Chunks = "bm25-chunks"
	LocV1         = SysV1
	LocScry       = SysFull
	// With an embedder (RunOptions.Embedder):
	LocVector = "vector"
	LocFused  = "bm25-chunks+vector"
	LocHybrid = SysHybrid
)

// locDescriptions describe the systems; those the quality benchmark runs
// the same way have its descriptions.
var locDescriptions = map[string]string{
	LocGrep:       "whole files ranked by distinct query words contained (grep -ric), ties by occurrences",
	LocBM25Files:  systemDescriptions[SysBM25],
	LocBM25Chunks: "scry's first stage alone: BM25F over symbol chunks",
	LocV1:         systemDescriptions[SysV1],
	LocScry:       "the fitted ranker: deep candidates, features, linear model, file diversity, mirrors collapsed",
	LocVector:     systemDescriptions[SysVector],
	LocFused:      systemDescriptions[SysFused],
	LocHybrid:     "the fitted ranker over candidates with vector neighbours fused in (what scry does with an embedder)",
}

// locSystems are the systems the results hold, in report order.
func locSystems(rs []LocResult) []string {
	if len(rs) > 0 {
		if _, ok := rs[0].Scores[LocHybrid]; ok {
			return append(append([]string(nil), locOrder...), LocVector, LocFused, LocHybrid)
		}
	}
	return locOrder
}

var locOrder = []string{LocGrep, LocBM25Files, LocBM25Chunks, LocV1, LocScry}

// LocAnswer is what an agent receives with the defaults.
type LocAnswer struct {
	Results        int  `json:"results"`
	Leads          int  `json:"leads"`
	Tokens         int  `json:"tokens"` // tokens of the results' source
	GoldFile       bool `json:"gold_file"`
	GoldFileOrLead bool `json:"gold_file_or_lead"` // in a result or named by a lead
	GoldSymbol     bool `json:"gold_symbol"`
}

// LocResult is one instance's outcome.
type LocResult struct {
	ID       string              `json:"instance_id"`
	Repo     string              `json:"repo"`
	Split    string              `json:"split"`
	Mentions bool                `json:"mentions_gold_symbol"`
	Scores   map[string]LocScore `json:"scores"`
	Answer   LocAnswer           `json:"answer"`
	V1Answer LocAnswer           `json:"v1_answer"`
	// HybridAnswer is the default answer with the embedder (zero without).
	HybridAnswer LocAnswer `json:"hybrid_answer"`
	// InCandidates: a gold symbol is among the ranker's candidates, the
	// most any ordering of them can reach.
	InCandidates bool `json:"in_candidates"`
	// HybridInCandidates: the same for the hybrid pipeline's candidates.
	HybridInCandidates bool `json:"hybrid_in_candidates"`
}

// RunOptions configure the benchmarks that rank questions asked of
// repositories at revisions taken from bare git mirrors: RunLocalize and
// RunQuestions.
type RunOptions struct {
	Instances []Instance
	Mirrors   string        // holds the bare git mirrors (MirrorDir)
	Work      string        // trees and indexes are kept here between runs
	Params    search.Params // zero: search.DefaultParams
	Model     *search.Model // nil: search.DefaultModel
	// Dump, when set, receives one JSON line per instance with its
	// candidates' features and gold labels, for `scry bench fit`.
	Dump io.Writer
	Log  io.Writer
	// Embedder, when set, adds the vector systems: every chunk is embedded
	// after each sync (only new and changed chunks are embedded again).
	Embedder embed.Embedder
	// DumpHybrid makes the dump record the hybrid pipeline's candidates
	// (the lexical ones with vector neighbours joined) instead of the lexical ones,
	// to fit a ranker for search with an embedder. Needs Embedder.
	DumpHybrid bool
}

// withDefaults fills what a zero value leaves to the defaults.
func (o RunOptions) withDefaults() RunOptions {
	if o.Params == (search.Params{}) {
		o.Params = search.DefaultParams()
	}
	return o
}

// RunLocalize answers every instance with every system. Instances are taken
// repository by repository in date order, so each repository's tree and
// index move forward through history with small incremental syncs.
func RunLocalize(ctx context.Context, opt RunOptions) ([]LocResult, error) {
	opt = opt.withDefaults()
	log := logger{opt.Log, time.Now()}
	byRepo := map[string][]*Instance{}
	var repos []string
	for i := range opt.Instances {
		in := &opt.Instances[i]
		if byRepo[in.Repo] == nil {
			repos = append(repos, in.Repo)
		}
		byRepo[in.Repo] = append(byRepo[in.Repo], in)
	}
	var out []LocResult
	for _, repo := range repos {
		rs, err := localizeRepo(ctx, opt, log, repo, byRepo[repo])
		out = append(out, rs...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// localizeRepo answers one repository's instances in date order on a
// fresh index of its tree, which moves forward commit by commit. It returns
// the results up to the first error and closes the index, however it ends.
func localizeRepo(ctx context.Context, opt RunOptions, log logger, repo string, ins []*Instance) ([]LocResult, error) {
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].Date < ins[j].Date })
	gitDir, err := MirrorDir(opt.Mirrors, repo)
	if err != nil {
		return nil, err
	}
	slug := strings.ReplaceAll(repo, "/", "+")
	// The tree's directory name holds no digits and no commit: a
	// ranker must not depend on the root's name.
	tree, err := NewTree(gitDir, filepath.Join(opt.Work, slug, "tree"))
	if err != nil {
		return nil, err
	}
	dbPath := filepath.Join(opt.Work, slug, "index.db")
	_ = removeIndex(dbPath) // one that cannot be removed is synced up to date
	_, st, ix, err := openIndex(tree.Dir, dbPath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	cur := ""
	var grep *Grep
	var bm *BM25
	var hybrid *search.Hybrid
	lines := map[string]int{}
	var out []LocResult
	for _, in := range ins {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if in.BaseCommit != cur {
			t0 := time.Now()
			missing, err := tree.Checkout(ctx, in.BaseCommit)
			if err != nil {
				return out, err
			}
			sum, err := ix.Sync(ctx)
			if err != nil {
				return out, fmt.Errorf("bench: index %s at %s: %w", repo, in.BaseCommit, err)
			}
			files, contents, err := tree.Files()
			if err != nil {
				return out, err
			}
			grep, bm = NewGrep(files, contents), NewBM25(files, contents)
			clear(lines)
			for i, f := range files {
				lines[f] = countLines(contents[i])
			}
			cur = in.BaseCommit
			if opt.Embedder != nil {
				if hybrid, err = syncVectors(ctx, st, opt.Embedder); err != nil {
					return out, err
				}
			}
			log.printf("%s %.12s: %d files re-indexed, %d missing blobs, %.1fs", repo, cur, sum.Indexed, len(missing), time.Since(t0).Seconds())
		}
		r, err := evaluateInstance(ctx, st, in, grep, bm, lines, opt, hybrid)
		if err != nil {
			return out, fmt.Errorf("bench: %s: %w", in.ID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func wholeFiles(files []string, lines map[string]int) []LocSpan {
	out := make([]LocSpan, len(files))
	for i, f := range files {
		out[i] = LocSpan{File: f, StartLine: 1, EndLine: max(lines[f], 1)}
	}
	return out
}

func locSpans(rs []search.Result) []LocSpan {
	out := make([]LocSpan, 0, min(len(rs), LocDepth))
	for i, r := range rs {
		if i == LocDepth {
			break
		}
		out = append(out, LocSpan{File: r.Chunk.RelativePath, StartLine: r.Chunk.StartLine, EndLine: r.Chunk.EndLine})
	}
	return out
}

// syncVectors embeds the chunks the last sync left without a vector and
// loads the model's vectors afresh, so that removed chunks leave too.
func syncVectors(ctx context.Context, st *store.Store, emb embed.Embedder) (*search.Hybrid, error) {
	if _, err := index.EmbedPending(ctx, st, emb, index.EmbedOptions{}); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	ix, _, err := vector.Load(st, emb.ModelID(), emb.Dim(), vector.Options{})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return &search.Hybrid{Embedder: emb, Index: ix}, nil
}

func evaluateInstance(ctx context.Context, st *store.Store, in *Instance, grep *Grep, bm *BM25, lines map[string]int, opt RunOptions, hybrid *search.Hybrid) (LocResult, error) {
	res := LocResult{ID: in.ID, Repo: in.Repo, Split: in.Split, Mentions: in.MentionsGoldSymbol, Scores: map[string]LocScore{}}
	res.Scores[LocGrep] = ScoreList(in, wholeFiles(grep.Rank(in.Query, LocDepth), lines))
	res.Scores[LocBM25Files] = ScoreList(in, wholeFiles(bm.Rank(in.Query, LocDepth), lines))
	first, err := firstStage(st, in.Query, 40)
	if err != nil {
		return res, err
	}
	res.Scores[LocBM25Chunks] = ScoreList(in, locSpans(first))

	// The previous ranker, as it shipped: BM25F's 40 best, the fixed-weight
	// reranker, the blend and the gate on the blended score.
	v1 := first
	if len(v1) > 0 {
		docs := make([]rerank.Doc, len(v1))
		for i, c := range v1 {
			docs[i] = search.DocOf(c.Chunk)
		}
		scores, err := (rerank.Builtin{}).Rerank(ctx, in.Query, docs)
		if err != nil {
			return res, err
		}
		v1 = search.Blend(v1, scores, opt.Params)
	}
	res.Scores[LocV1] = ScoreList(in, locSpans(v1))
	res.V1Answer = AnswerOf(in, search.Select(v1, opt.Params), nil)

	p := &search.Pipeline{Store: st, Model: opt.Model}
	m := opt.Model
	if m == nil {
		m = search.DefaultModel
	}
	a, err := ask(ctx, p, m, in.Query, opt.Params)
	if err != nil {
		return res, err
	}
	res.Scores[LocScry] = ScoreList(in, locSpans(a.ranked))
	res.Answer = AnswerOf(in, a.results, a.leads)
	var hp *search.Pipeline
	var hc search.Candidates
	if hybrid != nil {
		vec, err := vectorOnly(ctx, st, hybrid, in.Query, 40)
		if err != nil {
			return res, err
		}
		res.Scores[LocVector] = ScoreList(in, locSpans(vec))
		fused, err := p.Retrieve(ctx, hybrid, search.Request{Query: in.Query, Params: opt.Params}, 40)
		if err != nil {
			return res, err
		}
		res.Scores[LocFused] = ScoreList(in, locSpans(fused))
		hp = &search.Pipeline{Store: st, Model: opt.Model, Hybrid: hybrid}
		h, err := ask(ctx, hp, m, in.Query, opt.Params)
		if err != nil {
			return res, err
		}
		hc = h.cands
		res.Scores[LocHybrid] = ScoreList(in, locSpans(h.ranked))
		res.HybridAnswer = AnswerOf(in, h.results, h.leads)
		res.HybridInCandidates = goldAmong(in, hc.Results)
	}
	res.InCandidates = goldAmong(in, a.cands.Results)
	cands := a.cands
	if hybrid != nil && opt.DumpHybrid {
		p, cands = hp, hc
	}
	return res, dumpCandidates(opt.Dump, p, in, cands)
}

// dumpCandidates writes an instance's candidates to a feature dump (when
// there is one), each read in full first: the dump records every
// candidate's size in tokens, for the fitter's simulation of the default
// answer.
func dumpCandidates(w io.Writer, p *search.Pipeline, in *Instance, cands search.Candidates) error {
	if w == nil {
		return nil
	}
	if err := p.Hydrate(cands.Results); err != nil {
		return err
	}
	return dumpInstance(w, in, cands)
}

// goldAmong reports whether a gold symbol is among rs.
func goldAmong(in *Instance, rs []search.Result) bool {
	for _, r := range rs {
		if ScoreList(in, []LocSpan{{r.Chunk.RelativePath, r.Chunk.StartLine, r.Chunk.EndLine}}).SymbolRank == 1 {
			return true
		}
	}
	return false
}

// AnswerOf measures an answer (its results and leads) against an
// instance's gold: the figures of the default answer.
func AnswerOf(in *Instance, results []search.Result, leads []search.Lead) LocAnswer {
	a := LocAnswer{Results: len(results), Leads: len(leads)}
	for _, r := range results {
		a.Tokens += resultTokens(r)
		sc := ScoreList(in, []LocSpan{{r.Chunk.RelativePath, r.Chunk.StartLine, r.Chunk.EndLine}})
		a.GoldFile = a.GoldFile || sc.FileRank == 1
		a.GoldSymbol = a.GoldSymbol || sc.SymbolRank == 1
	}
	a.GoldFileOrLead = a.GoldFile
	for _, l := range leads {
		sc := ScoreList(in, []LocSpan{{l.Chunk.RelativePath, l.Chunk.StartLine, l.Chunk.EndLine}})
		a.GoldFileOrLead = a.GoldFileOrLead || sc.FileRank == 1
	}
	return a
}

// resultTokens is what a result of an answer costs in tokens: as the
// answer counted it, or its source's count where it left that out.
func resultTokens(r search.Result) int {
	if r.Tokens != 0 {
		return r.Tokens
	}
	return tokens.Count(r.Chunk.FullSource)
}

// DumpCandidate is one candidate in a feature dump.
type DumpCandidate struct {
	File      string    `json:"file"`
	StartLine int       `json:"start_line"`
	EndLine   int       `json:"end_line"`
	Name      string    `json:"name,omitempty"`
	Mirror    string    `json:"mirror,omitempty"`
	Tokens    int       `json:"tokens"`
	Features  []float64 `json:"f"`
}

// JSDocHoldout is the split of JSDoc questions from the benchmark's own
// packages (`scry bench quality --set bench --dump`): reported by the fitter (internal/fit),
// never fitted on. The tune set's questions are in the split "tune".
const JSDocHoldout = "jsdoc-holdout"

// DumpInstance is one instance's line in a feature dump.
type DumpInstance struct {
	Instance
	Candidates []DumpCandidate `json:"candidates"`
	// Unknown is search.Candidates.Unknown: the name asked for is not in
	// the index, and the answer holds leads only.
	Unknown string `json:"unknown,omitempty"`
}

func dumpInstance(w io.Writer, in *Instance, cs search.Candidates) error {
	d := DumpInstance{Instance: *in, Unknown: cs.Unknown}
	for i, r := range cs.Results {
		c := r.Chunk
		f := cs.Features[i]
		d.Candidates = append(d.Candidates, DumpCandidate{
			File: c.RelativePath, StartLine: c.StartLine, EndLine: c.EndLine, Name: c.Name,
			Mirror: search.MirrorKey(r), Tokens: tokens.Count(c.FullSource), Features: f[:],
		})
	}
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("bench: dump: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("bench: dump: %w", err)
	}
	return nil
}
