package chunkindex

import (
	"strings"
	"testing"
)

// FuzzPathMatch throws arbitrary filter patterns and paths at the path
// filter: it never panics, a literal file path always matches itself, and a
// directory always matches the files below it.
func FuzzPathMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"src/auth", "src/auth/token.ts"}, {"*.ts", "a/b.ts"}, {"src/**/test/*.ts", "src/x/test/a.ts"},
		{"{a,b}/*.js", "a/x.js"}, {"[", "x"}, {"../x/**", "x/y"}, {"src//a/", "src/a/b.ts"}, {"\\", "a"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		PathMatch(pattern, p)
		if p == "" || strings.ContainsAny(p, "*?[{\\") || strings.Contains(p, "//") || strings.HasPrefix(p, "/") ||
			strings.HasPrefix(p, "./") || strings.TrimSpace(p) != p || strings.HasSuffix(p, "/") {
			return
		}
		if !PathMatch(p, p) {
			t.Fatalf("literal path %q does not match itself", p)
		}
		if !PathMatch(p, p+"/child.ts") {
			t.Fatalf("directory %q does not match a file below it", p)
		}
	})
}
