package graph

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// marked returns the labels carrying each marker, e.g. "sanitize (helper.ts)"
// for "→ sanitize (helper.ts) ◆".
func marked(text string) (stars, diamonds []string) {
	suffixes := regexp.MustCompile(`( \[(cycle|depth limit|see above)\])+$`)
	for _, line := range strings.Split(text, "\n") {
		for _, piece := range regexp.MustCompile(` → |, | \| |: `).Split(strings.TrimSpace(line), -1) {
			piece = suffixes.ReplaceAllString(strings.TrimPrefix(piece, "→ "), "")
			switch {
			case strings.HasSuffix(piece, " ★"):
				stars = appendUnique(stars, strings.TrimSuffix(piece, " ★"))
			case strings.HasSuffix(piece, " ◆"):
				diamonds = appendUnique(diamonds, strings.TrimSuffix(piece, " ◆"))
			}
		}
	}
	slices.Sort(stars)
	slices.Sort(diamonds)
	return stars, diamonds
}

func appendUnique(s []string, x string) []string {
	if slices.Contains(s, x) {
		return s
	}
	return append(s, x)
}

func fn(name, file string, line int, calls ...Call) Result {
	return Result{Name: name, File: file, Line: line, StartLine: line, EndLine: line + 5, Kind: "function", RefFiles: 1, Calls: calls}
}

func call(name, file string, line int, children ...Call) Call {
	return Call{Name: name, File: file, Line: line, Children: children}
}

func TestMarkerRules(t *testing.T) {
	user := TypeRef{Param: "u", Type: "User", File: "src/user.ts"}
	// diamond's tree reaches leaf through mid and through other.
	diamond := fn("root", "src/root.ts", 1,
		call("mid", "src/mid.ts", 1, call("leaf", "src/leaf.ts", 1)),
		call("other", "src/other.ts", 1, call("leaf", "src/leaf.ts", 1)))
	cases := []struct {
		name            string
		results         []Result
		stars, diamonds []string
	}{
		{
			name: "callee shared by two results is ◆, callee of one is not",
			results: []Result{
				fn("a", "src/a.ts", 1, call("helper", "src/h.ts", 1), call("only", "src/o.ts", 1)),
				fn("b", "src/b.ts", 1, call("helper", "src/h.ts", 1)),
			},
			diamonds: []string{"helper (h.ts)"},
		},
		{
			name: "two references from one result are one user",
			results: []Result{
				{Name: "Svc", File: "src/svc.ts", Line: 1, StartLine: 1, EndLine: 40, Kind: "class", RefFiles: 1,
					Calls:    []Call{call("log", "src/log.ts", 1)},
					CalledBy: []Call{{Name: "Svc.run", File: "src/svc.ts", Line: 10, Children: []Call{call("log", "src/log.ts", 1)}}}},
				fn("b", "src/b.ts", 1),
			},
		},
		{
			name: "callers are not dependencies",
			results: []Result{
				{Name: "a", File: "src/a.ts", Line: 1, Kind: "function", RefFiles: 1, CalledBy: []Call{call("main", "src/main.ts", 1)}},
				{Name: "b", File: "src/b.ts", Line: 1, Kind: "function", RefFiles: 1, CalledBy: []Call{call("main", "src/main.ts", 1)}},
			},
		},
		{
			name: "a call and a type reference to the same symbol count together",
			results: []Result{
				fn("a", "src/a.ts", 1, call("Logger", "src/logger.ts", 3)),
				{Name: "b", File: "src/b.ts", Line: 1, Kind: "function", RefFiles: 1,
					TypesIn: []TypeRef{{Param: "l", Type: "Logger", File: "src/logger.ts"}}},
			},
			diamonds: []string{"Logger (logger.ts)", "Logger (src/logger.ts)"},
		},
		{
			name: "same name in different files is two symbols",
			results: []Result{
				fn("a", "src/a.ts", 1, call("init", "src/x.ts", 1)),
				fn("b", "src/b.ts", 1, call("init", "src/y.ts", 1)),
			},
		},
		{
			name: "shared and external types are ◆, primitives never",
			results: []Result{
				{Name: "a", File: "src/a.ts", Line: 1, Kind: "function", RefFiles: 1,
					TypesIn: []TypeRef{user, {Param: "req", Type: "Request", File: "express", External: true}, {Param: "n", Type: "number"}}},
				{Name: "b", File: "src/b.ts", Line: 1, Kind: "function", RefFiles: 1,
					TypesIn:  []TypeRef{{Param: "req", Type: "Request", File: "express", External: true}, {Param: "n", Type: "number"}},
					TypesOut: []TypeRef{{Type: "User", File: "src/user.ts"}}},
			},
			diamonds: []string{"Request (express)", "User (src/user.ts)"},
		},
		{
			name: "a type that is another result is ★, its own type is not marked",
			results: []Result{
				{Name: "User", File: "src/user.ts", Line: 1, StartLine: 1, EndLine: 9, Kind: "interface", RefFiles: 1,
					TypesOut: []TypeRef{{Type: "User", File: "src/user.ts"}}},
				{Name: "load", File: "src/load.ts", Line: 1, Kind: "function", RefFiles: 1,
					TypesOut: []TypeRef{{Type: "User", File: "src/user.ts"}}},
				{Name: "Admin", File: "src/admin.ts", Line: 1, Kind: "interface", RefFiles: 1,
					Implements: []Ref{{Name: "User", File: "src/user.ts"}}},
			},
			stars: []string{"User (src/user.ts)"},
		},
		{
			name: "in trees: another result is ★ (also as a member), the root's own recursion is not",
			results: []Result{
				fn("main", "src/main.ts", 1,
					call("Store.get", "src/store.ts", 12, call("main", "src/main.ts", 1)),
					call("main", "src/main.ts", 1)),
				{Name: "Store", File: "src/store.ts", Line: 3, StartLine: 3, EndLine: 40, Kind: "class", RefFiles: 1},
			},
			stars: []string{"Store.get (store.ts)"},
		},
		{
			name: "in trees: ◆ follows the results that call, however deep",
			results: []Result{
				diamond,
				fn("mid", "src/mid.ts", 1, call("leaf", "src/leaf.ts", 1)),
				fn("other", "src/other.ts", 1, call("leaf", "src/leaf.ts", 1)),
			},
			stars:    []string{"mid (mid.ts)", "other (other.ts)"},
			diamonds: []string{"leaf (leaf.ts)"},
		},
		{
			name: "in trees: a diamond inside one result's tree is not shared",
			results: []Result{
				diamond,
				fn("alone", "src/alone.ts", 1),
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, _ := Render(Input{Query: "q", Budget: 8000, Results: c.results})
			stars, diamonds := marked(text)
			if !slices.Equal(stars, c.stars) {
				t.Errorf("★ on %q, want %q\n%s", stars, c.stars, text)
			}
			if !slices.Equal(diamonds, c.diamonds) {
				t.Errorf("◆ on %q, want %q\n%s", diamonds, c.diamonds, text)
			}
		})
	}
}

// TestGoldenMarkersAgreeWithPatterns: every ◆ symbol is listed as a shared
// dependency or type, and every listed one outside the results carries ◆.
func TestGoldenMarkersAgreeWithPatterns(t *testing.T) {
	pattern := regexp.MustCompile(`(?m)^  Shared (?:dep|type): (.+?) — used by`)
	for _, path := range fixtures(t) {
		f := loadFixture(t, path)
		text, _ := Render(f.Input, f.Snapshots...)
		_, diamonds := marked(text)
		var listed []string
		for _, m := range pattern.FindAllStringSubmatch(text, -1) {
			if !strings.HasPrefix(m[1], "[") {
				listed = append(listed, m[1])
			}
		}
		for _, d := range diamonds {
			name, _, _ := strings.Cut(d, " (")
			if !slices.ContainsFunc(listed, func(l string) bool { return strings.HasPrefix(l, name+" (") || l == name }) {
				t.Errorf("%s: ◆ %s is not in Patterns", path, d)
			}
		}
		for _, l := range listed {
			name, _, _ := strings.Cut(l, " (")
			if !slices.ContainsFunc(diamonds, func(d string) bool { return strings.HasPrefix(d, name+" (") || d == name }) {
				t.Errorf("%s: shared %s carries no ◆", path, l)
			}
		}
	}
}

func TestResolve(t *testing.T) {
	in := Input{Results: []Result{
		{Name: "AuthConfig", File: "src/auth.ts", Line: 4, StartLine: 3, EndLine: 30, Kind: "class"},
		{Name: "AuthConfig.getSecret", File: "src/auth.ts", Line: 9, StartLine: 9, EndLine: 12, Kind: "method"},
		{Name: "TokenService.validate", File: "src/token.ts", Line: 20, Kind: "method"},
	}}
	m := newModel(in)
	cases := []struct {
		file   string
		line   int
		name   string
		result int
		member bool
	}{
		{"src/auth.ts", 10, "AuthConfig.getSecret", 2, false}, // narrowest range wins
		{"src/auth.ts", 15, "AuthConfig.getExpiry", 1, true},  // member of the class result
		{"src/auth.ts", 4, "constructor", 1, false},           // the declaration line is the result
		{"src/auth.ts", 31, "helper", 0, false},               // outside every range
		{"src/token.ts", 20, "validate", 3, false},            // no range: line alone
		{"src/token.ts", 0, "validate", 3, false},             // no line: bare name
		{"src/token.ts", 0, "TokenService.validate", 3, false},
		{"src/token.ts", 0, "other", 0, false},
		{"", 0, "validate", 0, false}, // external code is never a result
	}
	for _, c := range cases {
		n := m.resolve(c.file, c.line, c.name)
		if n.result != c.result || n.member != c.member {
			t.Errorf("resolve(%s:%d %s) = result %d member %v, want %d %v", c.file, c.line, c.name, n.result, n.member, c.result, c.member)
		}
	}
}

func TestChainLayout(t *testing.T) {
	cases := []struct {
		name    string
		results []Result
		want    []string
	}{
		{
			name: "mutual recursion among results closes with [cycle]",
			results: []Result{
				fn("alpha", "src/alpha.ts", 1, call("beta", "src/beta.ts", 1)),
				fn("beta", "src/beta.ts", 1, call("alpha", "src/alpha.ts", 1)),
			},
			want: []string{"  [1] alpha → [2] beta → [1] alpha [cycle]"},
		},
		{
			name: "an edge known only from the callee's callers still shows",
			results: []Result{
				fn("a", "src/a.ts", 1),
				{Name: "b", File: "src/b.ts", Line: 1, Kind: "function", RefFiles: 1, CalledBy: []Call{call("a", "src/a.ts", 1)}},
			},
			want: []string{"  [1] a → [2] b"},
		},
		{
			name: "type relations are not called standalone",
			results: []Result{
				{Name: "load", File: "src/load.ts", Line: 1, Kind: "function", RefFiles: 1, TypesOut: []TypeRef{{Type: "User", File: "src/user.ts"}}},
				{Name: "User", File: "src/user.ts", Line: 1, Kind: "interface", RefFiles: 1},
				{Name: "PI", File: "src/c.ts", Line: 1, Kind: "const", RefFiles: 1},
			},
			want: []string{
				"  [1] load (function using [2])",
				"  [2] User (interface used by [1])",
				"  [3] PI (standalone constant)",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := newModel(Input{Results: c.results}).graphLines()
			if !slices.Equal(got, c.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestHubNamesTheMemberCalled(t *testing.T) {
	cfg := Result{Name: "Config", File: "src/config.ts", Line: 1, StartLine: 1, EndLine: 30, Kind: "class", RefFiles: 1}
	one := newModel(Input{Results: []Result{
		cfg,
		fn("a", "src/a.ts", 1, call("Config.get", "src/config.ts", 5)),
		fn("b", "src/b.ts", 1, call("Config.get", "src/config.ts", 5)),
	}}).hubs()
	two := newModel(Input{Results: []Result{
		cfg,
		fn("a", "src/a.ts", 1, call("Config.get", "src/config.ts", 5)),
		fn("b", "src/b.ts", 1, call("Config.set", "src/config.ts", 9)),
	}}).hubs()
	if want := []string{"Hub: [1] Config.get — called by [2], [3]"}; !slices.Equal(one, want) {
		t.Errorf("got %q, want %q", one, want)
	}
	if want := []string{"Hub: [1] Config — called by [2], [3]"}; !slices.Equal(two, want) {
		t.Errorf("got %q, want %q", two, want)
	}
}

// TestDetails: a result's details, from its kind line to its call trees.
func TestDetails(t *testing.T) {
	var members []string
	for _, m := range strings.Fields("a b c d e f g h i j k l m n") {
		members = append(members, m+"()")
	}
	deep := fn("handle", "src/entry.ts", 1,
		call("process", "src/mw.ts", 3, Call{Name: "run", File: "src/svc.ts", Line: 7, DepthLimit: true}),
		Call{Name: "handle", File: "src/entry.ts", Line: 1, Cycle: true})
	deep.CalledBy = []Call{{Name: "main", File: "src/main.ts", Line: 2, DepthLimit: true}}
	cases := []struct {
		name string
		r    Result
		want []string
	}{
		{
			name: "modifiers, a signature over lines, members cut",
			r: Result{
				Name: "Big", File: "src/big.ts", Line: 1, Kind: "class", RefFiles: 1,
				Modifiers: []string{"export", "default", "abstract", "public"},
				Signature: "class Big\n  extends Base {",
				Members:   members,
			},
			want: []string{
				"Big — src/big.ts",
				"    abstract class | exported as default | refs: 1 file",
				"    Signature: class Big extends Base {",
				"    Members: a(), b(), c(), d(), e(), f(), g(), h(), i(), j(), k(), l(), +2 more",
			},
		},
		{
			name: "a single result's deep calls, a cycle and its callers",
			r:    deep,
			want: []string{
				"handle — src/entry.ts",
				"    function | refs: 1 file",
				"    Calls:",
				"      → process (src/mw.ts)",
				"        → run (src/svc.ts) [depth limit]",
				"      → handle (src/entry.ts) [cycle]",
				"    Called by: main (src/main.ts)",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantLines(t, newModel(Input{Results: []Result{c.r}}).details(1, true, true), c.want)
		})
	}

	for _, kc := range []struct {
		mods []string
		kind string
		want string
	}{
		{[]string{"async", "static", "private", "exported"}, "method", "private static async method | exported"},
		// An interface's member: a signature, said after its kind.
		{[]string{"signature"}, "method", "method signature"},
		{[]string{"readonly", "signature"}, "property", "readonly property signature"},
	} {
		if got := kindLine(Result{Kind: kc.kind, RefFiles: -1, Modifiers: kc.mods}); got != kc.want {
			t.Errorf("kindLine(%v %s) = %q, want %q", kc.mods, kc.kind, got, kc.want)
		}
	}
}

func TestTreeRepeatsAndCap(t *testing.T) {
	deep := call("shared", "src/s.ts", 1, call("x", "src/x.ts", 1), call("y", "src/y.ts", 1))
	m := newModel(Input{Results: []Result{
		fn("a", "src/a.ts", 1, call("p", "src/p.ts", 1, deep), call("q", "src/q.ts", 1, deep)),
		fn("b", "src/b.ts", 1),
	}})
	want := []string{
		"  [1] a (a.ts)",
		"    → p (p.ts)",
		"      → shared (s.ts)",
		"        → x (x.ts)",
		"        → y (y.ts)",
		"    → q (q.ts)",
		"      → shared (s.ts) [see above]",
		"  [2] b (standalone function)",
	}
	wantLines(t, m.graphLines(), want)

	var wide []Call
	for i := range treeCap + 10 {
		wide = append(wide, call("f"+strings.Repeat("x", i), "src/f.ts", i+1, call("g", "src/g.ts", 1)))
	}
	lines := newModel(Input{Results: []Result{fn("root", "src/root.ts", 1, wide...), fn("b", "src/b.ts", 1)}}).graphLines()
	if n := len(lines); n != 1+treeCap+2 {
		t.Errorf("%d lines, want %d", n, 1+treeCap+2)
	}
	if last := lines[len(lines)-2]; last != "  +100 more calls not shown" {
		t.Errorf("cap line %q", last)
	}
}

func TestBasenameCollisions(t *testing.T) {
	m := newModel(Input{Results: []Result{
		fn("a", "src/api/index.ts", 1, call("b", "src/db/index.ts", 1, call("c", "src/c.ts", 1))),
		fn("z", "src/z.ts", 1),
	}})
	got := strings.Join(m.graphLines(), "\n")
	for _, want := range []string{"[1] a (src/api/index.ts)", "→ b (src/db/index.ts)", "→ c (c.ts)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestApproximateNotes(t *testing.T) {
	mixed, _ := Render(Input{Query: "q", Results: []Result{
		{Name: "a", File: "a.ts", Kind: "function", RefFiles: -1, Approximate: true},
		{Name: "b", File: "b.ts", Kind: "function", RefFiles: -1},
	}})
	if n := strings.Count(mixed, approximateNote); n != 1 || strings.Contains(strings.SplitN(mixed, "\n", 3)[1], approximateNote) {
		t.Errorf("mixed: want one note, on the approximate result\n%s", mixed)
	}
	single, _ := Render(Input{Query: "q", Results: []Result{{Name: "a", File: "a.ts", Kind: "function", RefFiles: -1, Approximate: true}}})
	if n := strings.Count(single, approximateNote); n != 1 {
		t.Errorf("single: %d notes\n%s", n, single)
	}
}

func TestCyclesNeedAResult(t *testing.T) {
	m := newModel(Input{Results: []Result{
		fn("a", "src/a.ts", 1, call("walk", "src/w.ts", 1, Call{Name: "walk", File: "src/w.ts", Line: 1, Cycle: true})),
		fn("b", "src/b.ts", 1, call("c", "src/c.ts", 1, Call{Name: "b", File: "src/b.ts", Line: 1, Cycle: true})),
	}})
	want := []string{"Cycle: [2] b → c (src/c.ts) → [2] b"}
	if got := m.cycles(); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestApproximateReason(t *testing.T) {
	why := "an anonymous function has no name to ask the compiler about"
	text, _ := Render(Input{Query: "q", Results: []Result{
		{Name: "a", File: "a.ts", Kind: "callback", RefFiles: -1, Approximate: true, ApproximateReason: why},
		{Name: "b", File: "b.ts", Kind: "function", RefFiles: -1, Approximate: true},
	}})
	for _, note := range []string{"(structure approximate: " + why + ")", approximateNote} {
		if n := strings.Count(text, note); n != 1 {
			t.Errorf("%q appears %d times, want once\n%s", note, n, text)
		}
	}
}

// wantLines checks that the lines drawn are want, showing both on a
// difference.
func wantLines(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A lookup that matched nothing names the nearest symbols for their names,
// with no relevance beside them; other leads keep theirs.
func TestLeadLinesOfAMissedLookup(t *testing.T) {
	lead := Lead{Kind: "method", Name: "Hono.fetch", File: "src/hono-base.ts", Line: 469, Probability: 0}
	got := leadLines(Input{Missing: "Hono > fetchx", Leads: []Lead{lead}})
	want := "No symbol \"Hono > fetchx\" in this index. Nearest symbols:\n- method Hono.fetch  src/hono-base.ts:469"
	if got != want {
		t.Errorf("missed lookup:\n got %q\nwant %q", got, want)
	}
	lead.Probability = 0.25
	if got := leadLines(Input{Threshold: 0.5, Leads: []Lead{lead}}); !strings.HasSuffix(got, "src/hono-base.ts:469  p=0.25") {
		t.Errorf("ranked leads lost their probability: %q", got)
	}
}
