// Package search is scry's retrieval pipeline: first-stage candidates
// (BM25F, and vectors when an embedder is configured), a reranker, the
// blend (docs/architecture.md, rule 3), and the dual constraint that selects results — a
// relevance gate and a token budget, never padding with noise.
package search

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/embed/builtin"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/terms"
	"github.com/scry-dev/scry/internal/tokens"
)

// Params are the scoring and selection parameters (docs/architecture.md, rule 3).
type Params struct {
	RerankWeight float64 // weight of the reranker's score in the blend
	VectorWeight float64 // weight of the first-stage score in the blend
	Threshold    float64 // minimumRelevanceThreshold: results below are dropped
	Budget       int     // maxTokenBudget: tokens of source the results may use
	Candidates   int     // maxVectorCandidates: first-stage candidates to rerank
	// Limit caps the number of results after selection (0: no cap).
	Limit int
	// Leads is how many of the best candidates not shown in full an answer
	// names in one line each (0: DefaultLeads).
	Leads int
	// Coverage is answerCoverage: results below the threshold still join
	// an answer, best first, while the files it shows are together less
	// likely than this to hold one that answers the question (1 − Π over
	// the files shown of 1 − the best probability in each), so an unsure
	// answer shows the few likeliest places in full rather than none. 0
	// keeps the threshold alone.
	Coverage float64
	// Floor is the least probability of a result shown in full below the
	// threshold (0: DefaultFloor): a candidate below it is no plausible
	// match, and an answer whose best is below it holds leads only.
	Floor float64
}

// DefaultFloor is the plausibility floor of Params.Floor.
const DefaultFloor = 0.02

func (p Params) floor() float64 {
	if p.Floor <= 0 {
		return DefaultFloor
	}
	return p.Floor
}

// lowest is the least probability a result of an answer can have.
func (p Params) lowest() float64 {
	if p.Coverage > 0 {
		return min(p.Threshold, p.floor())
	}
	return p.Threshold
}

// DefaultLeads is the number of one-line leads of an answer, about 150
// tokens. On the localization benchmark's tune split, 8 leads put the file
// that needed the fix into the answer (results or leads) for 80% of the
// questions, 5 leads for 73%.
const DefaultLeads = 8

// DeepCandidates is how many first-stage candidates the built-in ranker
// scores. The right chunk of a real question is often far below the first
// 40 by BM25F alone (at 200–400 for terse commit subjects); the features
// are cheap enough to compute for a few hundred.
const DeepCandidates = 300

// DefaultParams are the defaults of docs/architecture.md, rule 3, which
// internal/config owns.
func DefaultParams() Params {
	c := config.Default()
	return Params{RerankWeight: c.RerankWeight, VectorWeight: c.VectorWeight, Threshold: c.Threshold, Budget: c.Budget, Candidates: c.Candidates,
		Coverage: c.Coverage}
}

// Request is one query.
type Request struct {
	Query     string
	Paths     []string // files, directories or globs relative to the root
	Languages []string
	Params    Params
	// whole searches the whole query, task words included (see subject):
	// the second try when the subject alone matches nothing.
	whole bool
}

// subject is the text the request is searched and featurised with (see
// searchText), its task words kept when whole.
func (r Request) subject() string {
	if r.whole {
		return withAcronyms(r.Query)
	}
	return searchText(r.Query)
}

// Result is one selected chunk.
type Result struct {
	Chunk      chunk.Chunk
	Score      float64 // final blended score in [0,1]
	Rerank     float64
	FirstStage float64 // normalised to [0,1]
	// LexicalRank and VectorRank are the candidate's 1-based ranks in the
	// BM25F and vector lists that Join or Retrieve combined (0: not in
	// that list, or no vector side: a lexical search leaves both 0);
	// Similarity is its cosine to the query's vector (0 when not a vector
	// candidate). With a local vector index, Similarity is what the
	// semantic features read in place of the built-in model's cosine; the
	// ranks record where a candidate came from (a feature for the vector
	// rank was tried and did not help: BENCHMARKS.md).
	LexicalRank, VectorRank int
	Similarity              float64
	Tokens                  int // tokens of the chunk's full source
	// Defines: the result is the first definition of the bare name the
	// query asks for (see definitionsFirst). It passes the relevance gate
	// whatever its probability: asked for a name, its definition is the
	// answer, and the calibration, which learnt from few such questions,
	// can put an interface or a property under the plausibility floor.
	Defines bool
	// expanded: a candidate added as a symbol of a top file rather than
	// matched by the first stage.
	expanded bool
}

// Passes says whether r passes the relevance gate of prm on its own.
func (r Result) Passes(prm Params) bool {
	return r.Score >= prm.Threshold || r.Defines
}

// Lead is a candidate named in one line instead of shown in full: the best
// candidates of an answer where no result is confident, or a result too
// large for the token budget.
type Lead struct {
	Chunk       chunk.Chunk
	Probability float64
	// OverBudget: the candidate passed the gate but is larger than the
	// whole budget.
	OverBudget bool
	// Tokens is the candidate's size, counted only for a lead that passed
	// the gate (0 otherwise).
	Tokens int
	// Defines: the lead is the definition of the bare name asked for
	// (Result.Defines), named even when a member of it is shown.
	Defines bool
}

// Response is the pipeline's answer.
type Response struct {
	Query   string
	Symbol  *SymbolPath // set for `symbol = ...` lookups
	Results []Result
	// Leads name the best candidates not shown in full, one line each: the
	// answer when no result passed the gate and fit the budget, pointers
	// beside the results otherwise.
	Leads      []Lead
	Candidates int // first-stage candidates considered
	Reranker   string
	// Unknown is the name the query asked for when nothing in the index
	// defines or mentions it: the answer holds leads only.
	Unknown string
	// Missing is the symbol path a lookup asked for when nothing matched
	// it: Leads then name the nearest symbols (NearSymbols, else the
	// ranked search's best for its words).
	Missing string
}

// Pipeline runs queries against one store.
type Pipeline struct {
	Store    Reader
	Reranker rerank.Reranker // nil: the built-in reranker
	// Hybrid adds vector candidates, fused with BM25 by reciprocal rank;
	// nil: lexical candidates only.
	Hybrid *Hybrid
	// Model ranks candidates; nil: DefaultModel.
	Model *Model
	// Semantic embeds the query and the candidates for the ranking's
	// semantic features; nil: the built-in model, which the shipped
	// ranking model was fitted with.
	Semantic *builtin.Model
}

// semantic is the model of the semantic features: p.Semantic, else the
// built-in one (compiled in, so its loading cannot fail but for a corrupt
// build, and then the features stay 0).
func (p *Pipeline) semantic() *builtin.Model {
	if p.Semantic != nil {
		return p.Semantic
	}
	m, err := builtin.Default()
	if err != nil {
		return nil
	}
	return m
}

// maxQueryBytes bounds a natural-language query; beyond this it is a paste,
// not a question, and only inflates the term list.
const maxQueryBytes = 8192

// Search answers a query: an exact symbol lookup for `symbol = ...`,
// otherwise the ranked pipeline.
func (p *Pipeline) Search(ctx context.Context, req Request) (Response, error) {
	resp := Response{Query: req.Query}
	if strings.TrimSpace(req.Query) == "" {
		return resp, fmt.Errorf("search: empty query")
	}
	sp, isSymbol, err := ParseSymbolQuery(req.Query)
	if err != nil {
		return resp, fmt.Errorf("search: %w", err)
	}
	if isSymbol {
		resp.Symbol = &sp
		chunks, err := LookupSymbol(p.Store, sp, req.Paths, req.Languages)
		if err != nil {
			return resp, fmt.Errorf("search: %w", err)
		}
		for _, c := range chunks {
			resp.Results = append(resp.Results, Result{Chunk: c, Score: 1, Rerank: 1, FirstStage: 1, Tokens: tokens.Count(c.FullSource)})
		}
		resp.Candidates = len(chunks)
		resp.Results = mergeNested(resp.Results)
		if len(chunks) == 0 {
			resp.Missing = sp.String()
			resp.Leads, err = p.near(ctx, req, sp)
		}
		return resp, err
	}
	if len(req.Query) > maxQueryBytes {
		return resp, fmt.Errorf("search: query too long (%d bytes, at most %d)", len(req.Query), maxQueryBytes)
	}
	prm := req.Params
	cs, err := p.Gather(ctx, req)
	if err != nil {
		return resp, err
	}
	ranked := ApplyModel(p.model(), cs)
	resp.Candidates = len(ranked)
	resp.Reranker = "builtin"
	if p.Reranker != nil && p.Reranker.Name() != "builtin" && p.Reranker.Name() != rerank.ProviderNone {
		resp.Reranker = p.Reranker.Name()
		if ranked, err = p.rerankModel(ctx, req, ranked); err != nil {
			return resp, err
		}
	}
	resp.Unknown = cs.Unknown
	resp.Results, resp.Leads, err = p.Answer(ranked, cs.Unknown, prm)
	return resp, err
}

// near names the symbols a lookup that matched nothing most likely meant:
// NearSymbols, else the best of a ranked search for the path's words (a
// bare name's typo, `validateTokn`, shares most of its terms).
func (p *Pipeline) near(ctx context.Context, req Request, sp SymbolPath) ([]Lead, error) {
	cs, err := NearSymbols(p.Store, sp, req.Paths, req.Languages)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var out []Lead
	for _, c := range cs {
		out = append(out, Lead{Chunk: c})
	}
	if len(out) > 0 {
		return out, nil
	}
	words := strings.Join(append(append([]string{}, sp.Parents...), sp.Name), " ")
	// The request's own gate: what passes it is read in full, the rest
	// named as leads, read light.
	plain := req
	plain.Query = words
	ranked, err := p.Search(ctx, plain)
	if err != nil {
		return nil, err
	}
	for _, r := range ranked.Results {
		out = append(out, Lead{Chunk: r.Chunk, Probability: r.Score})
	}
	out = append(out, ranked.Leads...)
	return out[:min(len(out), maxNear)], nil
}

// Answer selects the results and leads of a ranked list (see AnswerOf;
// unknown is Candidates.Unknown), first reading in full the candidates
// that can become results: those at or above the threshold. Ranking reads
// candidates light (see chunkindex.Query.Light), and a lead needs no more
// than that.
func (p *Pipeline) Answer(ranked []Result, unknown string, prm Params) ([]Result, []Lead, error) {
	if unknown != "" {
		results, ls := AnswerOf(ranked, unknown, prm)
		return results, ls, nil
	}
	// Below the threshold, only the candidates coverage can take are read:
	// those up to where it is reached if each fits the budget, and spare
	// ones for those that do not, or that Select leaves as leads for being
	// a third copy of one name and signature (MaxCopies): Select stops at
	// the first unread one, so more than spare such skips below the
	// threshold end an answer a little early.
	const spare = 8
	n, extra := 0, 0
	cov := newCoverage()
	for n < len(ranked) {
		r := ranked[n]
		if !r.Passes(prm) {
			if !cov.wants(r, prm) && (extra == spare || r.Score < prm.lowest()) {
				break
			}
			if !cov.wants(r, prm) {
				extra++
			}
		}
		cov.add(r)
		n++
	}
	if err := p.Hydrate(ranked[:n]); err != nil {
		return nil, nil, err
	}
	results, ls := SelectAnswer(ranked, prm)
	return results, ls, nil
}

// Hydrate reads in full the chunks of results that were read light.
func (p *Pipeline) Hydrate(rs []Result) error {
	var ids []string
	for _, r := range rs {
		if r.Chunk.FullSource == "" {
			ids = append(ids, r.Chunk.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	full, err := p.Store.ChunksByIDs(ids)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	for i := range rs {
		if c, ok := full[rs[i].Chunk.ID]; ok && rs[i].Chunk.FullSource == "" {
			rs[i].Chunk = c
		}
	}
	return nil
}

// rerankModel reorders the built-in ranking's best candidates with a model
// reranker (cross-encoder or service): its score, blended with the
// built-in probability by the configured weights, replaces the score.
func (p *Pipeline) rerankModel(ctx context.Context, req Request, ranked []Result) ([]Result, error) {
	prm := req.Params
	n := prm.Candidates
	if n <= 0 {
		n = DefaultParams().Candidates
	}
	head := ranked[:min(n, len(ranked))]
	if len(head) == 0 {
		return head, nil
	}
	docs := make([]rerank.Doc, len(head))
	for i, c := range head {
		docs[i] = DocOf(c.Chunk)
	}
	rscores, err := p.Reranker.Rerank(ctx, req.Query, docs)
	if err != nil {
		return nil, fmt.Errorf("search: rerank with %s: %w", p.Reranker.Name(), err)
	}
	for i := range head {
		head[i].FirstStage = head[i].Score
	}
	return Blend(head, rscores, prm), nil
}

// DocOf is the reranker's view of a chunk.
func DocOf(c chunk.Chunk) rerank.Doc {
	return rerank.Doc{
		Name:       c.Name,
		Kind:       c.NodeKind,
		Breadcrumb: c.Breadcrumb,
		Path:       c.RelativePath,
		Signature:  c.Signature,
		JSDoc:      c.JSDoc,
		Text:       c.EmbeddingText,
		Lines:      c.EndLine - c.StartLine + 1,
	}
}

// candidates returns first-stage candidates with FirstStage normalised to
// [0,1] by the best score.
func (p *Pipeline) candidates(ctx context.Context, req Request, n int) ([]Result, error) {
	if n <= 0 {
		n = DefaultParams().Candidates
	}
	langs := make([]string, len(req.Languages))
	for i, l := range req.Languages {
		langs[i] = NormalizeLanguage(l)
	}
	hits, err := p.Store.Search(chunkindex.Query{Terms: terms.Query(req.subject()), Paths: req.Paths, Languages: langs, Limit: n, Light: true, Context: ctx})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	out := make([]Result, len(hits))
	top := 0.0
	for _, h := range hits {
		if h.Score > top {
			top = h.Score
		}
	}
	for i, h := range hits {
		fs := 0.0
		if top > 0 {
			fs = h.Score / top
		}
		out[i] = Result{Chunk: h.Chunk, FirstStage: fs}
	}
	return out, nil
}

// Blend computes final = rerankWeight·rerank + vectorWeight·firstStage (both
// in [0,1]; weights normalised so that the final score stays in [0,1]) and
// sorts best first.
func Blend(cands []Result, rerankScores []float64, prm Params) []Result {
	rw, vw := prm.RerankWeight, prm.VectorWeight
	if rw < 0 {
		rw = 0
	}
	if vw < 0 {
		vw = 0
	}
	if sum := rw + vw; sum > 0 {
		rw, vw = rw/sum, vw/sum
	} else {
		rw, vw = 0.65, 0.35
	}
	out := make([]Result, len(cands))
	for i, c := range cands {
		c.Rerank = clamp01(rerankScores[i])
		c.FirstStage = clamp01(c.FirstStage)
		c.Score = rw*c.Rerank + vw*c.FirstStage
		out[i] = c
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// Select applies the dual constraint to results sorted best first: only
// scores at or above the threshold (and below it, with Coverage, while the
// answer is still likely to miss and the result is at least plausible: see
// Params.Coverage), and only as many as fit in the token budget. A parent and its child are never both selected: whichever scored
// higher stands for the concern (the child when the question is about it,
// the parent when it is about the whole).
func Select(sorted []Result, prm Params) []Result {
	var out []Result
	used := 0
	cov := newCoverage()
	// The definitions of a bare name pass the gate wherever they rank
	// (MarkDefinition); the list is not cut before the last of them.
	lastDefinition := -1
	for i, r := range sorted {
		if r.Defines {
			lastDefinition = i
		}
	}
	for i, r := range sorted {
		if !r.Passes(prm) && !cov.wants(r, prm) {
			if i < lastDefinition {
				continue
			}
			break
		}
		if !r.Passes(prm) && cov.shows(r) {
			continue // below the threshold, a file already shown adds no coverage
		}
		if !r.Passes(prm) && r.Chunk.NodeKind == "comment" {
			// Below the threshold a comment is no plausible match to show
			// in full: it holds no code to edit (hono's banner above an
			// interface too large for the budget, "////// HandlerInterface
			// //////", was one). It stays a lead.
			continue
		}
		if prm.Limit > 0 && len(out) >= prm.Limit {
			break
		}
		if within(out, r) || containsAny(r, out) {
			continue
		}
		if copiesShown(out, r) >= MaxCopies {
			continue // a lead: the answer shows enough of its kind
		}
		if r.Tokens == 0 && r.Chunk.FullSource == "" {
			break // read light, not for showing (see Pipeline.Answer)
		}
		if r.Tokens == 0 {
			r.Tokens = tokens.Count(r.Chunk.FullSource)
		}
		if prm.Budget > 0 && used+r.Tokens > prm.Budget {
			continue
		}
		used += r.Tokens
		out = append(out, r)
		cov.add(r)
	}
	return out
}

// MaxCopies is how many chunks of one name and signature, each in another
// file, an answer shows in full: the same method of nine database drivers
// (typeorm's createTableSql, "protected createTableSql(table: Table,
// createForeignKeys?: boolean): Query" in each) filled a whole answer with
// near-identical code, leaving no room for the one file that answered the
// question. The first two show the pattern and how it varies; the others
// stay leads, one line each, where an agent sees them all.
const MaxCopies = 2

// copiesShown counts the results among shown with r's name and signature
// in other files than r's.
func copiesShown(shown []Result, r Result) int {
	c := r.Chunk
	if c.Name == "" || c.Signature == "" {
		return 0
	}
	n := 0
	for _, s := range shown {
		if s.Chunk.Name == c.Name && s.Chunk.Signature == c.Signature && s.Chunk.RelativePath != c.RelativePath {
			n++
		}
	}
	return n
}

// coverage is the chance that the files an answer shows hold one that
// answers the question, 1 − Π(1 − p) over the files, each file at its best
// probability shown.
type coverage struct {
	best map[string]float64
	miss float64 // no file shown answers the question
}

func newCoverage() *coverage { return &coverage{best: map[string]float64{}, miss: 1} }

// shows says whether r's file is shown already.
func (c *coverage) shows(r Result) bool { return c.best[r.Chunk.RelativePath] > 0 }

// wants says whether r, below the threshold, still joins for coverage: the
// answer is not yet covered and r is a plausible match.
func (c *coverage) wants(r Result, prm Params) bool {
	return prm.Coverage > 0 && r.Score >= prm.floor() && 1-c.miss < prm.Coverage
}

// add counts r's file as shown. The definition of the name asked for
// (Defines) covers the question whatever its calibrated probability: an
// answer that holds it is sure, and gains nothing from the unsure extras.
func (c *coverage) add(r Result) {
	p := r.Score
	if r.Defines {
		p = 1
	}
	if b, f := c.best[r.Chunk.RelativePath], min(p, 1-1e-9); f > b {
		c.miss *= (1 - f) / (1 - b)
		c.best[r.Chunk.RelativePath] = f
	}
}

func containsAny(r Result, selected []Result) bool {
	for _, s := range selected {
		if contains(r.Chunk, s.Chunk) {
			return true
		}
	}
	return false
}

func within(selected []Result, r Result) bool {
	for _, s := range selected {
		if contains(s.Chunk, r.Chunk) {
			return true
		}
	}
	return false
}

// contains reports whether chunk a's source includes chunk b's.
func contains(a, b chunk.Chunk) bool {
	return a.RelativePath == b.RelativePath && a.ID != b.ID &&
		a.StartLine <= b.StartLine && b.EndLine <= a.EndLine && a.Depth < b.Depth
}

// mergeNested keeps only the outermost of nested results (symbol lookups can
// match a symbol and a same-named symbol inside it).
func mergeNested(rs []Result) []Result {
	var out []Result
	for _, r := range rs {
		if !within(rs, r) {
			out = append(out, r)
		}
	}
	return out
}
