package search

import (
	"context"
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/terms"
	"github.com/scry-dev/scry/internal/tokens"
	"golang.org/x/sync/errgroup"
)

// maxNamed bounds the chunks added to the candidates because the query
// writes their name: a common name ("get") must not flood the list.
const maxNamed = 60

// Candidates is a query's deep candidate list with its features, in
// first-stage order: what the model ranks, and what the benchmark records
// to fit the model.
type Candidates struct {
	Results  []Result
	Features []Features
	// Question says the query opens with a question word (AsksQuestion):
	// the model spreads its results over files.
	Question bool
	// Unknown is the name the query asks for when nothing in the index
	// defines or even mentions it (see unknownName): its answer shows no
	// code, only leads.
	Unknown string
}

// Gather collects a query's candidates: the DeepCandidates best chunks by
// BM25F (and vector neighbours BM25F did not find, when an embedder is
// configured: see Join), plus
// the chunks the query names outright (validateToken, `toJSONSchema`),
// which BM25F can leave out when the query's other words are common; then
// computes their features. The query is searched without its task words
// (see subject), and whole when what remains matches nothing.
func (p *Pipeline) Gather(ctx context.Context, req Request) (Candidates, error) {
	out, err := p.gather(ctx, req)
	if err == nil && len(out.Results) == 0 && !req.whole && subject(req.Query) != req.Query {
		// Nothing matches the subject alone ("fix 2540"): the task words
		// are all the query has to go on.
		req.whole = true
		return p.gather(ctx, req)
	}
	return out, err
}

// gather is Gather for one reading of the query: its subject, or the whole
// query when req.whole is set.
func (p *Pipeline) gather(ctx context.Context, req Request) (Candidates, error) {
	var out Candidates
	n := DeepCandidates
	if req.Params.Candidates > n {
		n = req.Params.Candidates
	}
	// The first stage, the chunks the query names and the query terms'
	// statistics are independent reads: run them side by side.
	var cands []Result
	var named []chunk.Chunk
	var st chunkindex.TermStats
	var qvec []float32 // the query's vector, when the vector side was searched
	qterms := terms.Query(req.subject())
	g, _ := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		cands, qvec, err = p.join(ctx, p.Hybrid, req, n)
		return err
	})
	g.Go(func() (err error) {
		if named, err = p.namedChunks(req); err != nil {
			return err
		}
		if st, err = p.Store.TermStats(qterms); err != nil {
			return fmt.Errorf("search: %w", err)
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return out, err
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	joined := len(cands)
	have := make(map[string]bool, len(cands))
	for _, c := range cands {
		have[c.Chunk.ID] = true
	}
	for _, c := range named {
		if !have[c.ID] {
			have[c.ID] = true
			cands = append(cands, Result{Chunk: c})
		}
	}
	// Expansion and the name counts of the candidates so far are
	// independent reads too; the expanded symbols' names are counted after.
	var nameCount map[string]int
	base := cands[:len(cands):len(cands)] // expansion appends to a copy
	g, _ = errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		cands, err = p.expandFiles(base)
		return err
	})
	g.Go(func() (err error) {
		nameCount, err = p.nameCounts(base)
		return err
	})
	if err := g.Wait(); err != nil {
		return out, err
	}
	more, err := p.nameCounts(uncounted(cands[len(base):], nameCount))
	if err != nil {
		return out, err
	}
	// The chunks the query names and the expanded symbols joined after
	// the vector side: they get their cosine too, or the semantic
	// features would read them as unrelated to the query.
	if err := p.Hybrid.fillSimilarities(qvec, cands[joined:]); err != nil {
		return out, err
	}
	maps.Copy(nameCount, more)
	// A withdrawn question stops here rather than after the features.
	if err := ctx.Err(); err != nil {
		return out, err
	}
	qi := newQueryInfoTerms(req.Query, qterms, st)
	qi.codeMarked(req.Query)
	if qi.wantsTests {
		defs, err := p.Store.ChunksNamed(qi.testNames(), maxNamed)
		if err != nil {
			return out, fmt.Errorf("search: %w", err)
		}
		qi.testsAreTheSubject(defs)
	}
	if p.Hybrid != nil && p.Hybrid.Index != nil && anyVectorRank(cands) {
		// The configured embedder's similarity is the semantic signal:
		// a user's model knows more than the built-in one, and a question
		// that shares no word with its answer is found by it alone.
		qi.embedderSims = true
	} else {
		qi.withSemantic(p.semantic(), req.subject())
	}
	out.Results = cands
	out.Features = featurize(&qi, cands, nameCount, st.Chunks)
	out.Unknown = unknownName(req.Query, &qi, st, out.Features)
	if !qi.wholeOK {
		// A bare name asks for its definition, not for what the
		// definition's neighbours call (see markCallees).
		markCallees(p.model(), cands, out.Features)
	}
	out.Question = AsksQuestion(req.Query)
	if out.Question {
		markHubs(p.model(), cands, out.Features)
	}
	markPeers(p.model(), cands, out.Features)
	markLinks(p.model(), cands, out.Features)
	return out, ctx.Err()
}

// anyVectorRank says whether the query was embedded and searched: some
// candidate came from the vector side.
func anyVectorRank(cands []Result) bool {
	for _, c := range cands {
		if c.VectorRank > 0 {
			return true
		}
	}
	return false
}

// Expansion: the symbols of the files the first stage favours most join
// the candidates, so that a function whose own text lacks the query's words
// but whose file is clearly the subject (a fix described by its effect)
// can still be ranked. Only definitions near the top level are added. The
// files come from candidates, so path and language filters already hold.
const (
	expandFiles   = 5
	expandPerFile = 40
)

func (p *Pipeline) expandFiles(cands []Result) ([]Result, error) {
	sum := map[string]float64{}
	var files []string
	for _, c := range cands {
		f := c.Chunk.RelativePath
		if _, ok := sum[f]; !ok {
			files = append(files, f)
		}
		sum[f] += c.FirstStage
	}
	sort.SliceStable(files, func(i, j int) bool { return sum[files[i]] > sum[files[j]] })
	have := make(map[string]bool, len(cands))
	for _, c := range cands {
		have[c.Chunk.ID] = true
	}
	// One read per file, side by side; the results join in file order.
	files = files[:min(expandFiles, len(files))]
	defs := make([][]chunk.Chunk, len(files))
	var g errgroup.Group
	for i, f := range files {
		g.Go(func() (err error) {
			if defs[i], err = p.Store.TopLevelDefinitions(f, definitionKinds, expandPerFile); err != nil {
				return fmt.Errorf("search: %w", err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for _, cs := range defs {
		for _, c := range cs {
			if !have[c.ID] {
				have[c.ID] = true
				cands = append(cands, Result{Chunk: c, expanded: true})
			}
		}
	}
	return cands, nil
}

// definitionKinds are the chunk kinds that define behaviour an agent may
// need to edit.
var definitionKinds = []string{"function", "method", "constructor", "getter", "setter", "component", "class", "const", "variable", "property"}

// namedChunks are the chunks whose name the query writes as one word, in
// the spellings the query uses (identifiers are case-sensitive; a query
// writes them as the code does), restricted by the request's filters.
func (p *Pipeline) namedChunks(req Request) ([]chunk.Chunk, error) {
	var names []string
	seen := map[string]bool{}
	for _, w := range rawWords(req.Query) {
		for _, part := range strings.Split(w, ".") {
			part = strings.Trim(part, "-")
			if len([]rune(part)) < 3 || seen[part] {
				continue
			}
			seen[part] = true
			names = append(names, part)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	cs, err := p.Store.ChunksNamed(names, maxNamed)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	langs := make([]string, len(req.Languages))
	for i, l := range req.Languages {
		langs[i] = NormalizeLanguage(l)
	}
	if len(req.Paths) == 0 && len(langs) == 0 {
		return cs, nil
	}
	allowed, err := p.Store.ChunkIDsFiltered(req.Paths, langs, nil)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	ok := make(map[string]bool, len(allowed))
	for _, id := range allowed {
		ok[id] = true
	}
	var kept []chunk.Chunk
	for _, c := range cs {
		if ok[c.ID] {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// nameCounts says how many chunks of the index share each candidate's
// name.
func (p *Pipeline) nameCounts(cands []Result) (map[string]int, error) {
	names := make([]string, 0, len(cands))
	for _, c := range cands {
		if len(c.Chunk.Name) >= 3 {
			names = append(names, c.Chunk.Name)
		}
	}
	counts, err := p.Store.NameCounts(dedupe(names))
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return counts, nil
}

// uncounted are the candidates whose names counts does not hold yet.
func uncounted(cands []Result, counts map[string]int) []Result {
	var out []Result
	for _, c := range cands {
		if _, ok := counts[c.Chunk.Name]; !ok {
			out = append(out, c)
		}
	}
	return out
}

func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Rank orders a query's candidates with the model: Score is the calibrated
// probability that the result is relevant, Rerank the model's raw score.
func (p *Pipeline) Rank(ctx context.Context, req Request) ([]Result, error) {
	cs, err := p.Gather(ctx, req)
	if err != nil {
		return nil, err
	}
	return ApplyModel(p.model(), cs), nil
}

// model is the model that ranks: p.Model, else the shipped one.
func (p *Pipeline) model() *Model {
	if p.Model != nil {
		return p.Model
	}
	return DefaultModel
}

// ApplyModel orders gathered candidates by a model.
func ApplyModel(m *Model, cs Candidates) []Result {
	keys := make([]string, len(cs.Results))
	for i, r := range cs.Results {
		keys[i] = MirrorKey(r)
	}
	order := m.Order(cs.Features, func(i int) (string, string) {
		return cs.Results[i].Chunk.RelativePath, keys[i]
	}, cs.Question)
	scores := make([]float64, len(order))
	for k, o := range order {
		scores[k] = o.Score
	}
	probs := m.RankedProbabilities(scores, func(k int) *Features { return &cs.Features[order[k].Index] })
	out := make([]Result, len(order))
	for k, o := range order {
		r := cs.Results[o.Index]
		r.Rerank = o.Score
		r.Score = probs[k]
		out[k] = r
	}
	MarkDefinition(out, func(k int) *Features { return &cs.Features[order[k].Index] })
	return out
}

// maxDefinitionsShown bounds the definitions of one bare name that pass
// the gate as the name asked for.
const maxDefinitionsShown = 3

// MarkDefinition sets Defines on the first of a ranked list when it
// defines the bare name the query asks for, and on the next ones (up to
// maxDefinitionsShown) that define the same name: definitionsFirst has put
// every definition above the rest, so the first is a definition if any is.
// A name defined twice in the code is ambiguous, and the ranker's choice
// between the two can be wrong (svelte's mount: the server build's stub
// ranks above the client's implementation), so the answer shows both, as
// `symbol = mount` lists both.
func MarkDefinition(ranked []Result, feat func(rank int) *Features) {
	marked := 0
	for k := 0; k < len(ranked) && marked < maxDefinitionsShown && isDefinition(feat(k)); k++ {
		// The definitions block also holds names that match the query's
		// letters only (_mount for mount): not the name asked for.
		if ranked[k].Chunk.Name == ranked[0].Chunk.Name {
			ranked[k].Defines = true
			marked++
		}
	}
}

// SelectAnswer applies the dual constraint (see Select) to ranked results,
// then names the best candidates not shown in full as one-line leads, so an
// answer is never empty while candidates exist and an agent sees where else
// to look. A candidate that passed the gate but is larger than the whole
// budget is a lead marked OverBudget.
func SelectAnswer(ranked []Result, prm Params) ([]Result, []Lead) {
	sel := Select(ranked, prm)
	return sel, leadsOf(ranked, sel, prm)
}

// AnswerOf is the default answer to a ranked list: SelectAnswer's, or
// leads alone when the query asks for a name the index does not hold
// (unknown: Candidates.Unknown).
func AnswerOf(ranked []Result, unknown string, prm Params) ([]Result, []Lead) {
	if unknown != "" {
		// No candidate passed a gate: none is over the budget either.
		return nil, leadsOf(ranked, nil, Params{Leads: prm.Leads, Threshold: math.Inf(1)})
	}
	return SelectAnswer(ranked, prm)
}

// leadsOf names the best of ranked that sel does not show, or hold, or lie
// inside, one line each (prm.Leads of them, DefaultLeads when 0).
func leadsOf(ranked, sel []Result, prm Params) []Lead {
	n := prm.Leads
	if n <= 0 {
		n = DefaultLeads
	}
	var leads []Lead
	shown := append([]Result(nil), sel...)
	ids := make(map[string]bool, len(sel))
	for _, r := range sel {
		ids[r.Chunk.ID] = true
	}
	for _, r := range ranked {
		if len(leads) == n {
			break
		}
		if ids[r.Chunk.ID] || !r.Defines && (within(shown, r) || containsAny(r, shown)) {
			continue
		}
		ids[r.Chunk.ID] = true
		shown = append(shown, r)
		l := Lead{Chunk: r.Chunk, Probability: r.Score, Defines: r.Defines}
		// Only a lead that passed the gate can have been left out for its
		// size; only its size is worth counting.
		if r.Passes(prm) {
			l.Tokens = r.Tokens
			if l.Tokens == 0 {
				l.Tokens = tokens.Count(r.Chunk.FullSource)
			}
			l.OverBudget = prm.Budget > 0 && l.Tokens > prm.Budget
		}
		leads = append(leads, l)
	}
	return leads
}
