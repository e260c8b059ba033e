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
// It is a scanner, not a parser. A regular expression literal is code and
// is stepped over whole, so that a quote or backquote inside it (/['"`]/)
// opens nothing; a slash is read as one where an operand may start (after
// an operator, a bracket or a keyword such as return), as a division
// elsewhere. An unterminated template or block comment runs to the end of
// the text (a chunk's text may be cut short), an unterminated quote to the
// end of its line. Template literals nest: the `${…}` of a template is code
// again, and may hold templates of its own.
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
	// templateFrom emits the template text that starts at from (after a
	// backquote or a `${…}`'s closing brace, the code before it first) and
	// steps over what ends it: the closing backquote, or a "${" whose code
	// follows.
	templateFrom := func(from int) {
		flush(from, codePart)
		i = templateText(src, from)
		flush(i, stringPart)
		if i < len(src) && src[i] == '`' {
			i++
		} else if i < len(src) {
			i += 2
			templates = append(templates, 0)
		}
	}
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
		case c == '/' && regexMayStart(src, i):
			i = regexEnd(src, i)
		case c == '\'' || c == '"':
			flush(i+1, codePart)
			i = closeQuote(src, i+1, c)
			flush(i, stringPart)
			if i < len(src) {
				i++
			}
		case c == '`':
			templateFrom(i + 1)
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
			templateFrom(i + 1)
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

// regexMayStart says whether the slash at i can open a regular expression
// literal: it is the text's first token, or follows an operator, an opening
// bracket, a separator or a keyword that an operand follows.
func regexMayStart(s string, i int) bool {
	j := i - 1
	for j >= 0 && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
		j--
	}
	if j < 0 {
		return true
	}
	if strings.IndexByte("(,=:[!&|?{};+-*%<>~^", s[j]) >= 0 {
		return true
	}
	end := j + 1
	for j >= 0 && identPart(rune(s[j])) {
		j--
	}
	switch s[j+1 : end] {
	case "return", "typeof", "case", "in", "of", "delete", "void", "throw", "new", "yield", "await", "else", "do":
		return true
	}
	return false
}

// regexEnd is the index just after the regular expression literal opened
// at i (its flags are left to the code that follows), or i+1 when the line
// ends before it closes: then the slash was not one after all.
func regexEnd(s string, i int) int {
	inClass := false
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				return j + 1
			}
		case '\n':
			return i + 1
		}
	}
	return i + 1
}

// BlankNonCode returns src with its comments and the text of its string
// and template literals overwritten with spaces, line breaks kept: a scan
// for calls (`name(`) then sees only code, at the offsets and lines it had
// (a comment that says "see this.runTests()" calls nothing).
func BlankNonCode(src string) string {
	b := []byte(src)
	at := 0
	splitProse(src, func(part string, kind partKind) {
		if kind != codePart {
			for i := at; i < at+len(part); i++ {
				if b[i] != '\n' && b[i] != '\r' {
					b[i] = ' '
				}
			}
		}
		at += len(part)
	})
	return string(b)
}
