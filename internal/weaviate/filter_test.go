package weaviate

import (
	"regexp"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunkindex"
)

// likeMatch evaluates a Like pattern as the server does: '*' any run of
// characters, '?' one character.
func likeMatch(pattern, s string) bool {
	re := "^" + strings.NewReplacer(`\*`, ".*", `\?`, ".").Replace(regexp.QuoteMeta(pattern)) + "$"
	return regexp.MustCompile(re).MatchString(s)
}

// TestPathFilterIsSuperset: for every pattern, the server-side Like
// filters match every path chunkindex.PathMatch does; where they are called
// exact they match no other; and the filter plus keep is exactly
// PathMatch.
func TestPathFilterIsSuperset(t *testing.T) {
	paths := []string{
		"a.ts", "src/a.ts", "src/auth/token.ts", "src/auth/token.test.ts", "src/authx.ts", "lib/x/y/z.js",
		"src/a/b/c.ts", "test/a.spec.ts", "packages/core/src/index.ts", "src.ts", "docs/readme.md", "src/[id].ts",
	}
	patterns := []string{
		"src", "src/", "src/auth", "src/a.ts", "*.ts", "*.test.ts", "src/*.ts", "src/**", "src/**/c.ts",
		"**/index.ts", "src/{auth,a}/*.ts", "{src,lib}/**/*.{ts,js}", "src/?.ts", "src/[ab].ts", "packages/*/src",
		"auth", "token.ts", "src/{a", "./src/auth/", "**",
	}
	like := regexp.MustCompile(`\{path:\["path"\],operator:(Like|Equal),valueText:"([^"]*)"\}`)
	for _, pat := range patterns {
		w, exact, keep := pathFilter([]string{pat}, nil)
		var alts []func(string) bool
		for _, m := range like.FindAllStringSubmatch(string(w), -1) {
			v := m[2]
			if m[1] == "Equal" {
				alts = append(alts, func(s string) bool { return s == v })
			} else {
				alts = append(alts, func(s string) bool { return likeMatch(v, s) })
			}
		}
		server := func(p string) bool {
			if w == "" {
				return true
			}
			for _, a := range alts {
				if a(p) {
					return true
				}
			}
			return false
		}
		for _, p := range paths {
			want := chunkindex.PathMatch(pat, p)
			got := server(p)
			if want && !got {
				t.Errorf("%q: the server filter %s drops %s", pat, w, p)
			}
			if exact && got != want {
				t.Errorf("%q: called exact, but the server filter says %v for %s", pat, got, p)
			}
			if keep != nil {
				got = got && keep(p)
			}
			if got != want {
				t.Errorf("%q on %s: filter and keep say %v, PathMatch %v", pat, p, got, want)
			}
		}
	}
}
