package workspace

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// glob is a user pattern compiled to doublestar patterns matched against Rel:
// self for the path itself and below for what lies under a matched directory.
// Two patterns are needed because doublestar v4.9.1 lets a trailing "/**"
// match nothing except after a segment ending in "*": "x*/**" does not
// match "xy".
type glob struct{ self, below string }

func (g glob) match(rel string) bool {
	if ok, _ := doublestar.Match(g.self, rel); ok {
		return true
	}
	ok, _ := doublestar.Match(g.below, rel)
	return ok
}

// GlobBase is the literal directory part of a path pattern: up to the last
// slash before its first glob character ("." when there is none), or the
// whole path when it has no glob character. Confining the base to the root
// confines whatever the pattern can match.
func GlobBase(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		if p == "" {
			return "."
		}
		return p
	}
	if j := strings.LastIndex(p[:i], "/"); j >= 0 {
		return p[:j+1]
	}
	return "."
}

// compileGlobs turns user globs into patterns matched against Rel.
func compileGlobs(r *Root, kind string, globs []string) ([]glob, error) {
	out := make([]glob, 0, len(globs))
	for _, g := range globs {
		p, err := compileGlob(r, g)
		if err != nil {
			return nil, fmt.Errorf("%s pattern %q: %w", kind, g, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func compileGlob(r *Root, g string) (glob, error) {
	if strings.TrimSpace(g) == "" {
		return glob{}, fmt.Errorf("empty pattern")
	}
	p := g
	if filepath.IsAbs(p) {
		rest, ok := within(r.dir, filepath.Clean(p))
		if !ok {
			rest, ok = within(r.orig, filepath.Clean(p))
		}
		if !ok {
			return glob{}, ErrOutsideRoot
		}
		p = rest
	}
	p = path.Clean(filepath.ToSlash(p))
	if p == ".." || strings.HasPrefix(p, "../") {
		return glob{}, ErrOutsideRoot
	}
	if p == "." {
		p = "**"
	}
	if !strings.Contains(p, "/") {
		p = "**/" + p
	}
	if !doublestar.ValidatePattern(p) {
		return glob{}, fmt.Errorf("invalid glob")
	}
	below := p
	if !strings.HasSuffix(p, "/**") {
		below += "/**"
	}
	return glob{self: p, below: below}, nil
}

func matchAny(globs []glob, rel string) bool {
	for _, g := range globs {
		if g.match(rel) {
			return true
		}
	}
	return false
}
