package chunkindex

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

func TestPathMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"", "a/b.ts", true},
		{".", "a/b.ts", true},
		{"src/auth.ts", "src/auth.ts", true},
		{"src/auth.ts", "src/auth.tsx", false},
		{"src/auth", "src/auth/a.ts", true},
		{"src/auth", "src/auth", true},
		{"src/auth", "src/authz/a.ts", false},
		{"src/auth", "src/auth.ts", false},
		{"src/auth/", "src/auth/deep/a.ts", true},
		{"src/auth/", "src/auth", false},
		{"/src/auth", "src/auth/a.ts", true},
		{"./src//auth", "src/auth/a.ts", true},
		{"auth", "src/auth/a.ts", false},
		{"*.ts", "a.ts", true},
		{"*.ts", "deep/er/a.ts", true},
		{"*.ts", "a.tsx", false},
		{"src/*.ts", "src/a.ts", true},
		{"src/*.ts", "src/x/a.ts", false},
		{"src/**/*.ts", "src/x/y/a.ts", true},
		{"src/**/*.ts", "src/a.ts", true},
		{"src/*", "src/x/y/a.ts", true},
		{"**/test/**", "pkg/test/a.ts", true},
		{"src/*/", "src/x", false},
		{"src/*/", "src/x/a.ts", true},
		{"*.ts/", "a.ts", false},
		{"{src,lib}/*.ts", "lib/a.ts", true},
		{"src/[a", "src/[a", false},
	}
	for _, tt := range tests {
		if got := PathMatch(tt.pattern, tt.path); got != tt.want {
			t.Errorf("PathMatch(%q, %q) = %v", tt.pattern, tt.path, got)
		}
	}
}

// The suffix fast path must agree with doublestar.
func TestPathMatchSuffixFastPath(t *testing.T) {
	paths := []string{"a.ts", "x/a.ts", "x/y/a.d.ts", ".ts", "x/.ts", "a.tsx", "x.ts/b.js", "x/y.ts/z/b",
		"ts", "a", "x/a", "a.ts.bak", "x/y/z.spec.ts"}
	for _, pat := range []string{"*", "*.ts", "*.d.ts", "*ts", "*.ts/", "*/", "*.spec.ts"} {
		for _, p := range paths {
			dirOnly := strings.HasSuffix(pat, "/")
			g := "**/" + strings.TrimSuffix(pat, "/")
			want, _ := doublestar.Match(g+"/**/*", p)
			if !dirOnly {
				if ok, _ := doublestar.Match(g, p); ok {
					want = true
				}
			}
			if got := PathMatch(pat, p); got != want {
				t.Errorf("PathMatch(%q, %q) = %v, doublestar says %v", pat, p, got, want)
			}
		}
	}
}
