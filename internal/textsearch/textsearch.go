// Package textsearch answers grep- and glob-style questions over a
// workspace's files, with the same ignore rules and root confinement as the
// index. Patterns are RE2 (Go's regexp): matching time is linear in the
// input, whatever pattern an agent sends.
package textsearch

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/workspace"
)

// GrepOptions describe one search.
type GrepOptions struct {
	Pattern       string
	Regex         bool     // Pattern is an RE2 regular expression; otherwise literal
	CaseSensitive bool     // default: case-insensitive
	Paths         []string // directories, files or globs relative to the root; empty: everywhere
	MaxMatches    int      // cap on matches returned (default 200)
	MaxFileSize   int64    // skip larger files (default 1 MiB)
	Exclude       []string // globs never searched (the configuration's exclude)
}

// Match is one matching line.
type Match struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"` // 1-based, in bytes
	Text   string `json:"content"`
}

// GrepResult lists matches and how much was searched.
type GrepResult struct {
	Matches   []Match `json:"matches"`
	Truncated bool    `json:"truncated"` // more matches exist than were returned
	Searched  int     `json:"searched_files"`
}

const maxLineBytes = 300

// Grep searches the text files under root (ignore rules and default
// excludes apply; binary files are skipped).
func Grep(root *workspace.Root, opt GrepOptions) (GrepResult, error) {
	var res GrepResult
	if opt.Pattern == "" {
		return res, fmt.Errorf("search_files: empty pattern")
	}
	if len(opt.Pattern) > 4096 {
		return res, fmt.Errorf("search_files: pattern too long (%d bytes, at most 4096)", len(opt.Pattern))
	}
	expr := opt.Pattern
	if !opt.Regex {
		expr = regexp.QuoteMeta(expr)
	}
	if !opt.CaseSensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return res, fmt.Errorf("search_files: invalid regular expression (RE2 syntax; lookaround and backreferences are not supported): %w", err)
	}
	if opt.MaxMatches <= 0 {
		opt.MaxMatches = 200
	}
	files, err := listFiles(root, opt.Paths, opt.Exclude, opt.MaxFileSize)
	if err != nil {
		return res, err
	}
	limit := workspace.Options{MaxFileSize: opt.MaxFileSize}.ReadLimit()
	for _, f := range files {
		// Only a regular file inside the root, within the limit: a file
		// replaced by a FIFO or a device since it was listed is skipped.
		b, err := root.ReadFile(f.Path, limit)
		if err != nil || bytes.IndexByte(b[:min(len(b), 8192)], 0) >= 0 {
			continue
		}
		res.Searched++
		starts := lines.Starts(b)
		for i := range lines.Total(starts, len(b)) {
			text := b[starts[i]:lines.End(b, starts, i+1)]
			if loc := re.FindIndex(text); loc != nil {
				if len(res.Matches) >= opt.MaxMatches {
					res.Truncated = true
					return res, nil
				}
				res.Matches = append(res.Matches, Match{File: f.Rel, Line: i + 1, Column: loc[0] + 1, Text: textfmt.Clip(string(text), maxLineBytes)})
			}
		}
	}
	return res, nil
}

// listFiles returns every file under the root that the path filters select
// and exclude does not.
func listFiles(root *workspace.Root, paths, exclude []string, maxSize int64) ([]workspace.File, error) {
	opt := workspace.Options{AllFiles: true, MaxFileSize: maxSize, Exclude: exclude}
	for _, p := range paths {
		if _, _, err := root.Resolve(workspace.GlobBase(p)); err != nil {
			return nil, fmt.Errorf("path %q: %w", p, err)
		}
	}
	opt.Include = paths
	found, err := workspace.Discover(root.Dir(), opt)
	if err != nil {
		return nil, err
	}
	return found.Files, nil
}

// FindFiles lists files whose path matches a glob. A pattern without a slash
// matches file names at any depth ("*Service.ts"); "under" limits the search
// to a directory; files exclude matches are never listed.
func FindFiles(root *workspace.Root, pattern, under string, exclude []string, limit int) ([]string, bool, error) {
	if pattern == "" {
		return nil, false, fmt.Errorf("find_files: empty pattern")
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, false, fmt.Errorf("find_files: invalid glob %q", pattern)
	}
	if strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "../") || strings.Contains(pattern, "/../") {
		return nil, false, fmt.Errorf("find_files: pattern %q: %w", pattern, workspace.ErrOutsideRoot)
	}
	var paths []string
	if under != "" {
		_, rel, err := root.Resolve(under)
		if err != nil {
			return nil, false, fmt.Errorf("find_files: path %q: %w", under, err)
		}
		if rel != "." && rel != "" {
			paths = []string{rel}
		}
	}
	if limit <= 0 {
		limit = 200
	}
	files, err := listFiles(root, paths, exclude, -1)
	if err != nil {
		return nil, false, err
	}
	match := pattern
	if !strings.Contains(pattern, "/") {
		match = "**/" + pattern
	}
	var out []string
	for _, f := range files {
		ok, _ := doublestar.Match(match, f.Rel)
		if !ok && under != "" {
			_, rel, _ := root.Resolve(under)
			ok, _ = doublestar.Match(strings.TrimSuffix(rel, "/")+"/"+pattern, f.Rel)
		}
		if !ok {
			continue
		}
		if len(out) >= limit {
			return out, true, nil
		}
		out = append(out, f.Rel)
	}
	return out, false, nil
}
