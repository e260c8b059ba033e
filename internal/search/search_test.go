package search_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tokens"
	"github.com/scry-dev/scry/internal/workspace"
)

func TestParseSymbolQuery(t *testing.T) {
	tests := []struct {
		in      string
		ok      bool
		wantErr bool
		file    string
		parents string
		name    string
	}{
		{in: "symbol = validateToken", ok: true, name: "validateToken"},
		{in: "symbol = TokenService > validateToken", ok: true, parents: "TokenService", name: "validateToken"},
		{in: "symbol = src/auth/tokenService.ts > TokenService > validateToken", ok: true, file: "src/auth/tokenService.ts", parents: "TokenService", name: "validateToken"},
		{in: "  Symbol=TokenService.validateToken ", ok: true, parents: "TokenService", name: "validateToken"},
		{in: "symbol = ./src/a.ts > f", ok: true, file: "src/a.ts", name: "f"},
		{in: "symbol = A > B > c", ok: true, parents: "A > B", name: "c"},
		{in: "symbol = ", ok: true, wantErr: true},
		{in: "symbol = > >", ok: true, wantErr: true},
		{in: "where are tokens validated", ok: false},
		{in: "symbolic links", ok: false},
		{in: "symbol lookup", ok: false},
	}
	for _, tt := range tests {
		p, ok, err := search.ParseSymbolQuery(tt.in)
		if ok != tt.ok || (err != nil) != tt.wantErr {
			t.Errorf("%q: ok=%v err=%v, want ok=%v err=%v", tt.in, ok, err, tt.ok, tt.wantErr)
			continue
		}
		if !ok || err != nil {
			continue
		}
		if p.File != tt.file || strings.Join(p.Parents, " > ") != tt.parents || p.Name != tt.name {
			t.Errorf("%q: got file=%q parents=%q name=%q", tt.in, p.File, strings.Join(p.Parents, " > "), p.Name)
		}
	}
}

func FuzzSymbolQuery(f *testing.F) {
	for _, s := range []string{"symbol = a", "symbol = a.ts > B > c", "symbol=>", "symbol = x.y.z", "plain words"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, ok, err := search.ParseSymbolQuery(q)
		if !ok || err != nil {
			return
		}
		if p.Name == "" {
			t.Fatalf("%q parsed to an empty name", q)
		}
		for _, seg := range append(append([]string{}, p.Parents...), p.Name) {
			if strings.Contains(seg, ">") || seg != strings.TrimSpace(seg) {
				t.Fatalf("%q: bad segment %q", q, seg)
			}
		}
	})
}

func cand(id string, first float64, src string) search.Result {
	return search.Result{Chunk: chunk.Chunk{ID: id, RelativePath: id + ".ts", FullSource: src, StartLine: 1, EndLine: 1}, FirstStage: first}
}

func TestBlend(t *testing.T) {
	cands := []search.Result{cand("a", 1, "x"), cand("b", 0.5, "x"), cand("c", 0.2, "x")}
	got := search.Blend(cands, []float64{0.2, 1, 0.6}, search.DefaultParams())
	want := map[string]float64{"a": 0.65*0.2 + 0.35*1, "b": 0.65*1 + 0.35*0.5, "c": 0.65*0.6 + 0.35*0.2}
	order := []string{"b", "a", "c"}
	for i, r := range got {
		if r.Chunk.ID != order[i] {
			t.Fatalf("order %d = %s, want %s", i, r.Chunk.ID, order[i])
		}
		if math.Abs(r.Score-want[r.Chunk.ID]) > 1e-12 {
			t.Errorf("%s: score %v, want %v", r.Chunk.ID, r.Score, want[r.Chunk.ID])
		}
	}
	// Weights that do not sum to one are normalised: the score stays in [0,1].
	got = search.Blend([]search.Result{cand("a", 1, "x")}, []float64{1}, search.Params{RerankWeight: 2, VectorWeight: 2})
	if got[0].Score != 1 {
		t.Errorf("normalised blend of perfect scores = %v, want 1", got[0].Score)
	}
	// Out-of-range scores are clamped.
	got = search.Blend([]search.Result{cand("a", 3, "x")}, []float64{-1}, search.DefaultParams())
	if got[0].Score != 0.35 {
		t.Errorf("clamped blend = %v, want 0.35", got[0].Score)
	}
}

// scored builds n results with descending scores and sources of known token
// counts.
func scored(scores []float64, src string) []search.Result {
	out := make([]search.Result, len(scores))
	for i, s := range scores {
		r := cand(fmt.Sprintf("c%02d", i), 0, src)
		r.Score = s
		out[i] = r
	}
	return out
}

func TestSelect(t *testing.T) {
	src := strings.Repeat("const value = compute(input);\n", 10)
	per := tokens.Count(src)
	ten := []float64{0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.52}
	tests := []struct {
		name      string
		scores    []float64
		threshold float64
		budget    int
		want      int
	}{
		{"relevance gate: 3 of 10 pass", []float64{0.9, 0.8, 0.6, 0.4, 0.3, 0.3, 0.2, 0.2, 0.1, 0.1}, 0.5, 100000, 3},
		{"token budget: 10 pass, 5 fit", ten, 0.5, per*5 + per/2, 5},
		{"both: 4 pass, 3 fit", []float64{0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.2, 0.2, 0.1, 0.1}, 0.5, per * 3, 3},
		{"empty", nil, 0.5, 8000, 0},
		{"single result", []float64{0.8, 0.3}, 0.5, 8000, 1},
		{"nothing passes", []float64{0.49, 0.3}, 0.5, 8000, 0},
	}
	for _, tt := range tests {
		got := search.Select(scored(tt.scores, src), search.Params{Threshold: tt.threshold, Budget: tt.budget})
		if len(got) != tt.want {
			t.Errorf("%s: %d results, want %d", tt.name, len(got), tt.want)
		}
		used := 0
		for i, r := range got {
			used += r.Tokens
			if r.Score < tt.threshold {
				t.Errorf("%s: result %d below threshold", tt.name, i)
			}
			if i > 0 && r.Score > got[i-1].Score {
				t.Errorf("%s: results not best first", tt.name)
			}
		}
		if used > tt.budget {
			t.Errorf("%s: %d tokens used, budget %d", tt.name, used, tt.budget)
		}
	}
}

// The first definition of a bare name asked for passes the gate whatever
// its probability, even under the plausibility floor, and covers the
// question: no unsure candidate joins after it for coverage. With coverage
// on (the default) and off.
func TestSelectShowsTheDefinitionAskedFor(t *testing.T) {
	src := "export interface Router<T> {\n  match(path: string): T[];\n}\n"
	for _, coverage := range []float64{0, 0.95} {
		prm := search.Params{Threshold: 0.5, Budget: 8000, Coverage: coverage}
		ranked := scored([]float64{0.013, 0.013, 0.01}, src)
		if got := search.Select(ranked, prm); len(got) != 0 {
			t.Errorf("coverage %v: %d results under the floor without a definition", coverage, len(got))
		}
		ranked[0].Defines = true
		got := search.Select(ranked, prm)
		if len(got) != 1 || got[0].Chunk.ID != ranked[0].Chunk.ID {
			t.Errorf("coverage %v: the definition asked for is not the one result: %d results", coverage, len(got))
		}
		// Unsure candidates join for coverage, but not after the
		// definition: an answer that holds it is sure.
		unsure := scored([]float64{0.3, 0.3, 0.3}, src)
		if got := search.Select(unsure, prm); coverage > 0 && len(got) != 3 {
			t.Errorf("coverage %v: %d unsure results, want 3", coverage, len(got))
		}
		unsure[0].Defines = true
		if got := search.Select(unsure, prm); len(got) != 1 {
			t.Errorf("coverage %v: %d results after the definition asked for, want it alone", coverage, len(got))
		}
		// Too large for the budget, the definition asked for leads the
		// leads, said to be over it, even when a member of it is shown
		// (which would hide any other candidate that holds a result);
		// what joins for coverage still does, its member among them.
		big := append(scored([]float64{0.3}, strings.Repeat(src, 2000)), scored([]float64{0.3, 0.3}, "const x = 1;\n")...)
		big[0].Defines = true
		big[1].Chunk.ID, big[1].Chunk.RelativePath = "member", big[0].Chunk.RelativePath
		big[1].Chunk.Depth, big[1].Chunk.StartLine, big[1].Chunk.EndLine = 1, 2, 2
		big[0].Chunk.EndLine = 1200
		got, leads := search.SelectAnswer(big, search.Params{Threshold: 0.5, Budget: 8000, Coverage: coverage})
		if wantShown := map[bool]int{false: 0, true: 2}[coverage > 0]; len(got) != wantShown {
			t.Errorf("coverage %v: %d results after a definition over the budget, want %d", coverage, len(got), wantShown)
		}
		if len(leads) == 0 || leads[0].Chunk.ID != big[0].Chunk.ID || !leads[0].OverBudget || !leads[0].Defines {
			t.Errorf("coverage %v: a definition over the budget is not the first lead: %+v", coverage, leads)
		}
		prm.Budget = 3 // too small: the definition becomes a lead over the budget
		_, leads = search.SelectAnswer(ranked, prm)
		if len(leads) == 0 || !leads[0].OverBudget {
			t.Errorf("coverage %v: a definition over the budget is not said to be: %+v", coverage, leads)
		}
	}
}

// TestAmbiguousNameShowsEachDefinition: a bare name defined in two places
// in the code (svelte's mount: the server build's stub, ranked first, and
// the client's implementation, ranked below a _mount that matches the
// query's letters only) shows both definitions in full, and only them;
// at most three are marked.
func TestAmbiguousNameShowsEachDefinition(t *testing.T) {
	src := "export function mount() {\n  unavailable('mount');\n}\n"
	ranked := scored([]float64{0.34, 0.22, 0.14, 0.10, 0.09, 0.08, 0.05}, src)
	names := []string{"mount", "_mount", "mount", "mount", "mount", "mount", "onMount"}
	feats := make([]search.Features, len(ranked))
	for i := range ranked {
		ranked[i].Chunk.Name = names[i]
		ranked[i].Chunk.RelativePath = fmt.Sprintf("src/f%d.js", i)
		if names[i] != "onMount" {
			feats[i][search.FWholeName] = 1 // the definitions block
		}
	}
	search.MarkDefinition(ranked, func(k int) *search.Features { return &feats[k] })
	var marked []int
	for i, r := range ranked {
		if r.Defines {
			marked = append(marked, i)
		}
	}
	if !slices.Equal(marked, []int{0, 2, 3}) {
		t.Fatalf("definitions marked at %v, want [0 2 3] (the name asked for, at most three)", marked)
	}
	got := search.Select(ranked, search.Params{Threshold: 0.5, Budget: 8000, Coverage: 0.95})
	var shown []string
	for _, r := range got {
		shown = append(shown, r.Chunk.RelativePath)
	}
	if want := []string{"src/f0.js", "src/f2.js", "src/f3.js"}; !slices.Equal(shown, want) {
		t.Errorf("shown %v, want %v", shown, want)
	}
}

func TestSelectParentAndChildBecomeOne(t *testing.T) {
	parent := search.Result{Chunk: chunk.Chunk{ID: "p", RelativePath: "a.ts", StartLine: 1, EndLine: 20, Depth: 0, FullSource: "class A {}"}, Score: 0.7}
	child := search.Result{Chunk: chunk.Chunk{ID: "c", RelativePath: "a.ts", StartLine: 3, EndLine: 8, Depth: 1, FullSource: "m() {}"}, Score: 0.9}
	got := search.Select([]search.Result{child, parent}, search.Params{Threshold: 0.5, Budget: 8000})
	if len(got) != 1 || got[0].Chunk.ID != "c" {
		t.Fatalf("child scored higher: got %v", ids(got))
	}
	parent.Score, child.Score = 0.9, 0.7
	got = search.Select([]search.Result{parent, child}, search.Params{Threshold: 0.5, Budget: 8000})
	if len(got) != 1 || got[0].Chunk.ID != "p" {
		t.Fatalf("parent scored higher: got %v", ids(got))
	}
}

// An answer shows at most search.MaxCopies chunks of one name and
// signature from different files; the other copies stay leads, and what
// differs in name, signature or file is shown as before.
func TestSelectLimitsCopies(t *testing.T) {
	method := func(file, name, sig string, score float64) search.Result {
		return search.Result{Chunk: chunk.Chunk{ID: file + "#" + name, RelativePath: file, Name: name, Signature: sig,
			StartLine: 10, EndLine: 20, FullSource: sig + " { return q }"}, Score: score}
	}
	const sig = "protected createTableSql(table: Table): Query"
	ranked := []search.Result{
		method("sap/SapQueryRunner.ts", "createTableSql", sig, 0.9),
		method("postgres/PostgresQueryRunner.ts", "createTableSql", sig, 0.9),
		method("mysql/MysqlQueryRunner.ts", "createTableSql", sig, 0.9),
		method("naming/DefaultNamingStrategy.ts", "uniqueConstraintName", "uniqueConstraintName(table: Table): string", 0.8),
		method("oracle/OracleQueryRunner.ts", "createTableSql", "protected createTableSql(table: Table, oracle: boolean): Query", 0.7),
		method("spanner/SpannerQueryRunner.ts", "createTableSql", sig, 0.6),
		method("sap/SapQueryRunner.ts", "dropTableSql", sig, 0.6),
	}
	results, leads := search.SelectAnswer(ranked, search.Params{Threshold: 0.5, Budget: 8000})
	want := []string{
		"sap/SapQueryRunner.ts#createTableSql", "postgres/PostgresQueryRunner.ts#createTableSql",
		"naming/DefaultNamingStrategy.ts#uniqueConstraintName", "oracle/OracleQueryRunner.ts#createTableSql",
		"sap/SapQueryRunner.ts#dropTableSql",
	}
	if got := ids(results); !slices.Equal(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
	var leadIDs []string
	for _, l := range leads {
		leadIDs = append(leadIDs, l.Chunk.ID)
	}
	if want := []string{"mysql/MysqlQueryRunner.ts#createTableSql", "spanner/SpannerQueryRunner.ts#createTableSql"}; !slices.Equal(leadIDs, want) {
		t.Errorf("leads %v, want %v", leadIDs, want)
	}
}

func ids(rs []search.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Chunk.ID)
	}
	return out
}

// projectStore indexes the test project into a fresh SQLite file.
func projectStore(t *testing.T) *store.Store {
	t.Helper()
	return indexDir(t, "../../testdata/project")
}

// indexDir indexes a directory into a fresh SQLite file closed with the
// test.
func indexDir(t *testing.T, dir string) *store.Store {
	t.Helper()
	root, err := workspace.NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := index.New(root, st, index.Options{}).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestPipeline(t *testing.T) {
	st := projectStore(t)
	pl := search.Pipeline{Store: st}
	run := func(q string, prm search.Params, paths ...string) search.Response {
		t.Helper()
		resp, err := pl.Search(context.Background(), search.Request{Query: q, Paths: paths, Params: prm})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		return resp
	}
	def := search.DefaultParams()

	// The answer to a plain question comes first.
	resp := run("where are JWT tokens validated", def)
	if len(resp.Results) == 0 || resp.Results[0].Chunk.Name != "validateToken" {
		t.Fatalf("top result: %v", names(resp))
	}
	// Empty: nothing matches, no error.
	if resp := run("zqxjv wwkpt", def); len(resp.Results) != 0 {
		t.Fatalf("nonsense query returned %v", names(resp))
	}
	// Path filter applied in stage 1: every candidate, including those
	// the query names outright, comes from the filtered files.
	open := def
	open.Threshold = 0
	resp = run("token secret getSecret", open, "src/config")
	if len(resp.Results) == 0 {
		t.Fatal("path-filtered search found nothing")
	}
	for _, r := range resp.Results {
		if !strings.HasPrefix(r.Chunk.RelativePath, "src/config/") {
			t.Fatalf("path-filtered results: %v", names(resp))
		}
	}
	// A specific question: the code that reads JWT_SECRET comes first,
	// and nothing unrelated passes the threshold (below it, coverage may
	// add a likelier-than-the-floor result while the answer is unsure).
	resp = run("JWT_SECRET is not set", def)
	if len(resp.Results) == 0 || !strings.HasSuffix(resp.Results[0].Chunk.Breadcrumb, "AuthConfig > getSecret") {
		t.Fatalf("specific question: %v", names(resp))
	}
	for _, r := range resp.Results {
		if r.Chunk.Name != "getSecret" && r.Score >= def.Threshold {
			t.Fatalf("specific question: unrelated %s passed the gate: %v", r.Chunk.Name, names(resp))
		}
	}
	// Budget: a tiny budget keeps only what fits.
	tiny := def
	tiny.Budget = 60
	for _, r := range run("token", tiny).Results {
		if r.Tokens > 60 {
			t.Fatalf("result of %d tokens in a 60-token budget", r.Tokens)
		}
	}
}

func names(resp search.Response) []string {
	var out []string
	for _, r := range resp.Results {
		out = append(out, fmt.Sprintf("%s(%.2f)", r.Chunk.Breadcrumb, r.Score))
	}
	return out
}

// TestSymbolLookupGolden runs symbol-lookup cases (docs/architecture.md, rule 4) against
// the test project.
func TestSymbolLookupGolden(t *testing.T) {
	st := projectStore(t)
	pl := search.Pipeline{Store: st}
	queries := []string{
		"symbol = validateToken",
		"symbol = TokenService > validateToken",
		"symbol = src/auth/tokenService.ts > TokenService > validateToken",
		"symbol = auth.ts > AuthConfig > getSecret",
		"symbol = nonExistentSymbol",
		"symbol = getSecret",
		"symbol = AuthMiddleware.verify",
		// Nothing matches: the nearest symbols are named instead.
		"symbol = TokenService > validateTokn",
		"symbol = TokenServce > validateToken",
		"symbol = src/auth/base.ts > validateToken",
	}
	var b strings.Builder
	for _, q := range queries {
		resp, err := pl.Search(context.Background(), search.Request{Query: q, Params: search.DefaultParams()})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		fmt.Fprintf(&b, "%s\n", q)
		if len(resp.Results) == 0 {
			b.WriteString("  (no results)\n")
			if resp.Missing != sp(q) {
				t.Errorf("%q: missing %q", q, resp.Missing)
			}
			for _, l := range resp.Leads {
				fmt.Fprintf(&b, "  nearest: %s %s [%d-%d]\n", l.Chunk.NodeKind, l.Chunk.Breadcrumb, l.Chunk.StartLine, l.Chunk.EndLine)
			}
		}
		for _, r := range resp.Results {
			fmt.Fprintf(&b, "  %s %s [%d-%d]\n", r.Chunk.NodeKind, r.Chunk.Breadcrumb, r.Chunk.StartLine, r.Chunk.EndLine)
		}
	}
	// Not a symbol query: the ranked pipeline answers instead.
	resp, _ := pl.Search(context.Background(), search.Request{Query: "TokenService validateToken", Params: search.DefaultParams()})
	if resp.Symbol != nil {
		t.Error("a query without the prefix was treated as a symbol lookup")
	}
	golden.Check(t, "testdata/symbol-lookup.txtar", []golden.File{{Name: "lookups", Data: b.String()}})
}

// sp is the symbol path of a `symbol = …` query as Response.Missing
// writes it.
func sp(q string) string {
	p, _, err := search.ParseSymbolQuery(q)
	if err != nil {
		return ""
	}
	return p.String()
}

// Both backends implement the pipeline's reads.
var _ search.Reader = (*store.Store)(nil)

// A bare name that nothing in the index defines or mentions gets leads
// only, and the answer says so; a name that is defined, or only used (an
// import from a library), and any sentence get the ranked answer as before.
func TestUnknownName(t *testing.T) {
	pl := search.Pipeline{Store: projectStore(t)}
	tests := []struct {
		query   string
		unknown string
	}{
		{"TokenService", ""},
		{"TokenService.validateToken", ""},
		{"createHmac", ""}, // imported from node:crypto, defined nowhere here
		{"where are JWT tokens validated", ""},
		{"validateTokenPair", "validateTokenPair"}, // its words are here, the name is not
		{"`refreshSession`", "refreshSession"},
		{"Session > rotate", "Session > rotate"},
	}
	for _, tt := range tests {
		resp, err := pl.Search(context.Background(), search.Request{Query: tt.query, Params: search.DefaultParams()})
		if err != nil {
			t.Fatalf("%q: %v", tt.query, err)
		}
		if resp.Unknown != tt.unknown {
			t.Errorf("%q: Unknown = %q, want %q", tt.query, resp.Unknown, tt.unknown)
		}
		switch {
		case tt.unknown != "" && len(resp.Results) > 0:
			t.Errorf("%q: unknown name shown in full: %v", tt.query, names(resp))
		case tt.unknown != "" && len(resp.Leads) == 0:
			t.Errorf("%q: unknown name without leads", tt.query)
		case tt.unknown == "" && len(resp.Results) == 0:
			t.Errorf("%q: no result", tt.query)
		}
		for _, l := range resp.Leads {
			if tt.unknown != "" && l.OverBudget {
				t.Errorf("%q: lead %s over the budget of an answer with nothing to show", tt.query, l.Chunk.Name)
			}
		}
	}
}

// A name asks for the symbol of the case it is written in when one has it:
// asked for Router, the Router interface is the definition, not the router
// property that holds one (which a case-blind match lifted first, and
// whose low probability left the answer with leads only); asked for
// router, the property; asked for ROUTER, which nothing is named, either.
func TestDefinitionMatchesTheCaseAskedFor(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"src/router.ts": "export interface Router<T> {\n  add(method: string, path: string, handler: T): void;\n  match(method: string, path: string): T[];\n}\n",
		"src/app.ts": "import type { Router } from './router';\n\nexport class App {\n  router: Router<string>;\n  constructor(router: Router<string>) {\n    this.router = router;\n  }\n" +
			"  get(path: string): string[] {\n    return this.router.match('GET', path);\n  }\n}\n",
	})
	pl := search.Pipeline{Store: indexDir(t, dir)}
	for _, tt := range []struct {
		query string
		first []string // acceptable first results, by breadcrumb suffix
	}{
		{"Router", []string{"> Router"}},
		{"router", []string{"App > router"}},
		{"ROUTER", []string{"> Router", "App > router"}}, // no exact name: any case
	} {
		resp, err := pl.Search(context.Background(), search.Request{Query: tt.query, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) == 0 {
			t.Errorf("%q: no result (leads %d)", tt.query, len(resp.Leads))
			continue
		}
		first := resp.Results[0].Chunk.Breadcrumb
		ok := false
		for _, want := range tt.first {
			ok = ok || strings.HasSuffix(first, want) && !strings.HasSuffix(first, "App"+want)
		}
		if !ok {
			t.Errorf("%q: first result %s, want one of %v", tt.query, first, tt.first)
		}
	}
}

// A method assigned to a prototype (or a function to a path) defines its
// last name: asked for it bare, by its owner's path or in full, it is the
// definition, before code that only calls it or defines a longer name.
func TestAssignedDefinitionIsTheNameAskedFor(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"lib/runner.js": "'use strict';\n\nfunction Runner(suite) {\n  this.suite = suite;\n}\n\n/**\n * Sets how many times a failing test is retried.\n */\n" +
			"Runner.prototype.retries = function (n) {\n  this.suite.retries(n);\n  return this;\n};\n\nRunner.create = function (suite) {\n  return new Runner(suite);\n};\n\nmodule.exports = Runner;\n",
		"lib/cli.js": "'use strict';\n\nconst Runner = require('./runner');\n\nfunction main(argv) {\n  const runner = Runner.create(argv.suite);\n  runner.retries(argv.retries);\n  runner.retriesLeft = argv.retries;\n  return runner;\n}\n\nmodule.exports = main;\n",
	})
	pl := search.Pipeline{Store: indexDir(t, dir)}
	ask := func(q string) search.Response {
		t.Helper()
		resp, err := pl.Search(context.Background(), search.Request{Query: q, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for _, tt := range []struct{ query, first string }{
		{"retries", "Runner.prototype.retries"},
		{"Runner.retries", "Runner.prototype.retries"},
		{"Runner > retries", "Runner.prototype.retries"},
		{"Runner.prototype.retries", "Runner.prototype.retries"},
		{"create", "Runner.create"},
	} {
		resp := ask(tt.query)
		if len(resp.Results) == 0 {
			t.Errorf("%q: no result (leads %d)", tt.query, len(resp.Leads))
			continue
		}
		if got := resp.Results[0].Chunk.Name; got != tt.first || !resp.Results[0].Defines {
			t.Errorf("%q: first result %s (defines %v), want the definition %s", tt.query, got, resp.Results[0].Defines, tt.first)
		}
	}
	// The exact lookup reads the same paths, and still nothing else.
	for _, tt := range []struct{ query, want string }{
		{"symbol = retries", "Runner.prototype.retries"},
		{"symbol = lib/runner.js > create", "Runner.create"},
		{"symbol = Runner > retries", "Runner.prototype.retries"},
		{"symbol = Runner.retries", "Runner.prototype.retries"},
		{"symbol = Runner.prototype.retries", "Runner.prototype.retries"},
		{"symbol = lib/runner.js > Runner > create", "Runner.create"},
		{"symbol = lib/cli.js > Runner > create", ""},
		{"symbol = Runner > retriesLeft", ""},
		{"symbol = Suite > retries", ""},
	} {
		resp := ask(tt.query)
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.Chunk.Name)
		}
		if want := []string{tt.want}; tt.want == "" && len(got) > 0 || tt.want != "" && !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %q", tt.query, got, tt.want)
		}
	}
}

// TestTestWordsOfATestRunner: "test" in a question asks for test files
// (they are not demoted), except where the code defines a Test: in a test
// runner's own code the word names its subject, and the test files' many
// mentions of timeouts would crowd out the one place that enforces them.
func TestTestWordsOfATestRunner(t *testing.T) {
	tree := func(dir, subject string) map[string]string {
		files := map[string]string{
			dir + strings.ToLower(subject) + ".js": "'use strict';\n\nfunction " + subject + "(title, fn) {\n  this.title = title;\n  this.fn = fn;\n  this._timeout = 2000;\n}\n\n" +
				"/**\n * Fails the run when it takes longer than its timeout.\n */\n" + subject + ".prototype.enforceTimeout = function (elapsed) {\n  if (elapsed > this._timeout) {\n    throw new Error('Timeout of ' + this._timeout + 'ms exceeded');\n  }\n};\n\nmodule.exports = " + subject + ";\n",
			"test/timeout.spec.js": "describe('timeout', function () {\n  it('test fails after its timeout is exceeded', function () {\n    this.timeout(100);\n  });\n});\n",
		}
		return files
	}
	for _, tt := range []struct {
		dir, subject, query string
		demoted             bool // the test file's chunks are demoted
	}{
		{"lib/", "Test", "where is the timeout of a test enforced", true},
		{"lib/", "Test", "how do tests enforce a timeout", true},
		{"lib/", "Runnable", "where is the timeout of a test enforced", false},
		{"lib/", "Runnable", "timeout specs", false},
		{"lib/", "Test", "timeout specs", false}, // every test word must name the subject
		// Indexed from lib/: test.js defines Test, and is its code.
		{"", "Test", "where is the timeout of a test enforced", true},
	} {
		dir := t.TempDir()
		testkit.WriteTree(t, dir, tree(tt.dir, tt.subject))
		pl := search.Pipeline{Store: indexDir(t, dir)}
		cs, err := pl.Gather(context.Background(), search.Request{Query: tt.query, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		n, code := 0, 0
		for i, r := range cs.Results {
			demoted := cs.Features[i][search.FTest] == 1
			switch {
			case strings.HasPrefix(r.Chunk.RelativePath, "test/"):
				n++
				if demoted != tt.demoted {
					t.Errorf("%s%s, %q: %s demoted %v, want %v", tt.dir, tt.subject, tt.query, r.Chunk.Name, demoted, tt.demoted)
				}
			case demoted:
				t.Errorf("%s%s, %q: the code's %s demoted as a test", tt.dir, tt.subject, tt.query, r.Chunk.Name)
			default:
				code++
			}
		}
		if n == 0 || code == 0 {
			t.Errorf("%s%s, %q: %d candidates from the test file, %d from the code", tt.dir, tt.subject, tt.query, n, code)
		}
	}
}

// TestModuleExportIsNamedByItsFile: a module's default export has no name
// of its own; its importers call it by its file's, so an eslint rule's id
// asks for the rule. An export that only names another definition is not
// the definition.
func TestModuleExportIsNamedByItsFile(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"lib/rules/no-console.js": "'use strict';\n\nmodule.exports = {\n  meta: { type: 'suggestion', docs: { description: 'Disallow the use of console' } },\n  create(context) {\n" +
			"    function isConsole(reference) {\n      return reference.identifier.name === 'console';\n    }\n    function report(node) {\n      context.report({ node, messageId: 'unexpected' });\n    }\n" +
			"    return { 'Program:exit'() { report(isConsole); } };\n  },\n};\n",
		"lib/rules/no-alert.js": "'use strict';\n\nmodule.exports = {\n  meta: { type: 'suggestion' },\n  create(context) {\n    return { CallExpression(node) { context.report({ node }); } };\n  },\n};\n",
		"src/pages/about.js":    "export default {\n  title: 'About',\n  render() {\n    return '<h1>About</h1>';\n  },\n};\n",
		"lib/content-type-parser.js": "'use strict';\n\nfunction ContentTypeParser(bodyLimit) {\n  this.bodyLimit = bodyLimit;\n}\n\n" +
			"function hasContentTypeParser(type) {\n  return type in parsers;\n}\n\nmodule.exports = ContentTypeParser;\nmodule.exports.has = hasContentTypeParser;\n",
		"lib/runner.js": "function Runner(suite) {\n  this.suite = suite;\n}\n\nRunner.prototype.run = function () {\n  return this.suite;\n};\n\nmodule.exports = Runner;\n",
	})
	pl := search.Pipeline{Store: indexDir(t, dir)}
	for _, tt := range []struct{ query, file, name string }{
		{"no-console", "lib/rules/no-console.js", "module.exports"},
		{"no-alert", "lib/rules/no-alert.js", "module.exports"},
		{"about", "src/pages/about.js", "default"},
		{"runner", "lib/runner.js", "Runner"},
		// Its file's name written as it is asks for the definition named
		// so in code.
		{"content-type-parser", "lib/content-type-parser.js", "ContentTypeParser"},
	} {
		resp, err := pl.Search(context.Background(), search.Request{Query: tt.query, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) == 0 {
			t.Errorf("%q: no result", tt.query)
			continue
		}
		if r := resp.Results[0]; r.Chunk.RelativePath != tt.file || r.Chunk.Name != tt.name || !r.Defines {
			t.Errorf("%q: first result %s %s (defines %v), want %s %s", tt.query, r.Chunk.RelativePath, r.Chunk.Name, r.Defines, tt.file, tt.name)
		}
	}
}

// TestLookupOrdersDefinitionsByPart: an ambiguous name's exact matches, all
// of them, come code first, then tests, then auxiliary code; an
// implementation before a declaration file; a function before a variable
// that holds one; a file's top-level declaration before one nested in a
// callback. The store lists
// them by path, which put a test's helper of the same name first.
func TestLookupOrdersDefinitionsByPart(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"a/__tests__/watch.spec.ts": "const resolved = Promise.resolve()\nconst nextTick = (fn?: () => void) =>\n  fn ? resolved.then(fn) : resolved\n\ntest('x', async () => { await nextTick() })\n",
		"a/docs/demo.ts":            "export function nextTick(fn: () => void) {\n  setTimeout(fn)\n}\n",
		"b/e2e/transition.ts":       "describe('transition', () => {\n  const nextTick = () => new Promise(r => setTimeout(r))\n  it('runs', async () => { await nextTick() })\n})\n",
		"c/src/scheduler.ts":        "const p = Promise.resolve()\n\nexport function nextTick(fn?: () => void): Promise<void> {\n  return fn ? p.then(fn) : p\n}\n",
		"c/src/helpers/deferred.ts": "export function later() {\n  function nextTick(fn: () => void) {\n    queueMicrotask(fn)\n  }\n  return nextTick\n}\n",
		"c/src/index.ts":            "import { later } from './helpers/deferred'\nexport const nextTick = later()\n",
		"c/src/scheduler.d.ts":      "export declare function nextTick(fn?: () => void): Promise<void>;\n",
	})
	pl := search.Pipeline{Store: indexDir(t, dir)}
	resp, err := pl.Search(context.Background(), search.Request{Query: "symbol = nextTick", Params: search.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range resp.Results {
		got = append(got, r.Chunk.RelativePath)
	}
	want := []string{"c/src/scheduler.ts", "c/src/helpers/deferred.ts", "c/src/index.ts", "c/src/scheduler.d.ts", "a/__tests__/watch.spec.ts", "b/e2e/transition.ts", "a/docs/demo.ts"}
	if !slices.Equal(got, want) {
		t.Errorf("symbol = nextTick answered\n %v\nwant\n %v", got, want)
	}
}

// TestPhraseFindsItsShortForm: a question that writes out "command line"
// finds the code that only spells cli, over code that shares the question's
// other words; without the short form the other file ranks first.
func TestPhraseFindsItsShortForm(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"lib/translate-cli-options.js": "'use strict';\n\nfunction translateCliOptions(cliArgs) {\n  return { fix: cliArgs.fix, cache: cliArgs.cache };\n}\n\nmodule.exports = translateCliOptions;\n",
		"lib/convert.js":               "'use strict';\n\nfunction convert(options) {\n  return Object.assign({}, options);\n}\n\nmodule.exports = convert;\n",
	})
	pl := search.Pipeline{Store: indexDir(t, dir)}
	for _, tt := range []struct {
		query, want string
	}{
		{"how command line flags are converted into options", "lib/translate-cli-options.js"},
		{"which flags are converted into options", "lib/convert.js"}, // no phrase: no short form
	} {
		res, err := pl.Rank(context.Background(), search.Request{Query: tt.query, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 0 || res[0].Chunk.RelativePath != tt.want {
			got := "nothing"
			if len(res) > 0 {
				got = res[0].Chunk.RelativePath
			}
			t.Errorf("%q: first %s, want %s", tt.query, got, tt.want)
		}
	}
}
