package workspace

import (
	"bytes"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Gitignore patterns are translated to doublestar globs rather than matched
// with github.com/sabhiram/go-gitignore: that library does not anchor patterns
// with a slash in the middle ("src/gen" also matched "a/src/gen"), treats "?"
// as a literal, breaks on regexp metacharacters such as "+", does not support
// "[!a]", and cannot tell a negation from a non-match, which nested ignore
// files need to override their parents.

// ignoreRule is one line of an ignore file.
type ignoreRule struct {
	pattern  string // doublestar glob
	negate   bool
	dirOnly  bool
	anchored bool // matched against the path below the ignore file's directory; else against the base name
	// Most lines are a plain name or "*.ext", and the rules run for every
	// entry of the tree: plain string tests are far cheaper than doublestar.
	literal bool   // pattern has no glob syntax
	suffix  string // set when the pattern is "*" followed by a literal
}

func (r *ignoreRule) match(target string) bool {
	switch {
	case r.literal:
		return target == r.pattern
	case r.suffix != "":
		return strings.HasSuffix(target, r.suffix) && !strings.Contains(target[:len(target)-len(r.suffix)], "/")
	}
	ok, _ := doublestar.Match(r.pattern, target)
	return ok
}

const globMeta = `*?[{}\`

// ignoreSet holds the rules of one ignore file and, through parent, those of
// the ignore files above it. Sets are never modified once built, so a
// directory's walk can share its parent's set.
type ignoreSet struct {
	parent *ignoreSet
	base   string // slash-separated directory of the ignore file relative to the root; "" for the root
	rules  []ignoreRule
}

// with returns a set whose rules, read from an ignore file in directory base,
// take precedence over s.
func (s *ignoreSet) with(base string, data []byte) *ignoreSet {
	rules := parseIgnore(data)
	if len(rules) == 0 {
		return s
	}
	return &ignoreSet{parent: s, base: base, rules: rules}
}

// ignored reports whether rel (slash-separated, relative to the root) is
// ignored. As in git, the last matching line wins and deeper files win over
// shallower ones; callers prune ignored directories, which is what makes a
// file below an ignored directory impossible to re-include.
func (s *ignoreSet) ignored(rel string, isDir bool) bool {
	name := path.Base(rel)
	for set := s; set != nil; set = set.parent {
		sub := rel
		if set.base != "" {
			sub = rel[len(set.base)+1:]
		}
		for i := len(set.rules) - 1; i >= 0; i-- {
			r := &set.rules[i]
			if r.dirOnly && !isDir {
				continue
			}
			target := name
			if r.anchored {
				target = sub
			}
			if r.match(target) {
				return !r.negate
			}
		}
	}
	return false
}

// parseIgnore reads gitignore syntax (https://git-scm.com/docs/gitignore).
func parseIgnore(data []byte) []ignoreRule {
	var rules []ignoreRule
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		s := strings.TrimSuffix(string(line), "\r")
		s = trimUnescapedSpaces(s)
		if s == "" || s[0] == '#' {
			continue
		}
		var r ignoreRule
		if s[0] == '!' {
			r.negate = true
			s = s[1:]
		}
		if strings.HasSuffix(s, "/") {
			r.dirOnly = true
			s = strings.TrimRight(s, "/")
		}
		if s == "" {
			continue
		}
		// A slash at the start or in the middle anchors the pattern to the
		// ignore file's directory; otherwise it matches at any depth.
		r.anchored = strings.Contains(s, "/")
		s = strings.TrimPrefix(s, "/")
		// In git "dir/**" matches what is inside dir but not dir itself, so
		// "dir/**" followed by "!dir/keep.ts" keeps that file; doublestar's
		// "dir/**" would also match (and prune) dir.
		if strings.HasSuffix(s, "/**") {
			s += "/*"
		}
		s = escapeBraces(s)
		if !doublestar.ValidatePattern(s) {
			continue
		}
		r.pattern = s
		r.literal = !strings.ContainsAny(s, globMeta)
		if len(s) > 1 && s[0] == '*' && !strings.ContainsAny(s[1:], globMeta) {
			r.suffix = s[1:]
		}
		rules = append(rules, r)
	}
	return rules
}

// trimUnescapedSpaces drops trailing spaces unless the last one is escaped
// with a backslash.
func trimUnescapedSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// escapeBraces makes "{" and "}" literal: gitignore has no alternation, but
// doublestar does.
func escapeBraces(s string) string {
	if !strings.ContainsAny(s, "{}") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			b.WriteByte(c)
			i++
			b.WriteByte(s[i])
			continue
		}
		if c == '{' || c == '}' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}
