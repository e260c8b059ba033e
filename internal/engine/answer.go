package engine

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
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

// describeAll asks for each result's structure, a few at a time and best
// first (the language server answers requests concurrently), up to the
// first wanted results: a result the budget drops is not worth the
// compiler's time.
func (e *Engine) describeAll(ctx context.Context, results []search.Result, callDepth int, wanted *atomic.Int64) (map[string]graph.Result, error) {
	descs := make([]graph.Result, len(results))
	errs := make([]error, len(results))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	n := len(results)
	for i, r := range results {
		sem <- struct{}{}
		if int64(i) >= wanted.Load() {
			n = i
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			descs[i], errs[i] = e.describe(ctx, r.Chunk, callDepth)
		}()
	}
	wg.Wait()
	out := make(map[string]graph.Result, n)
	for i, r := range results[:n] {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out[r.Chunk.ID] = descs[i]
	}
	return out, nil
}

func (e *Engine) describe(ctx context.Context, c chunk.Chunk, callDepth int) (graph.Result, error) {
	key := describeKey{c.ID, c.Name, callDepth}
	if d, ok := e.described.get(key); ok {
		return d, nil
	}
	d, err := e.describeUncached(ctx, c, callDepth)
	if err == nil && !d.Approximate {
		e.described.put(key, d)
	}
	return d, err
}

func (e *Engine) describeUncached(ctx context.Context, c chunk.Chunk, callDepth int) (graph.Result, error) {
	d, _, err := ask(ctx, e, named(c), func(s source) (graph.Result, error) { return s.describe(ctx, c, callDepth) })
	return d, err
}

// describeCache keeps compiler answers about symbols until the next sync
// that changes any file: a change anywhere can add a caller or a reference,
// and chunk ids already change with their own file. An agent's follow-up
// questions between edits then cost no compiler round trips.
type describeCache struct {
	mu    sync.Mutex
	m     map[describeKey]graph.Result
	bytes int // the entries' encoded sizes
}

// maxDescribeBytes bounds the cache by the encoded size of its entries: a
// transitive call tree of a hub symbol can run to megabytes.
var maxDescribeBytes = 32 << 20

type describeKey struct {
	id string
	// name: a statement declaring several variables is one chunk, looked
	// up (and described) under each declarator's name.
	name  string
	depth int
}

func (c *describeCache) get(k describeKey) (graph.Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[k]
	return d, ok
}

func (c *describeCache) put(k describeKey, d graph.Result) {
	enc, err := json.Marshal(d)
	if err != nil || len(enc) > maxDescribeBytes/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 20000 || c.bytes+len(enc) > maxDescribeBytes {
		c.m, c.bytes = map[describeKey]graph.Result{}, 0
	}
	if _, ok := c.m[k]; !ok {
		c.bytes += len(enc)
	}
	c.m[k] = d
}

func (c *describeCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m, c.bytes = nil, 0
}
