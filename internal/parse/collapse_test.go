package parse

import (
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/textfmt"
)

// collapseFields is collapseSpace as it was written first, on
// strings.Fields: the reference for the single pass.
func collapseFields(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimSuffix(s, ";")
	return textfmt.Clip(strings.TrimSpace(s), max)
}

func TestCollapseSpace(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"", 10, ""},
		{"   ", 10, ""},
		{"  function  f(a,\n\t b)  ", 100, "function f(a, b)"},
		{"let x = 1;", 100, "let x = 1"},
		{"let x = 1 ;", 100, "let x = 1"},
		{"a ;", 1, "a"},
		{"abc", 2, "ab…"},
		{"ab ;", 2, "ab"},
		{"ab  c;", 3, "ab …"},
		{"héllo wörld", 2, "h…"},
		{"a\u00a0b\u2003c\u0085d", 100, "a b c d"},
		{"\xff \xfe;", 100, "\xff \xfe"},
		{strings.Repeat("word ", 1000), 300, strings.Repeat("word ", 60)[:300] + "…"},
	}
	for _, tt := range tests {
		if got := collapseSpace(tt.in, tt.max); got != tt.want {
			t.Errorf("collapseSpace(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
		if got, want := collapseSpace(tt.in, tt.max), collapseFields(tt.in, tt.max); got != want {
			t.Errorf("collapseSpace(%q, %d) = %q, strings.Fields gives %q", tt.in, tt.max, got, want)
		}
	}
}

func FuzzCollapseSpace(f *testing.F) {
	for _, s := range []string{"", "a ;", "x  y\t\nz;", "héllo\u00a0wörld ;  ", "\xff\xfe ;", strings.Repeat("ab ", 50) + ";"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max%400 + 1
		if max < 1 {
			max += 400
		}
		if got, want := collapseSpace(s, max), collapseFields(s, max); got != want {
			t.Fatalf("collapseSpace(%q, %d) = %q, strings.Fields gives %q", s, max, got, want)
		}
	})
}
