package parse_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/parse"
)

func names(syms []*parse.Symbol) []string {
	var out []string
	for _, s := range syms {
		if s.Kind != parse.KindComment && s.Kind != parse.KindStatement {
			out = append(out, s.Name)
		}
		out = append(out, names(s.Children)...)
	}
	return out
}

// TestUnclosedBlockComment: code after a "/*" that is never closed is
// comment to the compiler; tree-sitter recovers by parsing on, which made
// a function inside the comment a symbol.
func TestUnclosedBlockComment(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // declared names, in order
		errors    bool
	}{
		{"top level", "export const a = 1\n/* this comment never ends\nfunction hidden() {\n  return 1\n}\n", []string{"a"}, true},
		{"in a function", "function f() {\n  /* open\n  return 1\n}\nfunction hidden() {}\n", nil, true},
		{"after an argument", "let x = f(1, /* open\n)\nfunction hidden() {}\n", nil, true},
		{"in a line comment", "// see /* here\nfunction shown() {}\nfunction broken( {\n", nil, true},
		{"in a regex", "const r = /[/*]/\nfunction shown() {}\nfunction broken( {\n", nil, true},
		{"in JSX text", "const e = <p>/* text</p>\nfunction shown() {}\nfunction broken( {\n", nil, true},
		{"after code on its line", "const a = 1 /* open\nfunction hidden() {}\n", []string{"a"}, true},
		{"closed", "/* closed */\nfunction shown() {}\n", []string{"shown"}, false},
		{"in a string", "const s = \"/* not a comment\"\nfunction shown() {}\n", []string{"s", "shown"}, false},
		{"in a template", "const s = `/* not a comment`\nfunction shown() {}\n", []string{"s", "shown"}, false},
		{"closed later after an error", "function f( {\n/* closed */\nfunction shown() {}\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "a.ts"
			if strings.Contains(tt.src, "<p>") {
				file = "a.tsx"
			}
			f, err := parse.Parse(file, []byte(tt.src), "")
			if err != nil {
				t.Fatal(err)
			}
			checkHidden(t, f, tt.src, tt.want, "comment")
			if (f.ErrorNodes > 0) != tt.errors {
				t.Errorf("ErrorNodes = %d, want errors %v", f.ErrorNodes, tt.errors)
			}
		})
	}
}

// TestUnterminatedTemplate: after a "`" that is never closed, the rest of
// the file is template text to the compiler ("Unterminated template
// literal"); tree-sitter parsed on, and a function there was a symbol.
func TestUnterminatedTemplate(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // declared names, in order
	}{
		{"top level", "export function before() {\n  return 1;\n}\nconst s = `abc ${x}\nexport function hidden() {\n  return 2;\n}\n", []string{"before"}},
		{"in a function", "function f() {\n  return `open\n}\nfunction hidden() {}\n", nil},
		{"after closed templates", "const a = `x${`y`}z`\nconst b = `open\nfunction hidden() {}\n", []string{"a"}},
		{"closed", "const a = `x`\nfunction shown() {}\nfunction broken( {\n", nil},
		{"in a string", "const q = '`'\nfunction shown() {}\nfunction broken( {\n", nil},
		{"in a comment", "// a ` here\nfunction shown() {}\nfunction broken( {\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parse.Parse("a.ts", []byte(tt.src), "")
			if err != nil {
				t.Fatal(err)
			}
			covered := checkHidden(t, f, tt.src, tt.want, "template")
			if n := strings.Count(tt.src, "\n"); !covered[n] {
				t.Errorf("last line %d not covered", n)
			}
		})
	}
}

// checkHidden checks a file parsed from src with a comment or template
// that never closes (what) before a function named hidden: the declared
// names are want (when given), hidden is none of them, a function named
// shown (after one that closes) is, and no line is in two symbols. It
// returns the lines the symbols cover.
func checkHidden(t *testing.T, f *parse.File, src string, want []string, what string) map[int]bool {
	t.Helper()
	got := names(f.Symbols)
	if want != nil && !slices.Equal(got, want) {
		t.Errorf("symbols = %q, want %q", got, want)
	}
	if slices.Contains(got, "hidden") {
		t.Errorf("a function inside an unclosed %s is a symbol: %q", what, got)
	}
	if strings.Contains(src, "function shown") && !slices.Contains(got, "shown") {
		t.Errorf("a function after a closed %s is lost: %q", what, got)
	}
	covered := map[int]bool{}
	for _, s := range f.Symbols {
		for l := s.StartLine; l <= s.EndLine; l++ {
			if covered[l] {
				t.Errorf("line %d in two symbols", l)
			}
			covered[l] = true
		}
	}
	return covered
}
