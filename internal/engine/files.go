package engine

import (
	"fmt"
	"strings"

	"github.com/scry-dev/scry/internal/workspace"
)

// ResolvePath confines a path (relative to the root, or absolute) to the
// workspace and returns it absolute and relative to the root.
func (e *Engine) ResolvePath(p string) (abs, rel string, err error) {
	return e.root.Resolve(p)
}

// ConfinePaths checks path filters (files, directories or globs): it
// rejects those pointing outside the workspace and turns absolute ones
// inside it into relative ones. A filter naming the whole workspace is
// dropped.
func (e *Engine) ConfinePaths(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		base := workspace.GlobBase(p)
		// Canonical: a filter is matched against indexed (real) paths.
		_, rel, err := e.root.Canonical(strings.TrimSuffix(base, "/"))
		if err != nil {
			return nil, fmt.Errorf("path %q: %w", p, err)
		}
		if base == p {
			if rel == "" || rel == "." {
				continue // the whole workspace
			}
			out = append(out, rel)
			continue
		}
		out = append(out, strings.TrimPrefix(p, "./"))
	}
	return out, nil
}
