package answer

import "github.com/scry-dev/scry/internal/textsearch"

// Grep searches the workspace's files for literal text or an RE2 regex.
func (x Local) Grep(opt textsearch.GrepOptions) (textsearch.GrepResult, error) {
	// What the configuration excludes is hidden from text search too: an
	// exclude is how a user keeps a directory from agents.
	opt.Exclude = append(opt.Exclude, x.Exclude...)
	return textsearch.Grep(x.Root, opt)
}

// FindFiles lists the workspace's files matching a glob, under a directory
// when one is given; more reports files past the limit.
func (x Local) FindFiles(pattern, under string, limit int) (files []string, more bool, err error) {
	return textsearch.FindFiles(x.Root, pattern, under, x.Exclude, limit)
}
