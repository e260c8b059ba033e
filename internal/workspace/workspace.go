// Package workspace finds the TypeScript and JavaScript files scry indexes and
// confines every path that enters scry to the workspace root.
//
// Discovery is split in two so that each file is read once: Discover filters
// on what a directory listing and a stat can tell (extension, ignore rules,
// default excludes, size, symlinks), and the indexer calls CheckContent on the
// bytes it reads anyway (binary, encoding, minified code).
package workspace

import (
	"path"
	"strings"
)

// Reasons a file is left out of the index. Files with unsupported extensions
// and files matched by ignore rules are dropped silently: they were never
// candidates, and counting them would drown the reasons a user can act on.
const (
	SkipTooLarge   = "too-large"
	SkipBinary     = "binary"
	SkipNotUTF8    = "not-utf8"
	SkipMinified   = "minified"
	SkipUnreadable = "unreadable"
	// SkipNotRegular marks a FIFO, device or socket found where a source
	// file was: none is ever read (a FIFO blocks, a device never ends).
	SkipNotRegular     = "not-a-regular-file"
	SkipSymlinkOutside = "symlink-outside-root"
	SkipSymlinkLoop    = "symlink-loop"
	// SkipSymlinkDuplicate marks a link whose target is already indexed under
	// another path. Each file is indexed once, so that results are not doubled
	// and so that the language server's real paths map back to one chunk.
	SkipSymlinkDuplicate = "symlink-duplicate"
)

// DefaultMaxFileSize applies when Options.MaxFileSize is zero. Larger files are
// nearly always generated or vendored.
const DefaultMaxFileSize int64 = 1 << 20

// DefaultExcludes are directory names pruned at any depth, whatever the ignore
// files say: version control, dependencies, build output and tool caches.
var DefaultExcludes = []string{
	".git", "node_modules", "dist", "build", "out", "coverage", ".next", ".turbo", ".cache",
}

// MinifiedPatterns are file-name globs of bundles skipped as minified without
// reading them. CheckContent also catches minified files under other names.
var MinifiedPatterns = []string{"*.min.js", "*.min.mjs", "*.bundle.js"}

// Options narrows discovery.
type Options struct {
	// Include lists doublestar globs relative to the root; when empty every
	// supported file is a candidate. A pattern without a slash matches at any
	// depth ("*.test.ts" is "**/*.test.ts"), and a directory ("src/auth")
	// stands for everything below it.
	Include []string
	// Exclude lists globs with the same syntax as Include; it wins over Include.
	Exclude []string
	// MaxFileSize in bytes; 0 means DefaultMaxFileSize, a negative value means
	// no limit.
	MaxFileSize int64
	// AllFiles lists files of every extension, not only TypeScript and
	// JavaScript sources (for text search and file finding).
	AllFiles bool
}

// File is a discovered candidate for indexing.
type File struct {
	Path    string // absolute: Root.Dir() joined with Rel (through the link, for a file found through one)
	Rel     string // slash-separated, relative to the root
	Size    int64
	ModTime int64 // UnixNano
}

// Skip records a candidate left out of the index and why.
type Skip struct {
	Rel    string
	Reason string // one of the Skip* constants
}

// Result is the outcome of Discover.
type Result struct {
	Files   []File // sorted by Rel
	Skipped []Skip // sorted by Rel
	// Dirs are the directories the walk read (absolute real paths,
	// sorted): where a new candidate file can appear without any other
	// change to the tree. A watcher watches these.
	Dirs []string
	// Linked maps each of Dirs walked through a symbolic link (its files
	// are listed under the link's path, not its own) to the relative path
	// it was listed under: a watcher's events name the real directory.
	Linked map[string]string
}

// SkipCounts returns the number of skips per reason.
func (r Result) SkipCounts() map[string]int {
	m := make(map[string]int)
	for _, s := range r.Skipped {
		m[s.Reason]++
	}
	return m
}

// languages maps each supported extension to the tree-sitter grammar that
// parses it. Extensions are case-sensitive, as in the TypeScript compiler, so
// that scry and the language server agree on what belongs to the project.
var languages = map[string]string{
	".ts":  "typescript",
	".mts": "typescript",
	".cts": "typescript",
	".tsx": "tsx",
	// The JavaScript grammar parses JSX, so .jsx needs no grammar of its own.
	".js":  "javascript",
	".jsx": "javascript",
	".mjs": "javascript",
	".cjs": "javascript",
}

// IsSupported reports whether path has an extension scry indexes. Declaration
// files (.d.ts) are supported: in many packages they are the only place the
// public API is written down.
func IsSupported(p string) bool {
	return Language(p) != ""
}

// Language returns "typescript", "tsx" or "javascript" for a supported path
// and "" otherwise.
func Language(p string) string {
	return languages[path.Ext(p)]
}

func isDefaultExcluded(name string) bool {
	for _, d := range DefaultExcludes {
		if d == name {
			return true
		}
	}
	return false
}

func isMinifiedName(name string) bool {
	for _, p := range MinifiedPatterns {
		// "*.min.js" and the like are suffixes; path.Match would cost as
		// much as the stat of the file.
		if len(p) > 1 && p[0] == '*' && !strings.ContainsAny(p[1:], `*?[\`) {
			if strings.HasSuffix(name, p[1:]) {
				return true
			}
			continue
		}
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}
