package chunkcheck

import (
	"regexp"
	"sort"
	"strings"
)

// importStmt is one import binding statement found in source text.
type importStmt struct {
	Text   string   // the statement text as matched (comments removed)
	Module string   // module specifier, or the entity name of `import x = A.B`
	Names  []string // local names the statement binds; empty for side-effect imports
}

var (
	// import [type] <clause> from 'm'
	reImportFrom = regexp.MustCompile(`\bimport\s+((?:type\s+)?[^;'"]*?)\s*\bfrom\s*['"]([^'"]+)['"]`)
	// import 'm'
	reImportBare = regexp.MustCompile(`\bimport\s*['"]([^'"]+)['"]`)
	// import x = require('m')
	reImportRequire = regexp.MustCompile(`\bimport\s+(?:type\s+)?([A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*['"]([^'"]+)['"]\s*\)`)
	// import x = A.B.C
	reImportAlias = regexp.MustCompile(`(?m)\bimport\s+([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*(?:;|$)`)
	// const x = require('m'), const { a, b: c } = require('m') (patterns
	// nested up to three levels: const { configs: { base } } = ...), and
	// further declarators of the same statement (", y = require('n')").
	reRequire = regexp.MustCompile(`(?:\b(?:const|let|var)\s+|,\s*)(\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}|\[[^\[\]]*\]|[A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*['"]([^'"]+)['"]\s*\)`)
	reIdent   = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
)

// stripComments blanks out // and /* */ comments that are not inside string or
// template literals, keeping line breaks.
func stripComments(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
			b.WriteByte(c)
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i += 2
			for i < len(s) && !(s[i] == '*' && i+1 < len(s) && s[i+1] == '/') {
				if s[i] == '\n' {
					b.WriteByte('\n')
				}
				i++
			}
			i++
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// parseImports finds the import binding statements in text: ES imports,
// `import x = require()`, `import x = A.B` and `const x = require()`.
func parseImports(text string) []importStmt {
	text = stripComments(text)
	type hit struct {
		at int
		st importStmt
	}
	var hits []hit
	claimed := func(at int) bool {
		for _, h := range hits {
			if at >= h.at && at < h.at+len(h.st.Text) {
				return true
			}
		}
		return false
	}
	for _, m := range reImportRequire.FindAllStringSubmatchIndex(text, -1) {
		hits = append(hits, hit{m[0], importStmt{Text: text[m[0]:m[1]], Module: text[m[4]:m[5]], Names: []string{text[m[2]:m[3]]}}})
	}
	for _, m := range reImportFrom.FindAllStringSubmatchIndex(text, -1) {
		if claimed(m[0]) {
			continue
		}
		hits = append(hits, hit{m[0], importStmt{Text: text[m[0]:m[1]], Module: text[m[4]:m[5]], Names: clauseNames(text[m[2]:m[3]])}})
	}
	for _, m := range reImportBare.FindAllStringSubmatchIndex(text, -1) {
		if claimed(m[0]) {
			continue
		}
		hits = append(hits, hit{m[0], importStmt{Text: text[m[0]:m[1]], Module: text[m[2]:m[3]]}})
	}
	for _, m := range reImportAlias.FindAllStringSubmatchIndex(text, -1) {
		if claimed(m[0]) || strings.HasPrefix(strings.TrimSpace(text[m[4]:m[5]]), "require") {
			continue
		}
		mod := strings.Join(strings.Fields(text[m[4]:m[5]]), "")
		hits = append(hits, hit{m[0], importStmt{Text: strings.TrimRight(text[m[0]:m[1]], ";"), Module: mod, Names: []string{text[m[2]:m[3]]}}})
	}
	for _, m := range reRequire.FindAllStringSubmatchIndex(text, -1) {
		if claimed(m[0]) {
			continue
		}
		hits = append(hits, hit{m[0], importStmt{Text: strings.TrimLeft(text[m[0]:m[1]], ", \t\r\n"), Module: text[m[4]:m[5]], Names: patternNames(text[m[2]:m[3]])}})
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].at < hits[j].at })
	out := make([]importStmt, len(hits))
	for i, h := range hits {
		out[i] = h.st
	}
	return out
}

// clauseNames returns the local names bound by an import clause such as
// `React, { useState, type FC as F }`, `* as ns` or `type { A }`.
func clauseNames(clause string) []string {
	clause = strings.TrimSpace(clause)
	if rest, ok := strings.CutPrefix(clause, "type "); ok && !strings.HasPrefix(strings.TrimSpace(rest), "from") {
		clause = strings.TrimSpace(rest)
	}
	var names []string
	outside := clause
	if open := strings.Index(clause, "{"); open >= 0 {
		end := strings.LastIndex(clause, "}")
		if end < open {
			end = len(clause)
		}
		for _, item := range strings.Split(clause[open+1:end], ",") {
			item = strings.TrimSpace(item)
			item = strings.TrimSpace(strings.TrimPrefix(item, "type "))
			if _, alias, ok := strings.Cut(item, " as "); ok {
				item = strings.TrimSpace(alias)
			}
			if reIdent.MatchString(item) {
				names = append(names, item)
			}
		}
		outside = clause[:open]
		if end < len(clause) {
			outside += clause[end+1:]
		}
	}
	for _, part := range strings.Split(outside, ",") {
		part = strings.TrimSpace(part)
		if rest, ok := strings.CutPrefix(part, "*"); ok {
			rest = strings.TrimSpace(rest)
			if alias, ok := strings.CutPrefix(rest, "as "); ok {
				part = strings.TrimSpace(alias)
			}
		}
		if reIdent.MatchString(part) {
			names = append(names, part)
		}
	}
	return names
}

// patternNames returns the names bound by a require() target: an identifier
// or a simple object/array destructuring pattern.
func patternNames(pat string) []string {
	pat = strings.TrimSpace(pat)
	if reIdent.MatchString(pat) {
		return []string{pat}
	}
	if len(pat) < 2 || !(pat[0] == '{' && pat[len(pat)-1] == '}' || pat[0] == '[' && pat[len(pat)-1] == ']') {
		return nil
	}
	var names []string
	for _, item := range splitTopLevel(pat[1:len(pat)-1], ',') {
		item = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(item), "..."))
		if key := splitTopLevel(item, ':'); len(key) == 2 {
			item = strings.TrimSpace(key[1])
		}
		item = strings.TrimSpace(splitTopLevel(item, '=')[0])
		names = append(names, patternNames(item)...)
	}
	return names
}

// splitTopLevel splits s at each sep outside brackets and quotes.
func splitTopLevel(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '{' || c == '[' || c == '(':
			depth++
		case c == '}' || c == ']' || c == ')':
			depth--
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}
