package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
)

// The questions benchmark: questions of the kinds agents ask (a bare name,
// "how does X work", a behaviour in the domain's words), each labelled
// with the files that answer it, over pinned revisions of public
// repositories (the directory's README gives the form and the scoring).

// QuestionSplit is the split of every question instance: the set is small,
// so it is not split but cross-validated by repository.
const QuestionSplit = "questions"

// QuestionRepo is one repository of the set (repos.json).
type QuestionRepo struct {
	Name          string `json:"name"`
	Language      string `json:"language"`
	Repo          string `json:"repo"`
	Revision      string `json:"revision"`
	BenchmarkRoot string `json:"benchmark_root"`
}

// root is the benchmark root as a clean relative path ("" for the
// repository's top): the directory indexed, and what labels are relative to.
func (r QuestionRepo) root() string {
	return strings.Trim(path.Clean("/"+r.BenchmarkRoot), "/")
}

// question is one line of a repository's question file.
type question struct {
	Query     string   `json:"query"`
	Relevant  []string `json:"relevant"`
	Secondary []string `json:"secondary"`
	Category  string   `json:"category"`
}

// LoadQuestions reads a questions directory (repos.json and one
// <name>.json per repository) into instances: the query, the revision as
// base commit, the relevant and secondary files as gold files (paths
// relative to the benchmark root, where the index is built) with the
// relevant ones also in Relevant.
func LoadQuestions(dir string) ([]QuestionRepo, []Instance, error) {
	var repos []QuestionRepo
	if err := readJSON(filepath.Join(dir, "repos.json"), &repos); err != nil {
		return nil, nil, err
	}
	var out []Instance
	for _, r := range repos {
		if r.Name == "" || r.Repo == "" || r.Revision == "" || strings.Contains(r.Name, "/") {
			return nil, nil, fmt.Errorf("bench: questions %s: a repository needs a plain name, repo and revision", dir)
		}
		var qs []question
		if err := readJSON(filepath.Join(dir, r.Name+".json"), &qs); err != nil {
			return nil, nil, err
		}
		root := r.root()
		rel := func(p string) (string, error) {
			p = path.Clean(p)
			if root == "" {
				return p, nil
			}
			if !strings.HasPrefix(p, root+"/") {
				return "", fmt.Errorf("bench: questions %s: %s lies outside the benchmark root %s", r.Name, p, root)
			}
			return strings.TrimPrefix(p, root+"/"), nil
		}
		for i, q := range qs {
			if strings.TrimSpace(q.Query) == "" || len(q.Relevant) == 0 {
				return nil, nil, fmt.Errorf("bench: questions %s #%d: needs a query and a relevant file", r.Name, i+1)
			}
			in := Instance{ID: fmt.Sprintf("%s-%03d", r.Name, i+1), Repo: r.Repo, Split: QuestionSplit, BaseCommit: r.Revision,
				Query: q.Query, Category: q.Category, Root: root}
			for k, list := range [][]string{q.Relevant, q.Secondary} {
				for _, f := range list {
					p, err := rel(f)
					if err != nil {
						return nil, nil, err
					}
					if k == 0 {
						in.Relevant = append(in.Relevant, p)
					}
					in.GoldFiles = append(in.GoldFiles, p)
				}
			}
			out = append(out, in)
		}
	}
	return repos, out, nil
}

func readJSON(p string, v any) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("bench: %s: %w", p, err)
	}
	return nil
}

// IsQuestion says whether an instance is an agent question.
func (in *Instance) IsQuestion() bool { return in.Split == QuestionSplit }

// NDCG10 scores a ranked list of files (one entry per result, repeats
// allowed) as the questions benchmark does: each gold file is a target of
// gain 1 ranked where its first result is; DCG over the targets in the top
// 10 over the ideal DCG of min(10, targets).
func NDCG10(gold []string, files []string) float64 {
	if len(gold) == 0 {
		return 0
	}
	want := map[string]bool{}
	for _, g := range gold {
		want[g] = true
	}
	dcg := 0.0
	for i, f := range files {
		if i == 10 {
			break
		}
		if want[f] {
			dcg += 1 / math.Log2(float64(i)+2)
			delete(want, f) // repeats of a file gain nothing
		}
	}
	ideal := 0.0
	for i := range min(10, len(gold)) {
		ideal += 1 / math.Log2(float64(i)+2)
	}
	return dcg / ideal
}

// Question systems, as the report names them.
const (
	QGrep   = "grep"
	QBM25   = "bm25-chunks"
	QScry   = "scry"
	QHybrid = "scry-hybrid"
)

// QuestionAnswer is what the default answer (gate, budget, leads) holds
// for one question.
type QuestionAnswer struct {
	Results int `json:"results"`
	Leads   int `json:"leads"`
	Tokens  int `json:"tokens"` // the results' source
	// RelevantInResults: a relevant file (not only a secondary one) holds
	// a full result; TargetInResults: a relevant or secondary file does.
	RelevantInResults bool `json:"relevant_in_results"`
	TargetInResults   bool `json:"target_in_results"`
	// RelevantInAnswer: a relevant file holds a result or is named by a
	// lead.
	RelevantInAnswer bool `json:"relevant_in_answer"`
	// Unknown: the question is a name the index does not hold, and the
	// answer names leads only (search.Candidates.Unknown).
	Unknown bool `json:"unknown,omitempty"`
}

// QuestionResult is one question's outcome.
type QuestionResult struct {
	ID       string `json:"id"`
	Repo     string `json:"repo"`
	Category string `json:"category"`
	// Foreign: asked of another repository than its own (ForeignSplit);
	// it counts only in the report's Foreign figures.
	Foreign bool               `json:"foreign,omitempty"`
	NDCG    map[string]float64 `json:"ndcg10"`
	Answer  QuestionAnswer     `json:"answer"`
	// HybridAnswer is the default answer with the embedder (zero without).
	HybridAnswer QuestionAnswer `json:"hybrid_answer"`
}

// QuestionOptions configure RunQuestions: the repositories and, in
// RunOptions, their questions as instances.
type QuestionOptions struct {
	RunOptions
	Repos []QuestionRepo
}

// RunQuestions indexes each repository's benchmark root at its revision
// and answers its questions with every system.
func RunQuestions(ctx context.Context, opt QuestionOptions) ([]QuestionResult, error) {
	opt.RunOptions = opt.RunOptions.withDefaults()
	log := logger{opt.Log, time.Now()}
	m := opt.Model
	if m == nil {
		m = search.DefaultModel
	}
	var out []QuestionResult
	for _, repo := range opt.Repos {
		var ins []*Instance
		for i := range opt.Instances {
			if opt.Instances[i].Repo == repo.Repo {
				ins = append(ins, &opt.Instances[i])
			}
		}
		if len(ins) == 0 {
			continue
		}
		rs, err := answerRepo(ctx, opt, log, m, repo, ins)
		out = append(out, rs...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// answerRepo indexes one repository's benchmark root at its revision and
// answers its questions (ins, not empty) with the model m. It returns the
// answers up to the first error and closes the index, however it ends.
func answerRepo(ctx context.Context, opt QuestionOptions, log logger, m *search.Model, repo QuestionRepo, ins []*Instance) ([]QuestionResult, error) {
	t0 := time.Now()
	st, tree, err := questionIndex(ctx, opt, repo)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	files, contents, err := tree.Files()
	if err != nil {
		return nil, err
	}
	files, contents = underRoot(files, contents, ins[0].Root)
	grep := NewGrep(files, contents)
	var hybrid *search.Hybrid
	if opt.Embedder != nil {
		if hybrid, err = syncVectors(ctx, st, opt.Embedder); err != nil {
			return nil, err
		}
	}
	log.printf("%s %.12s: %d files under %s indexed in %.1fs", repo.Repo, repo.Revision, len(files), ins[0].Root, time.Since(t0).Seconds())
	var out []QuestionResult
	for _, in := range ins {
		r, err := answerQuestion(ctx, st, in, grep, m, hybrid, opt)
		if err != nil {
			return out, fmt.Errorf("bench: %s: %w", in.ID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// questionIndex materialises a repository at its revision and indexes its
// benchmark root afresh.
func questionIndex(ctx context.Context, opt QuestionOptions, repo QuestionRepo) (*store.Store, *Tree, error) {
	gitDir, err := MirrorDir(opt.Mirrors, repo.Repo)
	if err != nil {
		return nil, nil, err
	}
	slug := strings.ReplaceAll(repo.Repo, "/", "+")
	tree, err := NewTree(gitDir, filepath.Join(opt.Work, slug, "tree"))
	if err != nil {
		return nil, nil, err
	}
	if _, err := tree.Checkout(ctx, repo.Revision); err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(tree.Dir, filepath.FromSlash(repo.root()))
	dbPath := filepath.Join(opt.Work, slug, "questions.db")
	_ = removeIndex(dbPath) // one that cannot be removed is synced up to date
	_, st, ix, err := openIndex(dir, dbPath)
	if err != nil {
		return nil, nil, err
	}
	if _, err := ix.Sync(ctx); err != nil {
		st.Close()
		return nil, nil, fmt.Errorf("bench: index %s: %w", repo.Repo, err)
	}
	return st, tree, nil
}

// underRoot keeps the files under root, relative to it.
func underRoot(files []string, contents [][]byte, root string) ([]string, [][]byte) {
	if root == "" {
		return files, contents
	}
	var fs []string
	var cs [][]byte
	for i, f := range files {
		if rest, ok := strings.CutPrefix(f, root+"/"); ok {
			fs = append(fs, rest)
			cs = append(cs, contents[i])
		}
	}
	return fs, cs
}

// askPipeline asks one question of a pipeline: its candidates, the ranked
// list's NDCG@10 and the default answer.
func askPipeline(ctx context.Context, p *search.Pipeline, m *search.Model, in *Instance, params search.Params) (search.Candidates, float64, QuestionAnswer, error) {
	a, err := ask(ctx, p, m, in.Query, params)
	if err != nil {
		return search.Candidates{}, 0, QuestionAnswer{}, err
	}
	answer := QuestionAnswerOf(in, a.results, a.leads)
	answer.Unknown = a.cands.Unknown != ""
	return a.cands, NDCG10(in.GoldFiles, resultFiles(a.ranked)), answer, nil
}

func answerQuestion(ctx context.Context, st *store.Store, in *Instance, grep *Grep, m *search.Model, hybrid *search.Hybrid, opt QuestionOptions) (QuestionResult, error) {
	res := QuestionResult{ID: in.ID, Repo: in.Repo, Category: in.Category, Foreign: in.Split == ForeignSplit, NDCG: map[string]float64{}}
	res.NDCG[QGrep] = NDCG10(in.GoldFiles, grep.Rank(in.Query, 10))
	first, err := firstStage(st, in.Query, 10)
	if err != nil {
		return res, err
	}
	res.NDCG[QBM25] = NDCG10(in.GoldFiles, resultFiles(first))
	p := &search.Pipeline{Store: st, Model: opt.Model}
	cands, ndcg, answer, err := askPipeline(ctx, p, m, in, opt.Params)
	if err != nil {
		return res, err
	}
	res.NDCG[QScry], res.Answer = ndcg, answer
	if hybrid != nil {
		hp := &search.Pipeline{Store: st, Model: opt.Model, Hybrid: hybrid}
		hc, ndcg, answer, err := askPipeline(ctx, hp, m, in, opt.Params)
		if err != nil {
			return res, err
		}
		res.NDCG[QHybrid], res.HybridAnswer = ndcg, answer
		if opt.DumpHybrid {
			p, cands = hp, hc
		}
	}
	if res.Foreign {
		// Nothing to fit on: the question has no answer here.
		return res, nil
	}
	return res, dumpCandidates(opt.Dump, p, in, cands)
}

func resultFiles(rs []search.Result) []string {
	out := make([]string, 0, min(len(rs), 10))
	for _, r := range rs {
		if len(out) == 10 {
			break
		}
		out = append(out, r.Chunk.RelativePath)
	}
	return out
}

// QuestionAnswerOf says what a default answer holds for a question.
func QuestionAnswerOf(in *Instance, results []search.Result, leads []search.Lead) QuestionAnswer {
	relevant, target := map[string]bool{}, map[string]bool{}
	for _, f := range in.Relevant {
		relevant[f] = true
	}
	for _, f := range in.GoldFiles {
		target[f] = true
	}
	a := QuestionAnswer{Results: len(results), Leads: len(leads)}
	for _, r := range results {
		a.Tokens += resultTokens(r)
		a.RelevantInResults = a.RelevantInResults || relevant[r.Chunk.RelativePath]
		a.TargetInResults = a.TargetInResults || target[r.Chunk.RelativePath]
	}
	a.RelevantInAnswer = a.RelevantInResults
	for _, l := range leads {
		a.RelevantInAnswer = a.RelevantInAnswer || relevant[l.Chunk.RelativePath]
	}
	return a
}

// QuestionReport is the questions benchmark's report.
type QuestionReport struct {
	Systems []string `json:"systems"`
	// Repos and Categories are NDCG@10 means per system; Overall is the
	// mean of the repository means.
	Repos      map[string]map[string]float64 `json:"repos"`
	Categories map[string]map[string]float64 `json:"categories"`
	Overall    map[string]float64            `json:"overall"`
	Answer     QuestionAnswerMetrics         `json:"answer"`
	// AnswerByCategory is Answer per category.
	AnswerByCategory map[string]QuestionAnswerMetrics `json:"answer_by_category"`
	HybridAnswer     *QuestionAnswerMetrics           `json:"hybrid_answer,omitempty"`
	// Foreign and HybridForeign summarise the answers to the questions
	// asked of other repositories (--foreign), per category; they count in
	// none of the figures above.
	Foreign       []ForeignAnswers `json:"foreign,omitempty"`
	HybridForeign []ForeignAnswers `json:"hybrid_foreign,omitempty"`
	Results       []QuestionResult `json:"results"`
}

// QuestionAnswerMetrics summarise default answers.
type QuestionAnswerMetrics struct {
	N                 int     `json:"n"`
	RelevantInResults float64 `json:"relevant_in_results"`
	TargetInResults   float64 `json:"target_in_results"`
	LeadsOnly         float64 `json:"leads_only"`
	RelevantInAnswer  float64 `json:"relevant_in_answer"`
	MedianResults     int     `json:"median_results"`
	MedianTokens      int     `json:"median_tokens"`
}

func summarizeQuestionAnswers(as []QuestionAnswer) QuestionAnswerMetrics {
	m := QuestionAnswerMetrics{N: len(as)}
	var res, toks []int
	for _, a := range as {
		m.RelevantInResults += b2f(a.RelevantInResults)
		m.TargetInResults += b2f(a.TargetInResults)
		m.LeadsOnly += b2f(a.Results == 0)
		m.RelevantInAnswer += b2f(a.RelevantInAnswer)
		res = append(res, a.Results)
		toks = append(toks, a.Tokens)
	}
	meansOver(len(as), &m.RelevantInResults, &m.TargetInResults, &m.LeadsOnly, &m.RelevantInAnswer)
	m.MedianResults, m.MedianTokens = median(res), median(toks)
	return m
}

func b2f(x bool) float64 {
	if x {
		return 1
	}
	return 0
}

// NewQuestionReport groups results by repository and category.
func NewQuestionReport(all []QuestionResult) *QuestionReport {
	var results, foreign []QuestionResult
	for _, x := range all {
		if x.Foreign {
			foreign = append(foreign, x)
		} else {
			results = append(results, x)
		}
	}
	r := &QuestionReport{Repos: map[string]map[string]float64{}, Categories: map[string]map[string]float64{},
		Overall: map[string]float64{}, AnswerByCategory: map[string]QuestionAnswerMetrics{}, Results: all}
	if len(results) > 0 {
		for _, s := range []string{QGrep, QBM25, QScry, QHybrid} {
			if _, ok := results[0].NDCG[s]; ok {
				r.Systems = append(r.Systems, s)
			}
		}
	}
	means := func(key func(QuestionResult) string) map[string]map[string]float64 {
		sum, n := map[string]map[string]float64{}, map[string]int{}
		for _, x := range results {
			k := key(x)
			if sum[k] == nil {
				sum[k] = map[string]float64{}
			}
			for s, v := range x.NDCG {
				sum[k][s] += v
			}
			n[k]++
		}
		for k, m := range sum {
			for s := range m {
				m[s] /= float64(n[k])
			}
		}
		return sum
	}
	r.Repos = means(func(x QuestionResult) string { return x.Repo })
	r.Categories = means(func(x QuestionResult) string { return x.Category })
	for _, m := range r.Repos {
		for s, v := range m {
			r.Overall[s] += v / float64(len(r.Repos))
		}
	}
	var as, hs []QuestionAnswer
	byCat := map[string][]QuestionAnswer{}
	for _, x := range results {
		as = append(as, x.Answer)
		hs = append(hs, x.HybridAnswer)
		byCat[x.Category] = append(byCat[x.Category], x.Answer)
	}
	r.Answer = summarizeQuestionAnswers(as)
	for c, a := range byCat {
		r.AnswerByCategory[c] = summarizeQuestionAnswers(a)
	}
	if slicesContain(r.Systems, QHybrid) {
		h := summarizeQuestionAnswers(hs)
		r.HybridAnswer = &h
	}
	r.Foreign, r.HybridForeign = foreignByCategory(foreign, slicesContain(r.Systems, QHybrid))
	return r
}

// foreignByCategory summarises foreign answers, all of them first, then
// per category; the hybrid ones too when the run has them.
func foreignByCategory(results []QuestionResult, hybrid bool) (lex, hyb []ForeignAnswers) {
	if len(results) == 0 {
		return nil, nil
	}
	byCat := map[string][]QuestionResult{"all": results}
	cats := []string{"all"}
	for _, x := range results {
		if byCat[x.Category] == nil {
			cats = append(cats, x.Category)
		}
		byCat[x.Category] = append(byCat[x.Category], x)
	}
	sort.Strings(cats[1:])
	for _, c := range cats {
		var as, hs []QuestionAnswer
		for _, x := range byCat[c] {
			as, hs = append(as, x.Answer), append(hs, x.HybridAnswer)
		}
		lex = append(lex, summarizeForeign(c, as))
		if hybrid {
			hyb = append(hyb, summarizeForeign(c, hs))
		}
	}
	return lex, hyb
}

func slicesContain(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// WriteText writes the report as Markdown tables.
func (r *QuestionReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Agent questions (NDCG@10, %d questions)\n\n", r.Answer.N)
	fmt.Fprintf(&b, "| set |")
	for _, s := range r.Systems {
		fmt.Fprintf(&b, " %s |", s)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(r.Systems)) + "\n")
	row := func(name string, m map[string]float64) {
		fmt.Fprintf(&b, "| %s |", name)
		for _, s := range r.Systems {
			fmt.Fprintf(&b, " %.3f |", m[s])
		}
		b.WriteString("\n")
	}
	row("**overall** (mean of repositories)", r.Overall)
	for _, c := range sortedKeys(r.Categories) {
		row("category "+c, r.Categories[c])
	}
	for _, k := range sortedKeys(r.Repos) {
		row(k, r.Repos[k])
	}
	b.WriteString("\n### Default answers\n\n| set | n | relevant file in full results | relevant or secondary in full results | leads only | relevant in results or leads | median results | median tokens |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	arow := func(name string, a QuestionAnswerMetrics) {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %d | %d |\n", name, a.N, pct(a.RelevantInResults), pct(a.TargetInResults),
			pct(a.LeadsOnly), pct(a.RelevantInAnswer), a.MedianResults, a.MedianTokens)
	}
	arow("all", r.Answer)
	for _, c := range sortedKeys(r.AnswerByCategory) {
		arow("category "+c, r.AnswerByCategory[c])
	}
	if r.HybridAnswer != nil {
		arow("all, hybrid", *r.HybridAnswer)
	}
	if len(r.Foreign) > 0 {
		writeForeign(&b, "Asked of another repository (no answer there)", r.Foreign)
	}
	if len(r.HybridForeign) > 0 {
		writeForeign(&b, "Asked of another repository, hybrid", r.HybridForeign)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
