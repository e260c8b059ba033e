package weaviate

import (
	"strings"

	"github.com/scry-dev/scry/internal/chunkindex"
)

// pathFilter turns path patterns (chunkindex.PathMatch's) and languages into a
// filter the server evaluates. Each pattern becomes Like filters on the
// path, whose '*' matches any run of characters, '/' included, so they
// match every path the pattern does and sometimes more ("src/*.ts" also
// matches src/a/b.ts); exact says whether they match no more, and keep,
// when not exact, is the precise test to apply to what comes back.
func pathFilter(patterns, languages []string) (w where, exact bool, keep func(path string) bool) {
	if len(languages) > 0 {
		w = anyText("language", languages)
	}
	exact = true
	var alts []where
	for _, p := range patterns {
		ws, ex, all := patternFilter(p)
		if all {
			return w, true, nil // one pattern matches everything
		}
		exact = exact && ex
		alts = append(alts, ws...)
	}
	if len(alts) == 0 {
		return w, true, nil
	}
	if !exact {
		keep = func(path string) bool {
			for _, p := range patterns {
				if chunkindex.PathMatch(p, path) {
					return true
				}
			}
			return false
		}
	}
	return and(w, or(alts...)), exact, keep
}

// maxAlternatives bounds the brace expansion of one pattern.
const maxAlternatives = 64

// patternFilter is one pattern's filters (any of them matches); all is
// true when the pattern matches every path.
func patternFilter(pattern string) (ws []where, exact, all bool) {
	p := strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(pattern), `\`, "/"), "./")
	if p == "" || p == "." {
		return nil, true, true
	}
	dirOnly := strings.HasSuffix(p, "/")
	p = strings.TrimRight(p, "/")
	if p == "" {
		return nil, true, true
	}
	like := func(v string) where { return cond("path", "Like", "valueText", quote(v)) }
	if !strings.ContainsAny(p, `*?[{\`) {
		// A file or a directory: Like's own wildcards cannot occur in it.
		ws = append(ws, like(p+"/*"))
		if !dirOnly {
			ws = append(ws, eqText("path", p))
		}
		return ws, true, false
	}
	exact = false
	for _, alt := range expandBraces(p) {
		l := globToLike(alt)
		if !strings.Contains(alt, "/") {
			l = "*" + l // at any depth
		}
		ws = append(ws, like(l), like(l+"/*")) // the path, or a directory it names
	}
	return ws, exact, false
}

// globToLike widens a doublestar glob into a Like pattern: "**" and "*"
// become '*', a character class one '?'.
func globToLike(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			stars := 1
			for i+1 < len(g) && g[i+1] == '*' {
				i++
				stars++
			}
			// "**/" also matches no directory at all: "src/**/a.ts"
			// matches src/a.ts, so the slash goes into the wildcard.
			if stars > 1 && i+1 < len(g) && g[i+1] == '/' {
				i++
			}
			b.WriteByte('*')
		case '[':
			if j := strings.IndexByte(g[i:], ']'); j > 0 {
				i += j
			}
			b.WriteByte('?')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// expandBraces expands "{a,b}" alternatives (nested ones too), up to
// maxAlternatives; past that, a brace group becomes '*', which still
// matches a superset.
func expandBraces(p string) []string {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}
	}
	depth, close := 0, -1
	var parts []string
	start := open + 1
	for i := open; i < len(p) && close < 0; i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				parts = append(parts, p[start:i])
				close = i
			}
		case ',':
			if depth == 1 {
				parts = append(parts, p[start:i])
				start = i + 1
			}
		}
	}
	if close < 0 { // unbalanced: a literal brace to the glob, '*' here
		return []string{p[:open] + "*"}
	}
	var out []string
	for _, part := range parts {
		for _, rest := range expandBraces(part + p[close+1:]) {
			out = append(out, p[:open]+rest)
			if len(out) > maxAlternatives {
				return []string{p[:open] + "*"}
			}
		}
	}
	return out
}
