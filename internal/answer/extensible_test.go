package answer_test

import (
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/answer"
)

// TestExtensible: implementations are asked of the classes and interfaces
// among an ambiguous name's matches, and of every match when none is one.
func TestExtensible(t *testing.T) {
	sym := func(kind, file string) answer.Symbol {
		return answer.Symbol{Declaration: answer.Declaration{Name: "Runnable", Kind: kind, File: file}}
	}
	files := func(syms []answer.Symbol) []string {
		var out []string
		for _, s := range syms {
			out = append(out, s.File)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		in   []answer.Symbol
		want []string
	}{
		{"class among variables", []answer.Symbol{sym("class", "lib/runnable.js"), sym("variable", "lib/mocha.cjs"), sym("variable", "test/hook.spec.cjs")}, []string{"lib/runnable.js"}},
		{"class and interface", []answer.Symbol{sym("interface", "a.ts"), sym("const", "b.ts"), sym("class", "c.ts")}, []string{"a.ts", "c.ts"}},
		{"no class", []answer.Symbol{sym("variable", "a.js"), sym("function", "b.js")}, []string{"a.js", "b.js"}},
	} {
		if got := files(answer.Local{}.Extensible(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
