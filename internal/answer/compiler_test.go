package answer

import (
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/structure"
)

// TestCallersInTestsComeLast: the callers a symbol's answer lists are
// capped when shown, so the code that depends on it comes before its tests,
// each group in the compiler's order.
func TestCallersInTestsComeLast(t *testing.T) {
	caller := func(name, file string) structure.IncomingCaller {
		return structure.IncomingCaller{CallInfo: structure.CallInfo{SymbolRef: structure.SymbolRef{Name: name, File: file, Line: 1}}}
	}
	got := incoming([]structure.IncomingCaller{
		caller("it() callback", "src/cookie/index.test.ts"),
		caller("deleteCookie", "src/cookie/index.ts"),
		caller("describe() callback", "test/cookie.ts"),
		caller("jwt", "src/middleware/jwt.ts"),
		caller("it() callback", "src/__tests__/jwt.ts"),
	})
	var names []string
	for _, c := range got {
		names = append(names, c.Name+" "+c.File)
	}
	want := []string{
		"deleteCookie src/cookie/index.ts",
		"jwt src/middleware/jwt.ts",
		"it() callback src/cookie/index.test.ts",
		"describe() callback test/cookie.ts",
		"it() callback src/__tests__/jwt.ts",
	}
	if !slices.Equal(names, want) {
		t.Errorf("incoming order\n got %q\nwant %q", names, want)
	}
}

// TestNameLineOfAnOverload: the compiler is asked about an overloaded
// method at its last declaration, not at a parameter that shares its name
// (vue's App.component overload takes `component: T`; its signature read
// "component: T").
func TestNameLineOfAnOverload(t *testing.T) {
	c := chunk.Chunk{
		Name: "component", NodeKind: "method", StartLine: 44, Modifiers: []string{"overloaded"},
		FullSource: "  component(name: string): Component | undefined\n" +
			"  component<T extends Component>(\n" +
			"    name: string,\n" +
			"    component: T,\n" +
			"  ): this",
	}
	if got := nameLine(c); got != 45 {
		t.Errorf("nameLine = %d, want 45 (the second overload's name)", got)
	}
}

// TestMemberName: a member is listed as it is used, an accessor as the
// property it reads like (vue's RefImpl listed value()).
func TestMemberName(t *testing.T) {
	for _, tt := range []struct{ name, kind, want string }{
		{"track", "method", "track()"},
		{"constructor", "constructor", "constructor()"},
		{"value", "getter", "value"},
		{"value", "setter", "value"},
		{"dep", "property", "dep"},
	} {
		if got := memberName(tt.name, tt.kind); got != tt.want {
			t.Errorf("memberName(%q, %q) = %q, want %q", tt.name, tt.kind, got, tt.want)
		}
	}
}
