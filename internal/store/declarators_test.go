package store

import (
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
)

// TestEveryDeclaratorFindable is issue 18 item 18: `export const A = 1,
// B = 2` is one chunk named "A, B"; each declarator must be found by its
// own name (exact lookups and find_symbol), and nothing else must be.
func TestEveryDeclaratorFindable(t *testing.T) {
	s := openTemp(t)
	multi := fn("src/consts.ts", "Alpha, Beta, Gamma", 1, "")
	multi.NodeKind, multi.Signature = "const", "export const Alpha = 1, Beta = 2, Gamma = 3"
	letMulti := fn("src/consts.ts", "x, y", 5, "")
	letMulti.NodeKind = "variable"
	betaMax := fn("src/consts.ts", "BetaMax", 9, "")
	betaMax.NodeKind = "const"
	call := fn("src/expr.ts", `register("a", Beta)`, 1, "")
	call.NodeKind = "expression"
	mustReplace(t, s, rec("src/consts.ts"), multi, letMulti, betaMax)
	mustReplace(t, s, rec("src/expr.ts"), call)

	// A shared chunk comes back named after the declarator asked for
	// (same id and lines), so that what is asked about it next is about
	// that declarator.
	tests := []struct {
		name string
		want []string // chunk names found
	}{
		{"Alpha", []string{"Alpha"}},
		{"Beta", []string{"Beta"}},
		{"Gamma", []string{"Gamma"}},
		{"y", []string{"y"}},
		{"BetaMax", []string{"BetaMax"}},
		{"Alpha, Beta, Gamma", []string{"Alpha, Beta, Gamma"}},
		{"Bet", nil},
		{"a", nil},
	}
	names := func(cs []chunk.Chunk) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	for _, tt := range tests {
		byName, err := s.ChunksByName(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		found, err := s.FindSymbols(SymbolQuery{Name: tt.name, Match: MatchExact})
		if err != nil {
			t.Fatal(err)
		}
		for what, got := range map[string][]string{"ChunksByName": names(byName), "FindSymbols": names(found)} {
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s(%q) = %q, want %q", what, tt.name, got, tt.want)
			}
		}
		for _, c := range byName {
			if c.ID != multi.ID && c.ID != letMulti.ID && c.ID != betaMax.ID {
				t.Errorf("ChunksByName(%q) found %s", tt.name, c.ID)
			}
			if want := "src/consts.ts > " + c.Name; c.Breadcrumb != want {
				t.Errorf("ChunksByName(%q): breadcrumb %q, want %q", tt.name, c.Breadcrumb, want)
			}
		}
	}
}

// TestEveryDeclaratorByPrefixAndFuzzy: prefix and fuzzy lookups list each
// declarator of a shared chunk under its own name too (they once matched
// only a statement's first name, and under "A, B").
func TestEveryDeclaratorByPrefixAndFuzzy(t *testing.T) {
	s := openTemp(t)
	multi := fn("src/consts.ts", "Alpha, Beta, Gamma", 1, "")
	multi.NodeKind = "const"
	destructured := fn("src/consts.ts", "betaOne, betaTwo, other", 3, "")
	destructured.NodeKind = "variable"
	betaMax := fn("src/consts.ts", "BetaMax", 9, "")
	betaMax.NodeKind = "const"
	mustReplace(t, s, rec("src/consts.ts"), multi, destructured, betaMax)

	tests := []struct {
		query string
		match SymbolMatch
		want  []string
	}{
		{"Beta", MatchPrefix, []string{"Beta", "BetaMax"}},
		{"Gam", MatchPrefix, []string{"Gamma"}},
		{"Alpha", MatchPrefix, []string{"Alpha"}},
		{"beta", MatchPrefix, []string{"betaOne", "betaTwo"}},
		{"oth", MatchPrefix, []string{"other"}},
		{"lpha, B", MatchPrefix, nil},
		{"gmm", MatchFuzzy, []string{"Gamma"}},
		{"betatwo", MatchFuzzy, []string{"betaTwo"}},
		{"beta", MatchFuzzy, []string{"Beta", "BetaMax", "betaOne", "betaTwo"}},
	}
	for _, tt := range tests {
		found, err := s.FindSymbols(SymbolQuery{Name: tt.query, Match: tt.match})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range found {
			got = append(got, c.Name)
			if want := "src/consts.ts > " + c.Name; c.Breadcrumb != want {
				t.Errorf("%s %q: breadcrumb %q, want %q", tt.match, tt.query, c.Breadcrumb, want)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %q = %q, want %q", tt.match, tt.query, got, tt.want)
		}
	}
}

// TestDeclarationsSharingALine: `export const a = 1; export function f()
// {}` is one "statement" chunk named "a, f" (siblings never share a
// line); each declaration is found by its own name, with its own kind, by
// every kind of lookup, and a name that is not a declaration is not.
func TestDeclarationsSharingALine(t *testing.T) {
	s := openTemp(t)
	line := fn("src/x.ts", "a, sameLine", 1, "")
	line.NodeKind = "statement"
	line.FullSource = "export const a = 1; export function sameLine() {}"
	mixed := fn("src/y.ts", "import:./x, K", 1, "")
	mixed.NodeKind = "statement"
	mixed.FullSource = "import './x'; export class K {}"
	mustReplace(t, s, rec("src/x.ts"), line)
	mustReplace(t, s, rec("src/y.ts"), mixed)
	type found struct{ name, kind string }
	tests := []struct {
		q    SymbolQuery
		want []found
	}{
		{SymbolQuery{Name: "sameLine"}, []found{{"sameLine", "function"}}},
		{SymbolQuery{Name: "a"}, []found{{"a", "const"}}},
		{SymbolQuery{Name: "K"}, []found{{"K", "class"}}},
		{SymbolQuery{Name: "same", Match: MatchPrefix}, []found{{"sameLine", "function"}}},
		{SymbolQuery{Name: "smln", Match: MatchFuzzy}, []found{{"sameLine", "function"}}},
		{SymbolQuery{Name: "import", Match: MatchPrefix}, nil},
		{SymbolQuery{Name: "sameLine", Kinds: []string{"function"}}, []found{{"sameLine", "function"}}},
		{SymbolQuery{Name: "sameLine", Kinds: []string{"class"}}, nil},
	}
	for _, tt := range tests {
		cs, err := s.FindSymbols(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []found
		for _, c := range cs {
			got = append(got, found{c.Name, c.NodeKind})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("FindSymbols(%+v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	byName, err := s.ChunksByName("sameLine")
	if err != nil || len(byName) != 1 || byName[0].Name != "sameLine" || byName[0].NodeKind != "function" {
		t.Errorf("ChunksByName(sameLine) = %+v, %v", byName, err)
	}
}
