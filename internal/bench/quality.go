package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/terms"
	"github.com/scry-dev/scry/internal/tokens"
	"github.com/scry-dev/scry/internal/vector"
	"github.com/scry-dev/scry/internal/workspace"
)

// DefaultPerPackage caps the queries taken from one package, so that a
// package with thousands of documented functions (effect) does not decide
// the overall figures alone.
const DefaultPerPackage = 120

// DefaultSeed picks the queries. Changing it gives another sample of the
// same population; the figures move by a point or two, which is the
// benchmark's noise.
const DefaultSeed = 1

// BenchMaxFileSize is the workspace's file size limit in the benchmarks:
// large enough for typescript.js (9 MB), so that no file of the corpus is
// left out for its size.
const BenchMaxFileSize = 16 << 20

// QualityOptions configure RunQuality.
type QualityOptions struct {
	// Prefix is the npm prefix the packages are installed under
	// (<Prefix>/node_modules/<name>), as scripts/bench-corpus.sh does.
	Prefix     string
	Packages   []Package // default QualityPackages
	PerPackage int       // default DefaultPerPackage; negative: no cap
	Seed       uint64    // default DefaultSeed
	// WorkDir receives the stripped corpus and its index; "" uses a
	// temporary directory removed afterwards.
	WorkDir string
	// Params are the pipeline's parameters; zero means search.DefaultParams.
	Params search.Params
	// Log receives progress lines; nil discards them.
	Log io.Writer
	// Hybrid, when set, adds the hybrid system; nil reports it as not
	// available (no embedder configured).
	Hybrid HybridOpener
	// Dump, when set, receives every query's candidates and features in
	// the format of `scry bench localize --dump`, as instances of the split
	// DumpSplit, so that `scry bench fit` can fit on JSDoc questions too.
	Dump      io.Writer
	DumpSplit string
	// DumpHybrid dumps the hybrid pipeline's candidates instead of the
	// lexical ones (needs Hybrid).
	DumpHybrid bool
}

// System names, in report order. Every system answers the same queries on
// the same corpus in the same run.
const (
	SysGrep    = "grep"
	SysBM25    = "bm25-files"
	SysLexical = "scry-lexical"
	SysV1      = "scry-v1"
	SysFull    = "scry"
	SysHybrid  = "scry-hybrid"
	// SysVector and SysFused isolate the embedder: its nearest chunks
	// alone, and the first stage with them fused in (no ranker).
	SysVector = "scry-vector"
	SysFused  = "scry-lexical+vector"
)

var systemDescriptions = map[string]string{
	SysGrep:    "files ranked by distinct query words contained (grep -ric), ties by occurrences",
	SysBM25:    "BM25 (k1=1.2, b=0.75) over whole files, scry's term normalisation",
	SysLexical: "scry first stage only: BM25F over symbol chunks, no reranker",
	SysV1:      "the previous ranker: 40 BM25F candidates, fixed-weight reranker, blend",
	SysFull:    "scry's fitted ranker: deep candidates, features, linear model and regression trees (model.json)",
	SysHybrid:  "scry's fitted ranker with vector candidates fused in (reciprocal rank)",
	SysVector:  "the embedder alone: the chunks nearest the query's vector",
	SysFused:   "scry's first stage with vector candidates fused in (reciprocal rank), no ranker",
}

// fileOnly systems rank files, so they have no symbol-level figures.
var fileOnly = map[string]bool{SysGrep: true, SysBM25: true}

// Rank is where one system put one query's answer (1-based; 0: not in the
// top TopK). Symbol is -1 for systems that rank files only.
type Rank struct {
	Symbol int `json:"symbol"`
	File   int `json:"file"`
}

// QueryResult is one query's outcome in every system.
type QueryResult struct {
	Query
	Ranks map[string]Rank `json:"ranks"`
	// InCandidates: the answer is among the first-stage candidates, the
	// most that any reranker can put into the top 10.
	InCandidates bool `json:"in_candidates"`
	// The default selection (relevance gate and token budget) of the real
	// pipeline: how many results it returned, their tokens, and whether
	// the answer (or its file) is among them.
	Selected        int  `json:"selected"`
	SelectedTokens  int  `json:"selected_tokens"`
	AnswerSelected  bool `json:"answer_selected"`
	FileSelected    bool `json:"file_selected"`
	AnswerTokens    int  `json:"answer_tokens"`
	GrepTop1Tokens  int  `json:"grep_top1_tokens"`
	GrepTop5Tokens  int  `json:"grep_top5_tokens"`
	selectionDiffer bool
}

// SystemReport holds one system's metrics, overall and per package.
type SystemReport struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Symbol      *Metrics         `json:"symbol,omitempty"`
	File        Metrics          `json:"file"`
	PerPackage  []PackageMetrics `json:"per_package"`
}

// PackageMetrics are one system's metrics on one package's queries.
type PackageMetrics struct {
	Package string   `json:"package"`
	Symbol  *Metrics `json:"symbol,omitempty"`
	File    Metrics  `json:"file"`
}

// SelectionMetrics describe what the default selection returns.
type SelectionMetrics struct {
	Package string `json:"package,omitempty"`
	N       int    `json:"n"`
	// AnswerSelected and FileSelected are shares of queries.
	AnswerSelected float64 `json:"answer_selected"`
	FileSelected   float64 `json:"file_selected"`
	// Empty is the share of queries for which nothing passed the gate.
	Empty       float64 `json:"empty"`
	MeanResults float64 `json:"mean_results"`
	MeanTokens  float64 `json:"mean_tokens"`
	// CandidateRecall is the share of answers among the first-stage
	// candidates.
	CandidateRecall float64 `json:"candidate_recall"`
}

// TokenCosts compare what an agent reads.
type TokenCosts struct {
	// Answer is the mean size of the answer symbol itself: the least any
	// tool could return.
	Answer float64 `json:"answer"`
	// ScrySelected is the mean of the default selection's tokens.
	ScrySelected float64 `json:"scry_selected"`
	// GrepTop1 and GrepTop5 are the mean tokens of reading grep's best
	// file, or its best five, whole.
	GrepTop1 float64 `json:"grep_top1"`
	GrepTop5 float64 `json:"grep_top5"`
}

// QualityReport is the outcome of RunQuality.
type QualityReport struct {
	Packages   []PackageStats `json:"packages"`
	Seed       uint64         `json:"seed"`
	PerPackage int            `json:"per_package_cap"`
	Queries    int            `json:"queries"`
	// Dropped counts sampled answers that the parser no longer finds as the
	// same symbol once their JSDoc is blank (error recovery in files with
	// syntax the grammar does not know can change).
	Dropped int `json:"dropped"`
	// NamesAnswer is the share of queries that contain the answer's name.
	NamesAnswer float64        `json:"names_answer"`
	Params      search.Params  `json:"params"`
	Index       IndexStats     `json:"index"`
	Systems     []SystemReport `json:"systems"`
	// Selection is the default selection of the full pipeline, overall
	// then per package.
	Selection  SelectionMetrics   `json:"selection"`
	SelectionP []SelectionMetrics `json:"selection_per_package"`
	Tokens     TokenCosts         `json:"tokens"`
	// Hybrid says whether the hybrid (BM25F + vectors) system is in
	// Systems, and with which embedder, or why it is missing.
	Hybrid string `json:"hybrid"`
	// SelectionMismatches counts queries where the benchmark's replica of
	// the pipeline, selected with search.Select, disagreed with the real
	// pipeline; non-zero means the ablations no longer measure scry.
	SelectionMismatches int `json:"selection_mismatches"`
	// HeadToHead compares scry's file rank with each baseline's, query by
	// query.
	HeadToHead []HeadToHead `json:"head_to_head"`
	Seconds    float64      `json:"seconds"`

	Results []QueryResult `json:"-"`
}

// HeadToHead counts the queries on which system A put the answer's file
// higher than system B (a miss ranks below every hit), lower, or the same.
type HeadToHead struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Better int    `json:"better"`
	Worse  int    `json:"worse"`
	Tied   int    `json:"tied"`
}

func headToHead(results []QueryResult, a, b string) HeadToHead {
	h := HeadToHead{A: a, B: b}
	key := func(r int) int {
		if r <= 0 {
			return TopK + 1
		}
		return r
	}
	for _, q := range results {
		ra, rb := key(q.Ranks[a].File), key(q.Ranks[b].File)
		switch {
		case ra < rb:
			h.Better++
		case ra > rb:
			h.Worse++
		default:
			h.Tied++
		}
	}
	return h
}

// IndexStats describe the indexed corpus.
type IndexStats struct {
	Files   int     `json:"files"`
	Chunks  int     `json:"chunks"`
	Skipped int     `json:"skipped"`
	Seconds float64 `json:"seconds"`
}

// logger prints progress lines stamped with the time since the run began.
type logger struct {
	w     io.Writer
	start time.Time
}

func (l logger) printf(format string, args ...any) {
	if l.w != nil {
		fmt.Fprintf(l.w, "[%6.1fs] "+format+"\n", append([]any{time.Since(l.start).Seconds()}, args...)...)
	}
}

// RunQuality builds the corpus, indexes it and answers every query with
// every system.
func RunQuality(ctx context.Context, opt QualityOptions) (*QualityReport, error) {
	start := time.Now()
	log := logger{opt.Log, start}
	if opt.Packages == nil {
		opt.Packages = QualityPackages
	}
	if opt.PerPackage == 0 {
		opt.PerPackage = DefaultPerPackage
	}
	if opt.Seed == 0 {
		opt.Seed = DefaultSeed
	}
	if opt.Params == (search.Params{}) {
		opt.Params = search.DefaultParams()
	}
	work, cleanup, files, err := prepareWork(opt.WorkDir, "quality", opt.Prefix, opt.Packages)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	corpusDir := filepath.Join(work, "corpus")
	log.printf("quality: extracting queries from %d files", len(files))
	c, err := buildCorpus(files, opt.Packages, corpusDir, opt.Seed, opt.PerPackage, true)
	if err != nil {
		return nil, err
	}
	if len(c.Queries) == 0 {
		return nil, fmt.Errorf("bench: no queries in the corpus")
	}

	log.printf("quality: indexing %s", corpusDir)
	st, ist, err := indexCorpus(ctx, corpusDir, filepath.Join(work, "index.db"))
	if err != nil {
		return nil, err
	}
	defer st.Close()

	var hybrid *search.Hybrid
	hybridName := ""
	if opt.Hybrid != nil {
		log.printf("quality: embedding the corpus")
		if hybrid, hybridName, err = opt.Hybrid(ctx, st); err != nil {
			return nil, err
		}
	}

	log.printf("quality: building the grep and BM25 baselines")
	paths := make([]string, len(c.Files))
	contents := make([][]byte, len(c.Files))
	for i, f := range c.Files {
		paths[i], contents[i] = f.Rel, f.src
	}
	var grep *Grep
	var bm *BM25
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); grep = NewGrep(paths, contents) }()
	go func() { defer wg.Done(); bm = NewBM25(paths, contents) }()
	wg.Wait()
	ftok := newFileTokens(paths, contents)

	log.printf("quality: answering %d queries", len(c.Queries))
	ev := &evaluator{store: st, grep: grep, bm25: bm, prm: opt.Params, ftok: ftok, hybrid: hybrid, dump: opt.Dump, dumpSplit: opt.DumpSplit, dumpHybrid: opt.DumpHybrid}
	results := make([]QueryResult, len(c.Queries))
	errs := make([]error, len(c.Queries))
	onAllCPUs(ctx, len(c.Queries), func(i int) {
		results[i], errs[i] = ev.evaluate(ctx, c.Queries[i])
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}

	r := summarize(results, c, opt, hybrid != nil)
	if hybrid != nil {
		r.Hybrid = "included as " + SysHybrid + " (embedder " + hybridName + "); the default selection below is the lexical pipeline's"
	}
	r.Index = ist
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// indexCorpus indexes dir into a new store at dbPath, as `scry index` would
// with the benchmark's file size limit.
func indexCorpus(ctx context.Context, dir, dbPath string) (*store.Store, IndexStats, error) {
	var ist IndexStats
	if err := removeIndex(dbPath); err != nil {
		return nil, ist, err
	}
	_, st, ix, err := openIndex(dir, dbPath)
	if err != nil {
		return nil, ist, err
	}
	t0 := time.Now()
	sum, err := ix.Sync(ctx)
	if err != nil {
		st.Close()
		return nil, ist, fmt.Errorf("bench: %w", err)
	}
	ist.Seconds = time.Since(t0).Seconds()
	ist.Files, ist.Skipped = sum.Indexed, sum.SkippedTotal()
	if _, ist.Chunks, err = st.Stats(); err != nil {
		st.Close()
		return nil, ist, fmt.Errorf("bench: %w", err)
	}
	return st, ist, nil
}

// removeIndex removes the index at dbPath with its -wal and -shm files; it
// returns the first failure other than a file that is not there.
func removeIndex(dbPath string) error {
	var first error
	for _, p := range []string{dbPath, dbPath + "-wal", dbPath + "-shm"} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) && first == nil {
			first = fmt.Errorf("bench: %w", err)
		}
	}
	return first
}

// openIndex opens the index at dbPath and an indexer of the workspace dir
// over it, as `scry index` would with the benchmark's file size limit. The
// caller closes the store.
func openIndex(dir, dbPath string) (*workspace.Root, *store.Store, *index.Indexer, error) {
	root, err := workspace.NewRoot(dir)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bench: %w", err)
	}
	st, err := store.Open(dbPath)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bench: %w", err)
	}
	return root, st, index.New(root, st, index.Options{Workspace: workspace.Options{MaxFileSize: BenchMaxFileSize}}), nil
}

// fileTokens counts the tokens of corpus files once, on demand.
type fileTokens struct {
	mu     sync.Mutex
	byPath map[string]int
	src    map[string][]byte
}

func newFileTokens(paths []string, contents [][]byte) *fileTokens {
	ft := &fileTokens{byPath: map[string]int{}, src: map[string][]byte{}}
	for i, p := range paths {
		ft.src[p] = contents[i]
	}
	return ft
}

func (ft *fileTokens) count(p string) int {
	ft.mu.Lock()
	n, ok := ft.byPath[p]
	ft.mu.Unlock()
	if ok {
		return n
	}
	n = tokens.Count(string(ft.src[p]))
	ft.mu.Lock()
	ft.byPath[p] = n
	ft.mu.Unlock()
	return n
}

type evaluator struct {
	store  *store.Store
	grep   *Grep
	bm25   *BM25
	prm    search.Params
	ftok   *fileTokens
	hybrid *search.Hybrid // nil: no embedder

	dump       io.Writer
	dumpSplit  string
	dumpHybrid bool
	dumpMu     sync.Mutex
}

// evaluate answers one query with every system. The scry variants share
// one first-stage candidate list and are built from the pipeline's own
// pieces (search.DocOf, the built-in reranker, search.Blend, search.Select),
// so that switching a stage off changes only that stage.
func (e *evaluator) evaluate(ctx context.Context, q Query) (QueryResult, error) {
	res := QueryResult{Query: q, Ranks: map[string]Rank{}}
	answer := Span{File: q.File, StartLine: q.StartLine, EndLine: q.EndLine, Name: q.Name}
	fileRank := func(files []string) int {
		return RankOf(files, TopK, func(f string) bool { return f == q.File })
	}

	g := e.grep.Rank(q.Text, TopK)
	res.Ranks[SysGrep] = Rank{Symbol: -1, File: fileRank(g)}
	for i, f := range g {
		n := e.ftok.count(f)
		if i == 0 {
			res.GrepTop1Tokens = n
		}
		if i < 5 {
			res.GrepTop5Tokens += n
		}
	}
	res.Ranks[SysBM25] = Rank{Symbol: -1, File: fileRank(e.bm25.Rank(q.Text, TopK))}

	cands, err := firstStage(e.store, q.Text, e.prm.Candidates)
	if err != nil {
		return res, err
	}
	docs := make([]rerank.Doc, len(cands))
	for i, c := range cands {
		docs[i] = search.DocOf(c.Chunk)
	}
	var scores []float64
	if len(cands) > 0 {
		if scores, err = (rerank.Builtin{}).Rerank(ctx, q.Text, docs); err != nil {
			return res, err
		}
	}
	pl := &search.Pipeline{Store: e.store}
	gathered, err := pl.Gather(ctx, search.Request{Query: q.Text, Params: e.prm})
	if err != nil {
		return res, err
	}
	if e.dump != nil && !(e.dumpHybrid && e.hybrid != nil) {
		if err := e.dumpQuery(q, gathered); err != nil {
			return res, err
		}
	}
	full := search.ApplyModel(search.DefaultModel, gathered)
	lists := map[string][]search.Result{
		SysLexical: cands,
		SysV1:      search.Blend(cands, scores, e.prm),
		SysFull:    full,
	}
	if e.hybrid != nil {
		hp := &search.Pipeline{Store: e.store, Hybrid: e.hybrid}
		hg, err := hp.Gather(ctx, search.Request{Query: q.Text, Params: e.prm})
		if err != nil {
			return res, err
		}
		lists[SysHybrid] = search.ApplyModel(search.DefaultModel, hg)
		if e.dump != nil && e.dumpHybrid {
			if err := e.dumpQuery(q, hg); err != nil {
				return res, err
			}
		}
		if lists[SysVector], err = vectorOnly(ctx, e.store, e.hybrid, q.Text, e.prm.Candidates); err != nil {
			return res, err
		}
		if lists[SysFused], err = pl.Retrieve(ctx, e.hybrid, search.Request{Query: q.Text, Params: e.prm}, e.prm.Candidates); err != nil {
			return res, err
		}
	}
	for name, list := range lists {
		spans := spansOf(list)
		res.Ranks[name] = Rank{
			Symbol: RankOf(spans, TopK, func(s Span) bool { return SymbolHit(s, answer) }),
			File:   fileRank(DistinctFiles(spans)),
		}
	}
	res.InCandidates = RankOf(spansOf(gathered.Results), len(gathered.Results), func(s Span) bool { return SymbolHit(s, answer) }) > 0

	// What the agent receives: the real pipeline with the default gate and
	// budget.
	resp, err := (&search.Pipeline{Store: e.store}).Search(ctx, search.Request{Query: q.Text, Params: e.prm})
	if err != nil {
		return res, err
	}
	res.Selected = len(resp.Results)
	for _, r := range resp.Results {
		res.SelectedTokens += r.Tokens
		s := spanOf(r)
		if SymbolHit(s, answer) {
			res.AnswerSelected = true
		}
		if s.File == q.File {
			res.FileSelected = true
		}
	}
	replica, _, err := pl.Answer(full, gathered.Unknown, e.prm)
	if err != nil {
		return res, err
	}
	res.selectionDiffer = !sameChunks(replica, resp.Results)
	if chunks, err := e.store.ChunksByFile(q.File); err == nil {
		for _, c := range chunks {
			if c.StartLine == q.StartLine && c.EndLine == q.EndLine && c.Name == q.Name {
				res.AnswerTokens = tokens.Count(c.FullSource)
				break
			}
		}
	}
	return res, nil
}

// vectorOnly returns the n chunks nearest the query's vector, best first.
func vectorOnly(ctx context.Context, st *store.Store, h *search.Hybrid, query string, n int) ([]search.Result, error) {
	if n <= 0 {
		n = search.DefaultParams().Candidates
	}
	v, err := h.Embedder.EmbedQuery(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("bench: embed query: %w", err)
	}
	hits, err := h.Index.Search(vector.Query{Vector: v, K: n})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	out := make([]search.Result, 0, len(hits))
	for _, hit := range hits {
		c, err := st.Chunk(hit.ID)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		out = append(out, search.Result{Chunk: c, FirstStage: float64(hit.Score)})
	}
	return out, nil
}

// dumpQuery writes one question as a localization instance: the gold file
// is the answer's file and the gold symbol the answer.
func (e *evaluator) dumpQuery(q Query, cs search.Candidates) error {
	in := Instance{
		ID: fmt.Sprintf("jsdoc/%s/%d", q.Package, q.ID), Repo: "jsdoc/" + q.Package, Split: e.dumpSplit,
		Query: q.Text, GoldFiles: []string{q.File},
		GoldSymbols:        []GoldSymbol{{File: q.File, Name: q.Name, QualifiedName: q.Name, StartLine: q.StartLine, EndLine: q.EndLine}},
		MentionsGoldSymbol: q.NamesAnswer,
	}
	e.dumpMu.Lock()
	defer e.dumpMu.Unlock()
	return dumpInstance(e.dump, &in, cs)
}

// firstStage is the pipeline's candidate step: BM25F hits with scores
// normalised by the best one.
func firstStage(st *store.Store, query string, n int) ([]search.Result, error) {
	if n <= 0 {
		n = search.DefaultParams().Candidates
	}
	hits, err := st.Search(chunkindex.Query{Terms: terms.Query(query), Limit: n})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	top := 0.0
	for _, h := range hits {
		top = max(top, h.Score)
	}
	out := make([]search.Result, len(hits))
	for i, h := range hits {
		fs := 0.0
		if top > 0 {
			fs = h.Score / top
		}
		out[i] = search.Result{Chunk: h.Chunk, FirstStage: fs}
	}
	return out, nil
}

func spanOf(r search.Result) Span {
	c := r.Chunk
	return Span{File: c.RelativePath, StartLine: c.StartLine, EndLine: c.EndLine, Name: c.Name}
}

func spansOf(rs []search.Result) []Span {
	out := make([]Span, len(rs))
	for i, r := range rs {
		out[i] = spanOf(r)
	}
	return out
}

func sameChunks(a, b []search.Result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Chunk.ID != b[i].Chunk.ID {
			return false
		}
	}
	return true
}

// systemOrder is the report's row order.
var systemOrder = []string{SysGrep, SysBM25, SysLexical, SysV1, SysFull}

func summarize(results []QueryResult, c *corpus, opt QualityOptions, withHybrid bool) *QualityReport {
	r := &QualityReport{
		Packages: c.Packages, Seed: opt.Seed, PerPackage: opt.PerPackage, Queries: len(results),
		Dropped: c.Dropped, Params: opt.Params, Results: results,
		Hybrid: "n/a (no embedder configured)",
	}
	named := 0
	for _, q := range results {
		if q.NamesAnswer {
			named++
		}
		if q.selectionDiffer {
			r.SelectionMismatches++
		}
	}
	r.NamesAnswer = float64(named) / float64(len(results))

	byPkg := func(pkg string) []QueryResult {
		if pkg == "" {
			return results
		}
		var out []QueryResult
		for _, q := range results {
			if q.Package == pkg {
				out = append(out, q)
			}
		}
		return out
	}
	metricsOf := func(qs []QueryResult, sys string) (*Metrics, Metrics) {
		var sym, file []int
		for _, q := range qs {
			sym = append(sym, q.Ranks[sys].Symbol)
			file = append(file, q.Ranks[sys].File)
		}
		var sm *Metrics
		if !fileOnly[sys] {
			m := Summarize(sym)
			sm = &m
		}
		return sm, Summarize(file)
	}
	systems := systemOrder
	if withHybrid {
		systems = append(append([]string(nil), systemOrder...), SysVector, SysFused, SysHybrid)
	}
	for _, sys := range systems {
		sr := SystemReport{Name: sys, Description: systemDescriptions[sys]}
		sr.Symbol, sr.File = metricsOf(results, sys)
		for _, p := range c.Packages {
			qs := byPkg(p.Name)
			if len(qs) == 0 {
				continue
			}
			pm := PackageMetrics{Package: p.Name}
			pm.Symbol, pm.File = metricsOf(qs, sys)
			sr.PerPackage = append(sr.PerPackage, pm)
		}
		r.Systems = append(r.Systems, sr)
	}

	r.HeadToHead = []HeadToHead{headToHead(results, SysFull, SysGrep), headToHead(results, SysFull, SysBM25)}
	r.Selection = selectionOf(results)
	for _, p := range c.Packages {
		if qs := byPkg(p.Name); len(qs) > 0 {
			s := selectionOf(qs)
			s.Package = p.Name
			r.SelectionP = append(r.SelectionP, s)
		}
	}
	var ans, g1, g5 []float64
	for _, q := range results {
		ans = append(ans, float64(q.AnswerTokens))
		g1 = append(g1, float64(q.GrepTop1Tokens))
		g5 = append(g5, float64(q.GrepTop5Tokens))
	}
	r.Tokens = TokenCosts{Answer: mean(ans), ScrySelected: r.Selection.MeanTokens, GrepTop1: mean(g1), GrepTop5: mean(g5)}
	return r
}

func selectionOf(qs []QueryResult) SelectionMetrics {
	s := SelectionMetrics{N: len(qs)}
	for _, q := range qs {
		if q.AnswerSelected {
			s.AnswerSelected++
		}
		if q.FileSelected {
			s.FileSelected++
		}
		if q.Selected == 0 {
			s.Empty++
		}
		if q.InCandidates {
			s.CandidateRecall++
		}
		s.MeanResults += float64(q.Selected)
		s.MeanTokens += float64(q.SelectedTokens)
	}
	meansOver(len(qs), &s.AnswerSelected, &s.FileSelected, &s.Empty, &s.CandidateRecall, &s.MeanResults, &s.MeanTokens)
	return s
}

// prepareWork sets up a benchmark's working directory (a temporary one,
// removed by cleanup, unless the caller named one), collects the corpus
// files, and clears the corpus copy a previous run may have left there.
func prepareWork(dir, name, prefix string, packages []Package) (work string, cleanup func(), files []CorpusFile, err error) {
	cleanup = func() {}
	work = dir
	if work == "" {
		d, err := os.MkdirTemp("", "scry-bench-"+name+"-")
		if err != nil {
			return "", cleanup, nil, fmt.Errorf("bench: %w", err)
		}
		work, cleanup = d, func() { os.RemoveAll(d) }
	}
	if files, err = CollectCorpus(prefix, packages); err != nil {
		cleanup()
		return "", func() {}, nil, err
	}
	if err := os.RemoveAll(filepath.Join(work, "corpus")); err != nil {
		cleanup()
		return "", func() {}, nil, fmt.Errorf("bench: %w", err)
	}
	return work, cleanup, files, nil
}
