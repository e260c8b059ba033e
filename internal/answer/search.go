// Package answer assembles the answers to questions from what the engine
// hands out per question: a search's results, described for the connection
// graph, with one smart snapshot per file, fitted to the token budget
// together with the leads that did not make it (Search, from a View); and
// the structure answers — symbols, info, references, implementations,
// definitions, call trees, outlines, importers, change impact — from a
// View's local form (Local), with structure from the compiler or the index
// behind one seam (source, ask). It holds no state: the engine
// (internal/engine) owns the indexes, models, compiler and caches.
package answer

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/snapshot"
	"github.com/scry-dev/scry/internal/tokens"
)

// View is what a question needs from the engine: the reads of one index,
// handed out per question by the engine (Engine.View). It is the seam
// between the state the engine holds (indexes, models, compiler, caches)
// and the code that assembles answers, which reads through it alone. Two
// implement it: the engine's local view over the workspace's SQLite index
// (re-synced on demand, its files read from disk, structure from the
// compiler when attached) and its shared view over repositories of the
// shared index (file texts as indexed, structure from a checkout where the
// server has one).
type View interface {
	// Search runs the ranking pipeline (lexical, vectors, reranker) over
	// the index.
	Search(ctx context.Context, req search.Request) (search.Response, error)
	// Snapshot is a file's smart snapshot around targets, built from the
	// version of the file its chunks were indexed from; a local file
	// edited since fails with snapshot.ErrStale.
	Snapshot(file string, targets []snapshot.Target) (string, error)
	// DescribeAll describes results for the connection graph, best first,
	// by chunk ID; a local view starts none past the first wanted.
	DescribeAll(ctx context.Context, results []search.Result, callDepth int, wanted *atomic.Int64) (map[string]graph.Result, error)
	// Resync brings the index up to date after a stale snapshot; false
	// when the view has nothing to re-sync (the shared index is the
	// versions its chunks came from).
	Resync(ctx context.Context) (bool, error)
}

// Answer is what a search returns to an agent: the connection graph, then
// one smart snapshot per file in score order.
type Answer struct {
	Response search.Response
	// Graph is what the connection graph shows (internal/render draws it,
	// with the snapshots counted in its token total).
	Graph     graph.Input
	Snapshots []Snapshot
	Tokens    int // tokens of the whole answer (graph + snapshots)
	Budget    int
	// Approximate is set when structure came from syntax, not the compiler.
	Approximate bool
	// MinBudget is set when the budget is too small for any useful answer:
	// the smallest budget that holds one (the best result, or the best lead
	// when there is no result). The answer is then one line saying so.
	MinBudget int
}

// Snapshot is one file's smart structural snapshot.
type Snapshot struct {
	File     string
	Text     string
	Score    float64 // best final score among the file's results
	Priority float64 // MCP annotation priority, non-increasing in order
}

// Search answers a request from a view: the ranked (or looked-up)
// results, described for the connection graph, with one smart snapshot per
// file. The token budget bounds the whole answer: when the graph and
// snapshots outgrow it (snapshots add the imports and fields a symbol
// needs), the lowest-scored results go first.
func Search(ctx context.Context, v View, req search.Request, callDepth int) (Answer, error) {
	resp, err := v.Search(ctx, req)
	if err != nil {
		return Answer{}, err
	}
	budget := req.Params.Budget
	leadsOnly := func(resp search.Response) (Answer, error) {
		return fitLeads(req.Query, budget, resp, 1, func(leads []graph.Lead) (Answer, error) {
			in := graph.Input{Query: req.Query, Budget: budget, Threshold: req.Params.Threshold, Leads: leads,
				Lookup: resp.Symbol != nil || len(resp.Leads) > 0 && resp.Leads[0].Defines, Unknown: resp.Unknown, Missing: resp.Missing}
			_, n := graph.Render(in)
			return Answer{Graph: in, Tokens: n, Budget: budget}, nil
		})
	}
	if len(resp.Results) == 0 && len(resp.Leads) > 0 {
		return leadsOnly(resp)
	}
	results := resp.Results
	// An exact lookup (`symbol = …`) obeys the budget too: the matches it
	// leaves out are named as leads, a match larger than the whole budget
	// as one over it.
	matches := resp.Results
	snaps := &snapshotCache{texts: map[string]string{}, view: v}
	// The compiler describes the results while snapshots are built and
	// fitted to the budget: the two wait on different processes. A result
	// the budget then drops costs a description nobody reads.
	type described struct {
		descs map[string]graph.Result
		err   error
	}
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan described, 1)
	// wanted is how many best-first results the answer can hold; the
	// describing goroutine starts no result past it.
	var wanted atomic.Int64
	wanted.Store(int64(len(results)))
	go func(all []search.Result) {
		d, err := v.DescribeAll(dctx, all, callDepth, &wanted)
		done <- described{d, err}
	}(results)
	if budget > 0 {
		n, err := fitSnapshots(ctx, results, snaps, budget)
		if err != nil {
			return Answer{}, err
		}
		wanted.Store(int64(n))
		results = results[:n]
	}
	dd := <-done
	if dd.err != nil {
		return Answer{}, dd.err
	}
	descs, approx := dd.descs, false
	for _, r := range results {
		approx = approx || descs[r.Chunk.ID].Approximate
	}
	finish := func(ans Answer, n int) Answer {
		if resp.Symbol != nil {
			resp.Leads = lookupLeads(matches[n:], budget)
		}
		resp.Results = results[:n]
		ans.Response = resp
		ans.Approximate = approx
		return ans
	}
	// Leads are fitted last: the results kept are chosen without them (they
	// come first), then as many leads follow as the budget still holds.
	withLeads := func(ans Answer, n int) (Answer, error) {
		ans = finish(ans, n)
		if budget <= 0 {
			return ans, nil
		}
		if ans.Tokens > budget {
			// Even the best result alone, with its description and
			// snapshot, outgrows the budget: it becomes a lead that says
			// so, as a match larger than the whole budget does.
			over := make([]search.Lead, 0, n+len(resp.Leads))
			for _, r := range ans.Response.Results {
				// A result shown only for coverage (below the threshold)
				// goes back to being a plain lead: it is no confident match
				// too large for the budget.
				over = append(over, search.Lead{Chunk: r.Chunk, Probability: r.Score, Tokens: ans.Tokens,
					OverBudget: r.Passes(req.Params), Defines: r.Defines})
			}
			lr := ans.Response
			lr.Results, lr.Leads = nil, append(over, ans.Response.Leads...)
			// Best first, as an answer without them would have named them;
			// a confident match too large for the budget leads.
			sort.SliceStable(lr.Leads, func(i, j int) bool {
				a, b := lr.Leads[i], lr.Leads[j]
				if a.OverBudget != b.OverBudget {
					return a.OverBudget
				}
				return a.Probability > b.Probability
			})
			return leadsOnly(lr)
		}
		shown := ans.Response
		// A bare name's definition too large for the budget leads the
		// leads; the answer says so above the other matches.
		overDefinition := len(shown.Leads) > 0 && shown.Leads[0].Defines && shown.Leads[0].OverBudget
		return fitLeads(req.Query, budget, shown, 0, func(leads []graph.Lead) (Answer, error) {
			a, err := renderAnswer(req.Query, shown.Results, descs, snaps, budget, leads, overDefinition)
			a.Approximate = approx
			return a, err
		})
	}
	var noLeads []graph.Lead
	if budget <= 0 {
		noLeads = graphLeads(resp.Leads)
	}
	ans, err := renderAnswer(req.Query, results, descs, snaps, budget, noLeads, false)
	if err != nil {
		return Answer{}, err
	}
	if budget <= 0 || ans.Tokens <= budget || len(results) <= 1 {
		return withLeads(ans, len(results))
	}
	// Over budget (snapshots add the imports and fields each symbol needs):
	// keep the longest best-first prefix of results that fits, found by
	// bisection; snapshots of unchanged files are reused between rounds.
	best, bestN := Answer{}, 0
	lo, hi := 1, len(results)-1
	for lo <= hi {
		if err := ctx.Err(); err != nil {
			return Answer{}, err
		}
		mid := (lo + hi) / 2
		a, err := renderAnswer(req.Query, results[:mid], descs, snaps, budget, nil, false)
		if err != nil {
			return Answer{}, err
		}
		if a.Tokens <= budget || mid == 1 {
			best, bestN = a, mid
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	return withLeads(best, bestN)
}

// lookupLeads names the matches of an exact lookup that the budget left
// out.
func lookupLeads(left []search.Result, budget int) []search.Lead {
	var out []search.Lead
	for _, r := range left {
		n := r.Tokens
		if n == 0 {
			n = tokens.Count(r.Chunk.FullSource)
		}
		out = append(out, search.Lead{Chunk: r.Chunk, Probability: r.Score, Tokens: n, OverBudget: budget > 0 && n > budget})
	}
	return out
}

// fitLeads renders an answer with as many of resp's leads, best first, as
// the budget holds, and at least min of them. When even that is over the
// budget, the answer is one line instead: the budget is too small, and the
// smallest one that holds a useful answer (docs/architecture.md, rule 3:
// an answer never exceeds its budget but for that line).
func fitLeads(query string, budget int, resp search.Response, min int, render func([]graph.Lead) (Answer, error)) (Answer, error) {
	all := graphLeads(resp.Leads)
	try := func(k int) (Answer, error) {
		a, err := render(all[:k])
		a.Response = resp
		a.Response.Leads = resp.Leads[:k]
		return a, err
	}
	best, err := try(len(all))
	if err != nil || budget <= 0 || best.Tokens <= budget {
		return best, err
	}
	// Fewer leads: the longest best-first prefix that fits, by bisection.
	lo, hi := min, len(all)-1
	found := false
	for lo <= hi {
		mid := (lo + hi) / 2
		a, err := try(mid)
		if err != nil {
			return Answer{}, err
		}
		if a.Tokens <= budget {
			best, found, lo = a, true, mid+1
		} else {
			hi = mid - 1
		}
	}
	if found {
		return best, nil
	}
	smallest, err := try(min)
	if err != nil {
		return Answer{}, err
	}
	// The answer is then the one line render writes for a budget that is
	// too small (graph.TooSmall).
	line := graph.TooSmall(query, budget, smallest.Tokens)
	out := Answer{Graph: graph.Input{Query: query, Budget: budget}, Tokens: graph.Tokens(line), Budget: budget, MinBudget: smallest.Tokens}
	out.Response.Query = resp.Query
	out.Response.Symbol = resp.Symbol
	out.Response.Unknown = resp.Unknown
	return out, nil
}

// graphLeads turns the pipeline's leads into the graph's one-line form.
func graphLeads(ls []search.Lead) []graph.Lead {
	out := make([]graph.Lead, len(ls))
	for i, l := range ls {
		c := l.Chunk
		out[i] = graph.Lead{Kind: c.NodeKind, Name: c.DisplayName(), File: c.RelativePath, Line: c.StartLine,
			Probability: l.Probability, OverBudget: l.OverBudget, Tokens: l.Tokens}
	}
	return out
}

// fitSnapshots returns how many best-first results have snapshots that fit
// in the budget on their own (at least one), by bisection: the snapshots'
// size only grows with more results.
func fitSnapshots(ctx context.Context, results []search.Result, snaps *snapshotCache, budget int) (int, error) {
	size := func(n int) (int, error) {
		// Each round parses and counts whole files: a cancelled call
		// (an agent gave up) stops here rather than finishing the answer.
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		var files []string
		targets := map[string][]snapshot.Target{}
		for _, r := range results[:n] {
			f := r.Chunk.RelativePath
			if _, ok := targets[f]; !ok {
				files = append(files, f)
			}
			targets[f] = append(targets[f], snapshot.Target{StartLine: r.Chunk.StartLine, EndLine: r.Chunk.EndLine, Source: r.Chunk.FullSource})
		}
		total := 0
		for _, f := range files {
			text, err := snaps.of(f, targets[f])
			if err != nil {
				return 0, err
			}
			total += tokens.Count(text)
		}
		return total, nil
	}
	if len(results) == 0 {
		return 0, nil
	}
	if t, err := size(len(results)); err != nil || t <= budget {
		return len(results), err
	}
	lo, hi := 1, len(results)-1
	best := 1
	for lo <= hi {
		mid := (lo + hi) / 2
		t, err := size(mid)
		if err != nil {
			return 0, err
		}
		if t <= budget {
			best, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best, nil
}

// snapshotCache keeps the snapshots built during one search: fitting an
// answer to the budget asks for the same ones again.
type snapshotCache struct {
	texts map[string]string
	view  View
}

func (c *snapshotCache) of(file string, targets []snapshot.Target) (string, error) {
	key := file
	for _, t := range targets {
		key += fmt.Sprintf("|%d-%d", t.StartLine, t.EndLine)
	}
	if text, ok := c.texts[key]; ok {
		return text, nil
	}
	text, err := c.view.Snapshot(file, targets)
	if err != nil {
		return "", err
	}
	c.texts[key] = text
	return text, nil
}

// renderAnswer renders the results with their snapshots and the leads;
// lookup says the first lead is the symbol asked for (graph.Input.Lookup).
func renderAnswer(query string, results []search.Result, descs map[string]graph.Result, snaps *snapshotCache, budget int, leads []graph.Lead, lookup bool) (Answer, error) {
	ans := Answer{Budget: budget}
	type fileGroup struct {
		file    string
		score   float64
		targets []snapshot.Target
	}
	var groups []*fileGroup
	byFile := map[string]*fileGroup{}
	in := graph.Input{Query: query, Budget: budget, Leads: leads, Lookup: lookup}
	for _, r := range results {
		c := r.Chunk
		g, ok := byFile[c.RelativePath]
		if !ok {
			g = &fileGroup{file: c.RelativePath, score: r.Score}
			byFile[c.RelativePath] = g
			groups = append(groups, g)
		}
		g.targets = append(g.targets, snapshot.Target{StartLine: c.StartLine, EndLine: c.EndLine, Source: c.FullSource})
		in.Results = append(in.Results, descs[c.ID])
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].score > groups[j].score })
	var texts []string
	prev := 1.0
	for _, g := range groups {
		text, err := snaps.of(g.file, g.targets)
		if err != nil {
			return ans, err
		}
		p := math.Round(g.score*100) / 100
		if p > prev {
			p = prev
		}
		if p > 0.99 {
			p = 0.99
		}
		if p < 0.01 {
			p = 0.01
		}
		prev = p
		ans.Snapshots = append(ans.Snapshots, Snapshot{File: g.file, Text: text, Score: g.score, Priority: p})
		texts = append(texts, text)
	}
	ans.Graph = in
	_, ans.Tokens = graph.Render(in, texts...)
	return ans, nil
}
