package engine

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/snapshot"
	"github.com/scry-dev/scry/internal/weaviate"
)

// View hands out the reads for one question: of the shared index's
// repositories (repos, else the configured ones) on a shared-index
// engine, else of the local index.
func (e *Engine) View(ctx context.Context, repos []string) (answer.View, error) {
	if e.shared == nil {
		return localView{e}, nil
	}
	rd, err := e.sharedReader(ctx, repos)
	if err != nil {
		return nil, err
	}
	return sharedView{e, rd}, nil
}

// localView reads the workspace's own index.
type localView struct{ e *Engine }

func (v localView) Index() search.Reader { return v.e.store }

func (v localView) Search(ctx context.Context, req search.Request) (search.Response, error) {
	pl := search.Pipeline{Store: v.e.store, Reranker: v.e.reranker, Hybrid: v.e.neural.Hybrid()}
	return pl.Search(ctx, req)
}

func (v localView) Snapshot(file string, targets []snapshot.Target) (string, error) {
	abs, _, err := v.e.root.Resolve(file)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", file, err)
	}
	return v.e.parsed.build(file, abs, v.e.readFile, targets)
}

func (v localView) DescribeAll(ctx context.Context, results []search.Result, callDepth int, wanted *atomic.Int64) (map[string]graph.Result, error) {
	return v.e.describeAll(ctx, results, callDepth, wanted)
}

func (v localView) Resync(ctx context.Context) (bool, error) {
	_, err := v.e.Sync(ctx)
	return true, err
}

// sharedView reads repositories of the shared index.
type sharedView struct {
	e  *Engine
	rd *weaviate.Reader
}

func (v sharedView) Index() search.Reader { return v.rd }

func (v sharedView) Search(ctx context.Context, req search.Request) (search.Response, error) {
	pl := search.Pipeline{Store: v.rd, Reranker: v.e.reranker, Hybrid: v.e.neural.SharedHybrid(v.rd)}
	return pl.Search(ctx, req)
}

func (v sharedView) Snapshot(file string, targets []snapshot.Target) (string, error) {
	return sharedSnapshot(v.rd, file, targets)
}

func (v sharedView) DescribeAll(ctx context.Context, results []search.Result, callDepth int, _ *atomic.Int64) (map[string]graph.Result, error) {
	return v.e.describeAllShared(ctx, v.rd, results, callDepth)
}

func (v sharedView) Resync(context.Context) (bool, error) { return false, nil }
