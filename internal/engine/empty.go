package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/workspace"
)

// EmptyWorkspace says why an index holds no files, so that an empty answer
// can say what scry found and what to do instead of only "No results.".
type EmptyWorkspace struct {
	Root string
	// Markers are the project files found at the root (package.json,
	// tsconfig.json, jsconfig.json, .git); none means the root is probably
	// not a project's directory.
	Markers []string
	// Candidates counts the TypeScript/JavaScript files discovery finds
	// when the include and exclude settings are left out; with Include or
	// Exclude set and Candidates > 0, the settings excluded everything.
	Candidates       int
	Include, Exclude []string
	// Skipped counts the candidates left out, by reason (too large,
	// minified, links, ...): with Candidates == Skipped, every source file
	// was left out for a reason scry names.
	Skipped map[string]int
	// Hidden counts TypeScript/JavaScript files in directories scry
	// always skips or the ignore files exclude, by the top directory that
	// holds them (node_modules, dist, ...).
	Hidden map[string]int
	// Other counts files of other kinds under the root.
	Other int
	// Partial is set when the survey stopped at its bound, so the counts
	// are lower bounds.
	Partial bool
}

// surveyLimit bounds the entries the survey of an empty workspace looks
// at: the survey runs only when nothing was indexed, but the root may then
// be a home directory or a disk.
const surveyLimit = 50_000

// projectMarkers are the files whose presence at the root says it is a
// project's directory.
var projectMarkers = []string{".git", "package.json", "tsconfig.json", "jsconfig.json"}

// Empty reports why the index holds no files, or nil when it holds some
// (or when the engine reads a shared index, which has no workspace here).
func (e *Engine) Empty(ctx context.Context) (*EmptyWorkspace, error) {
	if e.store == nil {
		return nil, nil
	}
	files, _, err := e.store.Stats()
	if err != nil {
		return nil, fmt.Errorf("empty workspace: %w", err)
	}
	if files > 0 {
		return nil, nil
	}
	return survey(ctx, e.root.Dir(), e.conf().Include, e.conf().Exclude, e.conf().MaxFileSize)
}

// survey looks at root the way discovery does, then without the include
// and exclude settings, then past the directories discovery skips.
func survey(ctx context.Context, root string, include, exclude []string, maxSize int64) (*EmptyWorkspace, error) {
	w := &EmptyWorkspace{Root: root, Include: include, Exclude: exclude, Hidden: map[string]int{}}
	for _, m := range projectMarkers {
		if _, err := os.Lstat(filepath.Join(root, m)); err == nil {
			w.Markers = append(w.Markers, m)
		}
	}
	all, err := workspace.Discover(root, workspace.Options{MaxFileSize: maxSize})
	if err != nil {
		return nil, fmt.Errorf("empty workspace: %w", err)
	}
	w.Candidates = len(all.Files) + len(all.Skipped)
	w.Skipped = all.SkipCounts()
	// Files discovery never lists: other kinds, and sources below skipped
	// or ignored directories (counted by their top directory).
	listed := make(map[string]bool, w.Candidates)
	for _, f := range all.Files {
		listed[f.Rel] = true
	}
	for _, s := range all.Skipped {
		listed[s.Rel] = true
	}
	seen := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory is left out of the counts
		}
		if seen++; seen > surveyLimit {
			w.Partial = true
			return fs.SkipAll
		}
		if seen%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		switch {
		case listed[rel]:
		case workspace.IsSupported(rel):
			w.Hidden[hiddenBy(rel)]++
		default:
			w.Other++
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.SkipAll) {
		return nil, fmt.Errorf("empty workspace: %w", err)
	}
	return w, nil
}

// hiddenBy names the directory that keeps a source file out of discovery:
// the first on its path that scry always skips (node_modules, dist, ...),
// else its top directory (an ignore file's rule), or "." at the root.
func hiddenBy(rel string) string {
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		if slices.Contains(workspace.DefaultExcludes, p) {
			return p
		}
	}
	if len(parts) == 1 {
		return "."
	}
	return parts[0]
}

// HiddenDirs lists Hidden's directories, most files first.
func (w *EmptyWorkspace) HiddenDirs() []string {
	dirs := make([]string, 0, len(w.Hidden))
	for d := range w.Hidden {
		dirs = append(dirs, d)
	}
	sort.Slice(dirs, func(i, j int) bool {
		if w.Hidden[dirs[i]] != w.Hidden[dirs[j]] {
			return w.Hidden[dirs[i]] > w.Hidden[dirs[j]]
		}
		return dirs[i] < dirs[j]
	})
	return dirs
}

// HiddenTotal is the number of source files Hidden counts.
func (w *EmptyWorkspace) HiddenTotal() int {
	n := 0
	for _, c := range w.Hidden {
		n += c
	}
	return n
}

// MaybeEmpty is Empty after a sync that found nothing to index (sum), and
// nil without a look at the index otherwise: callers run it after every
// sync, and most syncs find files.
func (e *Engine) MaybeEmpty(ctx context.Context, sum index.Summary) (*EmptyWorkspace, error) {
	if sum.Files > sum.SkippedTotal() {
		return nil, nil
	}
	return e.Empty(ctx)
}
