package chunkindex

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// normPattern strips what does not change a pattern's meaning relative to
// the root: surrounding space, a leading "./" or "/", repeated slashes.
func normPattern(p string) string {
	p = strings.TrimSpace(p)
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		case strings.Contains(p, "//"):
			p = strings.ReplaceAll(p, "//", "/")
		default:
			return p
		}
	}
}

// PathMatch reports whether a slash-separated path relative to the root
// matches a filter pattern:
//   - "" and "." match everything;
//   - a pattern without glob characters is a file or a directory relative to
//     the root: "src/auth" matches src/auth itself and everything below it;
//     a trailing slash ("src/auth/") matches only what is below;
//   - a glob is a doublestar pattern; one without a slash matches at any
//     depth ("*.ts" is "**/*.ts"), and a glob that matches a directory
//     matches everything below it ("src/*/auth" matches src/x/auth/a.ts).
//
// An invalid glob matches nothing.
func PathMatch(pattern, p string) bool {
	pattern = normPattern(pattern)
	if pattern == "" || pattern == "." {
		return true
	}
	dirOnly := strings.HasSuffix(pattern, "/")
	pattern = strings.TrimRight(pattern, "/")
	if pattern == "" {
		return true
	}
	if !strings.ContainsAny(pattern, `*?[{\`) {
		return (!dirOnly && p == pattern) || strings.HasPrefix(p, pattern+"/")
	}
	if !strings.Contains(pattern, "/") {
		// "*.ts" and the like, the most common filter, without doublestar:
		// a segment ends with the suffix, the last one or a directory's.
		if suffix, ok := strings.CutPrefix(pattern, "*"); ok && !strings.ContainsAny(suffix, `*?[{\`) {
			return (!dirOnly && strings.HasSuffix(p, suffix)) || strings.Contains(p, suffix+"/")
		}
		pattern = "**/" + pattern
	}
	if !dirOnly {
		if ok, _ := doublestar.Match(pattern, p); ok {
			return true
		}
	}
	// "/**/*" needs at least one segment below; "/**" alone would also
	// match the directory's own name as a file.
	ok, _ := doublestar.Match(pattern+"/**/*", p)
	return ok
}

// ValidPattern reports whether a filter pattern is one PathMatch can use:
// an invalid glob matches nothing, so callers refuse it with an error
// instead of returning no hits.
func ValidPattern(pattern string) bool {
	return doublestar.ValidatePattern(normPattern(pattern))
}
