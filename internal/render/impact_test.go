package render_test

import (
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/tokens"
)

// TestImpactBudget: an impact answer shrinks its lists, far end first, to
// fit the budget, counts what it left out, and says so when even the
// changed symbols alone do not fit.
func TestImpactBudget(t *testing.T) {
	imp := answer.Impact{Depth: 3, Files: []answer.ChangedFile{{Path: "src/a.ts", Status: "modified"}}, Tests: []answer.ImpactTest{}}
	s := answer.ChangedSymbol{Declaration: answer.Declaration{Name: "f", Kind: "function", File: "src/a.ts", Line: 1}}
	for i := 0; i < 40; i++ {
		s.Callers = append(s.Callers, answer.ImpactCaller{Name: "caller" + string(rune('a'+i%26)) + strings.Repeat("x", i), File: "src/c.ts", Line: i + 1, Depth: 1 + i/10})
	}
	imp.Symbols = []answer.ChangedSymbol{s}
	full := render.Impact(imp, 0)
	if !strings.Contains(full, "callers (40):") || strings.Contains(full, "more") {
		t.Errorf("no budget: the whole answer, got:\n%s", full)
	}
	cut := render.Impact(imp, 200)
	if n := tokens.Count(cut); n > 200 {
		t.Errorf("%d tokens over a budget of 200:\n%s", n, cut)
	}
	if !strings.Contains(cut, "more") || !strings.Contains(cut, "↑callera") {
		t.Errorf("the cut answer keeps the nearest callers and counts the rest:\n%s", cut)
	}
	tiny := render.Impact(imp, 10)
	if !strings.Contains(tiny, "The token budget 10 is too small for this answer") || !strings.Contains(tiny, "function f — src/a.ts:1") {
		t.Errorf("a budget too small:\n%s", tiny)
	}
}

// TestImpactDropsNarrowSymbols: under a budget too small for every
// changed symbol, the ones with the narrowest reach go first, counted.
func TestImpactDropsNarrowSymbols(t *testing.T) {
	imp := answer.Impact{Depth: 3, Files: []answer.ChangedFile{{Path: "src/a.ts", Status: "modified"}}, Tests: []answer.ImpactTest{}}
	for i := 0; i < 30; i++ {
		imp.Symbols = append(imp.Symbols, answer.ChangedSymbol{Declaration: answer.Declaration{Name: "symbolNumber" + strings.Repeat("z", i), Kind: "function", File: "src/a.ts", Line: i + 1}})
	}
	out := render.Impact(imp, 150)
	if !strings.Contains(out, "symbolNumber —") || !strings.Contains(out, "more changed symbols, reaching less (--json lists every one)") || !strings.Contains(out, "30 changed symbols") {
		t.Errorf("the first symbols kept, the rest counted:\n%s", out)
	}
	if n := tokens.Count(out); n > 150 {
		t.Errorf("%d tokens over 150:\n%s", n, out)
	}
}
