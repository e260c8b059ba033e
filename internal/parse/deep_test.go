package parse

import (
	"strings"
	"testing"
)

// deepNest is n nested declarations written by open (one a line), a body,
// and their n closing lines.
func deepNest(n int, open func(i int) string, body, close string) []byte {
	var b strings.Builder
	for i := range n {
		b.WriteString(open(i))
	}
	b.WriteString(body)
	for range n {
		b.WriteString(close)
	}
	return []byte(b.String())
}

// TestDeepNestsStayLinear: thousands of nested functions (or callbacks,
// or namespaces) make a symbol tree MaxDepth deep whose deepest symbol
// holds the rest, and the builder looks at each candidate a bounded number
// of times — it used to rescan every level below each one, and chunk each
// level's whole source.
func TestDeepNestsStayLinear(t *testing.T) {
	const n = 20000
	tests := []struct {
		name string
		src  []byte
	}{
		{"functions.ts", deepNest(n, func(i int) string { return "function n" + itoa(i) + "() {\n" }, "return 1;\n", "}\n")},
		{"callbacks.ts", deepNest(n, func(int) string { return "f(() => {\n" }, "g();\n", "});\n")},
		{"namespaces.ts", deepNest(n, func(i int) string { return "namespace n" + itoa(i) + " {\n" }, "export const x = 1;\n", "}\n")},
		{"classes.ts", deepNest(n, func(i int) string { return "const C" + itoa(i) + " = class {\nm() {\n" }, "return 1;\n", "}\n};\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, b := parseCounting(t, tt.name, tt.src)
			lastLine := strings.Count(string(tt.src), "\n")
			symbols, deepest := 0, -1
			var walk func(ss []*Symbol)
			walk = func(ss []*Symbol) {
				for _, s := range ss {
					symbols++
					if s.Depth > deepest {
						deepest = s.Depth
					}
					if s.Depth == MaxDepth && len(s.Children) > 0 {
						t.Errorf("%s at depth %d has %d children", s.Name, s.Depth, len(s.Children))
					}
					walk(s.Children)
				}
			}
			walk(f.Symbols)
			if deepest > MaxDepth || deepest < MaxDepth-1 {
				t.Errorf("deepest symbol at depth %d, want about MaxDepth (%d)", deepest, MaxDepth)
			}
			if symbols > 2*(MaxDepth+1) {
				t.Errorf("%d symbols, want at most %d", symbols, 2*(MaxDepth+1))
			}
			if len(f.Symbols) != 1 || f.Symbols[0].StartLine != 1 || f.Symbols[0].EndLine != lastLine {
				t.Errorf("root symbols do not hold the whole file: %d of them", len(f.Symbols))
			}
			if b.scanned > 2*len(b.cands) {
				t.Errorf("nested looked at %d candidates of %d", b.scanned, len(b.cands))
			}
		})
	}
}

// parseCounting is parseWhole that also returns its builder's counters.
func parseCounting(t *testing.T, path string, src []byte) (*File, *builder) {
	t.Helper()
	var got *builder
	testBuilder = func(b *builder) { got = b }
	defer func() { testBuilder = nil }()
	f, err := Parse(path, src, "")
	if err != nil {
		t.Fatal(err)
	}
	return f, got
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
