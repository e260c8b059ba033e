package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/snapshot"
)

// fileView is a View over one file of ten three-line functions: its
// search answers them all, best first; its snapshot is the real one.
type fileView struct{ src string }

func newFileView() (fileView, []search.Result) {
	var b strings.Builder
	var results []search.Result
	for i := range 10 {
		fmt.Fprintf(&b, "export function f%d(n: number): number {\n  return n + %d\n}\n", i, i)
		c := chunk.Chunk{ID: fmt.Sprint(i), RelativePath: "a.ts", Name: fmt.Sprintf("f%d", i), NodeKind: "function",
			StartLine: 3*i + 1, EndLine: 3*i + 3, FullSource: fmt.Sprintf("export function f%d(n: number): number {\n  return n + %d\n}", i, i)}
		results = append(results, search.Result{Chunk: c, Score: 0.9 - float64(i)/100})
	}
	return fileView{b.String()}, results
}

func (v fileView) Search(context.Context, search.Request) (search.Response, error) {
	_, results := newFileView()
	return search.Response{Results: results}, nil
}

func (v fileView) Snapshot(file string, targets []snapshot.Target) (string, error) {
	return snapshot.Build(file, []byte(v.src), targets)
}

func (v fileView) DescribeAll(_ context.Context, results []search.Result, _ int, _ *atomic.Int64) (map[string]graph.Result, error) {
	out := map[string]graph.Result{}
	for _, r := range results {
		c := r.Chunk
		out[c.ID] = graph.Result{Name: c.DisplayName(), File: c.RelativePath, Line: c.StartLine, StartLine: c.StartLine, EndLine: c.EndLine, Kind: c.NodeKind}
	}
	return out, nil
}

func (v fileView) Resync(context.Context) (bool, error) { return false, nil }

// TestFitSnapshotsHonoursCancellation: fitting an answer to its budget
// parses and counts whole files, round after round; a call the agent
// cancelled used to run them all.
func TestFitSnapshotsHonoursCancellation(t *testing.T) {
	v, results := newFileView()
	ctx := context.Background()
	// A live context fits (the test's premise: there is work to stop).
	if n, err := fitSnapshots(ctx, results, &snapshotCache{texts: map[string]string{}, view: v}, 40); err != nil || n < 1 {
		t.Fatalf("fitSnapshots = %d, %v", n, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if n, err := fitSnapshots(cancelled, results, &snapshotCache{texts: map[string]string{}, view: v}, 40); !errors.Is(err, context.Canceled) {
		t.Fatalf("fitSnapshots with a cancelled context = %d, %v; want context.Canceled", n, err)
	}
}

// An answer never outgrows its budget: the results that do not fit are
// dropped best-last, and without a budget every result is shown.
func TestSearchFitsTheBudget(t *testing.T) {
	v, _ := newFileView()
	tests := []struct {
		name   string
		budget int
		fewer  bool // some results are dropped
	}{
		{"no budget", 0, false},
		{"roomy", 4000, false},
		{"tight", 120, true},
	}
	for _, tc := range tests {
		ans, err := Search(context.Background(), v, search.Request{Query: "f", Params: search.Params{Budget: tc.budget}}, 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if tc.budget > 0 && ans.Tokens > tc.budget && ans.MinBudget == 0 {
			t.Errorf("%s: %d tokens over a budget of %d", tc.name, ans.Tokens, tc.budget)
		}
		if got := len(ans.Response.Results); (got < 10) != tc.fewer {
			t.Errorf("%s: %d of 10 results kept", tc.name, got)
		}
		if len(ans.Response.Results) > 0 && len(ans.Snapshots) != 1 {
			t.Errorf("%s: %d snapshots of one file", tc.name, len(ans.Snapshots))
		}
	}
}

// overView answers two small functions and names, as its first lead, the
// definition asked for, too large for any budget.
type overView struct{ fileView }

func (v overView) Search(context.Context, search.Request) (search.Response, error) {
	_, results := newFileView()
	big := chunk.Chunk{ID: "big", RelativePath: "b.ts", Name: "Big", NodeKind: "class", StartLine: 1, EndLine: 900}
	return search.Response{Results: results[:2], Leads: []search.Lead{
		{Chunk: big, Probability: 0.95, Tokens: 11129, OverBudget: true, Defines: true},
	}}, nil
}

// A bare name's definition too large for the budget is said to be the
// symbol asked for, above the smaller matches that are shown; a lead that
// is no definition gets no such line.
func TestSearchSaysTheDefinitionIsOverBudget(t *testing.T) {
	files, _ := newFileView()
	ans, err := Search(context.Background(), overView{files}, search.Request{Query: "Big", Params: search.Params{Budget: 8000}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := graph.Render(ans.Graph)
	if len(ans.Response.Results) != 2 || !ans.Graph.Lookup ||
		!strings.Contains(text, "The symbol asked for, class Big (b.ts:1), takes 11,129 tokens, more than the 8,000 budget") {
		t.Errorf("results %d, lookup %v:\n%s", len(ans.Response.Results), ans.Graph.Lookup, text)
	}
	ans, err = Search(context.Background(), overNotDefined{files}, search.Request{Query: "big things", Params: search.Params{Budget: 8000}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := graph.Render(ans.Graph); ans.Graph.Lookup || strings.Contains(text, "The symbol asked for") {
		t.Errorf("a sentence's large lead said to be the symbol asked for:\n%s", text)
	}
}

type overNotDefined struct{ fileView }

func (v overNotDefined) Search(ctx context.Context, req search.Request) (search.Response, error) {
	resp, err := overView{v.fileView}.Search(ctx, req)
	resp.Leads[0].Defines = false
	return resp, err
}
