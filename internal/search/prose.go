package search

import "strings"

// partKind says what a stretch of source text is.
type partKind int

const (
	codePart    partKind = iota
	commentPart          // a line or block comment, JSDoc included
	stringPart           // the text of a string or template literal
)

// splitProse cuts JavaScript or TypeScript source into stretches of code,
// comments and the text of string and template literals, and hands each to
// emit in order with its kind. A question in plain words matches an error
// message as readily as the code that does what it asks; the coverage
// features weigh the two apart (see FCovCode, FCovString).
//
// It is a scanner, not a parser: a regular expression literal counts as
// code, and an unterminated literal or comment runs to the end of the text
// (a chunk's text may be cut short). Template literals nest: the `${…}` of
// a template is code again, and may hold templates of its own.
func splitProse(src string, emit func(part string, kind partKind)) {
	start := 0
	flush := func(end int, kind partKind) {
		if end > start {
			emit(src[start:end], kind)
		}
		start = end
	}
	// templates holds, per open template whose `${` we are inside, the depth
	// of braces opened since: a `}` at depth 0 resumes the template's text.
	var templates []int
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			flush(i, codePart)
			i = indexFrom(src, i, "\n")
			flush(i, commentPart)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			flush(i, codePart)
			i = indexFrom(src, i+2, "*/")
			if i < len(src) {
				i += 2
			}
			flush(i, commentPart)
		case c == '\'' || c == '"':
			flush(i+1, codePart)
			i = closeQuote(src, i+1, c)
			flush(i, stringPart)
			if i < len(src) {
				i++
			}
		case c == '`':
			flush(i+1, codePart)
			i = templateText(src, i+1)
			flush(i, stringPart)
			if i < len(src) && src[i] == '`' {
				i++
			} else if i < len(src) { // "${": code until its closing brace
				i += 2
				templates = append(templates, 0)
			}
		case c == '{' && len(templates) > 0:
			templates[len(templates)-1]++
			i++
		case c == '}' && len(templates) > 0:
			if templates[len(templates)-1] > 0 {
				templates[len(templates)-1]--
				i++
				continue
			}
			templates = templates[:len(templates)-1]
			flush(i+1, codePart)
			i = templateText(src, i+1)
			flush(i, stringPart)
			if i < len(src) && src[i] == '`' {
				i++
			} else if i < len(src) {
				i += 2
				templates = append(templates, 0)
			}
		default:
			i++
		}
	}
	flush(len(src), codePart)
}

// indexFrom is the index of the first sep at or after from, or len(s).
func indexFrom(s string, from int, sep string) int {
	if i := strings.Index(s[from:], sep); i >= 0 {
		return from + i
	}
	return len(s)
}

// closeQuote is the index of the quote q that closes a string whose text
// starts at i, honouring backslash escapes; a line break ends an unclosed
// one.
func closeQuote(s string, i int, q byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q, '\n':
			return i
		}
	}
	return len(s)
}

// templateText is the index where a template literal's text that starts
// at i ends: its closing backquote, the "$" of a "${", or len(s).
func templateText(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '`':
			return i
		case '$':
			if i+1 < len(s) && s[i+1] == '{' {
				return i
			}
		}
	}
	return len(s)
}
