package answer

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
)

// DescribeAll asks for each result's structure, a few at a time and best
// first (the language server answers requests concurrently), up to the
// first wanted results: a result the budget drops is not worth the
// compiler's time.
func (x Local) DescribeAll(ctx context.Context, results []search.Result, callDepth int, wanted *atomic.Int64) (map[string]graph.Result, error) {
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
			descs[i], errs[i] = x.describe(ctx, r.Chunk, callDepth)
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

// describe is a result as the connection graph shows it, from the cache
// when the compiler described it since the last change.
func (x Local) describe(ctx context.Context, c chunk.Chunk, callDepth int) (graph.Result, error) {
	key := describeKey{c.ID, c.Name, callDepth}
	if d, ok := x.Described.get(key); ok {
		return d, nil
	}
	d, _, err := ask(ctx, x, named(c), func(s source) (graph.Result, error) { return s.describe(ctx, c, callDepth) })
	if err == nil && !d.Approximate {
		x.Described.put(key, d)
	}
	return d, err
}

// Describe is describe for a checkout's result of the shared index.
func (x Local) Describe(ctx context.Context, c chunk.Chunk, callDepth int) (graph.Result, error) {
	return x.describe(ctx, c, callDepth)
}

// DescribeCache keeps compiler answers about symbols until the next sync
// that changes any file: a change anywhere can add a caller or a reference,
// and chunk ids already change with their own file. An agent's follow-up
// questions between edits then cost no compiler round trips.
type DescribeCache struct {
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

func (c *DescribeCache) get(k describeKey) (graph.Result, bool) {
	if c == nil {
		return graph.Result{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[k]
	return d, ok
}

func (c *DescribeCache) put(k describeKey, d graph.Result) {
	if c == nil {
		return
	}
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

// Clear empties the cache (a sync changed a file, the compiler came or
// went, the index was rebuilt).
func (c *DescribeCache) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m, c.bytes = nil, 0
}

// DescribeIndexed describes a result from its chunk and its children's
// names; relations need the compiler or a local index, so it is marked
// approximate.
func DescribeIndexed(rd search.Reader, c chunk.Chunk, reason string) (graph.Result, error) {
	r := graph.Result{
		Name: c.DisplayName(), File: c.RelativePath, Line: nameLine(c), StartLine: c.StartLine, EndLine: c.EndLine,
		Kind: c.NodeKind, Modifiers: c.Modifiers, Signature: c.Signature, RefFiles: -1,
		Approximate: true, ApproximateReason: reason,
	}
	if containerKinds[c.NodeKind] && len(c.ChildChunkIDs) > 0 {
		kids, err := rd.ChunksByIDs(c.ChildChunkIDs)
		if err != nil {
			return r, err
		}
		for _, id := range c.ChildChunkIDs {
			ch, ok := kids[id]
			if !ok {
				continue
			}
			r.Members = append(r.Members, memberName(ch.Name, ch.NodeKind))
		}
	}
	return r, nil
}
