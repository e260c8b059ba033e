package parse_test

import (
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/parse"
)

// TestEscapedNames: declarations whose names are written with Unicode
// escapes are named by the identifiers they declare.
func TestEscapedNames(t *testing.T) {
	src := "export function \\u0061bc(): number {\n  return 1;\n}\nexport const \\u{62}eta = () => {\n  return 2;\n};\nclass K {\n  m\\u0065th() {\n    return 3;\n  }\n}\n"
	f, err := parse.Parse("esc.ts", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	got := outline(f)
	for _, want := range []string{"function abc 1-3", "beta 4-6", "class K 7-11", "method meth 8-10"} {
		if !strings.Contains(got, want) {
			t.Errorf("outline lacks %q:\n%s", want, got)
		}
	}
}
