package engine

import (
	"context"
	"errors"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/snapshot"
)

// Query is a search: plain words, or `symbol = [file >] [Parent >] name`.
// Zero values take the configured settings.
type Query struct {
	Text      string
	Paths     []string // files, directories or globs (ConfinePaths checks them)
	Languages []string
	Limit     int      // at most this many results (0: as many as pass the gate and fit)
	Budget    int      // token budget of the whole answer
	Threshold *float64 // minimum relevance 0..1
	CallDepth int      // call-tree depth in the graph (-1: transitive)
	// Repos are the repositories searched in a shared index (empty: the
	// configured ones); a local index ignores them.
	Repos []string
}

// params are the pipeline's settings for q: the configuration, overridden
// by what q sets.
func (e *Engine) params(q Query) search.Params {
	prm := search.Params{
		RerankWeight: e.conf().RerankWeight, VectorWeight: e.conf().VectorWeight, Threshold: e.conf().Threshold, Coverage: e.conf().Coverage,
		Budget: e.conf().Budget, Candidates: e.conf().Candidates, Limit: q.Limit,
	}
	if q.Budget != 0 {
		prm.Budget = q.Budget
	}
	if q.Threshold != nil {
		// A threshold given with the question is the whole gate: nothing
		// below it joins for coverage.
		prm.Threshold, prm.Coverage = *q.Threshold, 0
	}
	return prm
}

// Search answers a query: the ranked (or looked-up) results, described for
// the connection graph, with one smart snapshot per file. The token budget
// bounds the whole answer: when the graph and snapshots outgrow it
// (snapshots add the imports and fields a symbol needs), the lowest-scored
// results go first.
//
// Every snapshot comes from the version of its file that the chunks
// selecting it were indexed from: a file edited in between (snapshot.ErrStale)
// is synced and the question asked again, a few times at most.
func (e *Engine) Search(ctx context.Context, q Query) (answer.Answer, error) {
	callDepth, err := e.conf().CallDepthFor(q.CallDepth)
	if err != nil {
		return answer.Answer{}, err
	}
	req := search.Request{Query: q.Text, Paths: q.Paths, Languages: q.Languages, Params: e.params(q)}
	v, err := e.View(ctx, q.Repos)
	if err != nil {
		return answer.Answer{}, err
	}
	for attempt := 0; ; attempt++ {
		if lv, ok := v.(localView); ok && attempt == maxStaleRetries {
			// Still changing: the last attempt answers from the index.
			lv.fromIndex = true
			v = lv
		}
		ans, err := answer.Search(ctx, v, req, callDepth)
		if !errors.Is(err, snapshot.ErrStale) || attempt == maxStaleRetries {
			return ans, err
		}
		resynced, serr := v.Resync(ctx)
		if !resynced {
			return ans, err
		}
		if serr != nil {
			return ans, errors.Join(err, serr)
		}
	}
}

// maxStaleRetries bounds the re-syncs of one question whose files keep
// changing under it; the last error then says so.
const maxStaleRetries = 3
