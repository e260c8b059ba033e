package tsls

import (
	"path/filepath"
	"strings"

	"github.com/scry-dev/scry/internal/textfmt"
)

// A workspace's tsconfig.json can pull any file into the program
// (`"include": ["../outside"]`, `paths`, `typeRoots`, a triple-slash
// reference), and the compiler then answers with locations there; scry
// would print their lines. Every location the server returns therefore
// passes confine first: it must be a file inside the workspace root once
// symlinks are resolved, or one of TypeScript's own library declarations
// shipped beside the compiler binary (lib.es2015.d.ts and friends, which
// definitions of built-ins lead to). A path whose name could forge lines in
// an answer is dropped too.

// confiner decides for one answer; it remembers resolved paths only for
// that answer, so a file swapped for a symlink later is checked afresh.
type confiner struct {
	root, libDir string
	seen         map[string]bool
}

func (s *Server) confiner() *confiner {
	return &confiner{root: s.realRoot, libDir: s.libDir, seen: map[string]bool{}}
}

// allowed reports whether the file at uri may be shown.
func (c *confiner) allowed(uri string) bool {
	if ok, done := c.seen[uri]; done {
		return ok
	}
	ok := c.check(uri)
	c.seen[uri] = ok
	return ok
}

func (c *confiner) check(uri string) bool {
	if !strings.HasPrefix(uri, "file:") {
		return false
	}
	p := URIToPath(uri)
	if !filepath.IsAbs(p) {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	// A name that could forge lines in an answer is never shown, as
	// discovery never indexes it (textfmt.Unsafe).
	if textfmt.Unsafe(p) || textfmt.Unsafe(real) {
		return false
	}
	if c.root != "" && within(c.root, real) {
		return true
	}
	return c.libDir != "" && filepath.Dir(real) == c.libDir && strings.HasSuffix(real, ".d.ts")
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func (c *confiner) locations(locs []Location) []Location {
	return keepAllowed(c, locs, func(l Location) string { return l.URI })
}

func (c *confiner) items(items []CallHierarchyItem) []CallHierarchyItem {
	return keepAllowed(c, items, func(it CallHierarchyItem) string { return it.URI })
}

// keepAllowed keeps, in place, the elements of xs whose URI c allows.
func keepAllowed[T any](c *confiner, xs []T, uri func(T) string) []T {
	kept := xs[:0]
	for _, x := range xs {
		if c.allowed(uri(x)) {
			kept = append(kept, x)
		}
	}
	return kept
}

// realDir is dir with symlinks resolved, or dir itself when that fails.
func realDir(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}
