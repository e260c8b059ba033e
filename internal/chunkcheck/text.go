package chunkcheck

import (
	"strings"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/lines"
)

// fileLines splits src into its lines as internal/lines counts them (a line
// ends at "\n", "\r\n" or a lone "\r"), without their terminators. A final
// terminator does not start another line, so an empty file has no lines
// and "a\n" has one.
func fileLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	ls := lines.Split(string(src))
	return ls[:lines.Total(lines.Starts(src), len(src))]
}

// sliceSource returns lines start..end (1-based, inclusive) of src exactly
// as they appear in the file, without the last line's terminator.
func sliceSource(src string, start, end int) string {
	return sliceLines(src, lines.Starts([]byte(src)), start, end)
}

// sliceLines is sliceSource given the file's line starts.
func sliceLines(src string, starts []int, start, end int) string {
	return src[starts[start-1]:lines.End(src, starts, end)]
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// containsWord reports whether word occurs in s delimited by non-identifier
// characters on both sides.
func containsWord(s, word string) bool {
	if word == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(s[from:], word)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(word)
		if (i == 0 || !ident.PartByte(s[i-1])) && (end == len(s) || !ident.PartByte(s[end])) {
			return true
		}
		from = i + 1
	}
}

// normalizeCode removes whitespace from source text except where it separates
// two identifier characters (there it becomes one space), so that a signature
// reads the same whether it is written on one line or across several. It
// also returns, for each line of s, the offset in the result where that
// line's text begins.
func normalizeCode(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	offs := []int{0}
	pendingSpace := false
	var last byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			offs = append(offs, -1)
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' {
			pendingSpace = b.Len() > 0
			continue
		}
		if pendingSpace && ident.PartByte(last) && ident.PartByte(c) {
			b.WriteByte(' ')
		}
		pendingSpace = false
		for j := len(offs) - 1; j >= 0 && offs[j] < 0; j-- {
			offs[j] = b.Len()
		}
		b.WriteByte(c)
		last = c
	}
	for j := len(offs) - 1; j >= 0 && offs[j] < 0; j-- {
		offs[j] = b.Len()
	}
	return b.String(), offs
}

// indentWidth counts leading spaces and tabs.
func indentWidth(line string) int {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return n
}

// lineInfo describes one line of a piece of JavaScript/TypeScript source as
// seen by a small lexer that knows about comments, strings and template
// literals (but not regular-expression literals).
type lineInfo struct {
	// inCode: the line starts outside any comment, string or template literal.
	inCode bool
	// commentOnly: the line holds nothing but comment text (or is blank and
	// inside a block comment).
	commentOnly bool
	// last is the last non-space character that is code or string content
	// (not comment); 0 when the line has none.
	last byte
	// nested: the line starts inside brackets opened on an earlier line
	// (parentheses, braces, square brackets counted in code, never below
	// zero), as the body of a callback passed to a call is.
	nested bool
}

// scanLines lexes text and reports per-line state.
func scanLines(text string) []lineInfo {
	const (
		code = iota
		lineComment
		blockComment
		single
		double
		template
	)
	lines := strings.Split(text, "\n")
	out := make([]lineInfo, len(lines))
	state := code
	depth := 0
	for li, line := range lines {
		info := lineInfo{inCode: state == code, nested: depth > 0}
		if state == lineComment {
			state = code
			info.inCode = true
		}
		sawCode := false
		sawComment := state == blockComment
		continued := false // a quoted string's line ends in "\": it goes on
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch state {
			case code:
				switch {
				case c == '/' && i+1 < len(line) && line[i+1] == '/':
					state = lineComment
					sawComment = true
					i = len(line)
				case c == '/' && i+1 < len(line) && line[i+1] == '*':
					state = blockComment
					sawComment = true
					i++
				case c == '\'':
					state = single
					sawCode = true
					info.last = c
				case c == '"':
					state = double
					sawCode = true
					info.last = c
				case c == '`':
					state = template
					sawCode = true
					info.last = c
				case c == ' ' || c == '\t' || c == '\r':
				default:
					sawCode = true
					info.last = c
					switch c {
					case '(', '{', '[':
						depth++
					case ')', '}', ']':
						depth = max(0, depth-1)
					}
				}
			case blockComment:
				if c == '*' && i+1 < len(line) && line[i+1] == '/' {
					state = code
					i++
				}
			case single, double, template:
				sawCode = true
				switch {
				case c == '\\':
					i++
					continued = i >= len(line) || i == len(line)-1 && line[i] == '\r'
				case c == '\'' && state == single, c == '"' && state == double, c == '`' && state == template:
					state = code
					info.last = c
				default:
					if c != ' ' && c != '\t' && c != '\r' {
						info.last = c
					}
				}
			}
		}
		if state == lineComment {
			state = code
		}
		// An unterminated quote ends at the line break, unless a backslash
		// escapes the break.
		if (state == single || state == double) && !continued {
			state = code
		}
		info.commentOnly = sawComment && !sawCode
		out[li] = info
	}
	return out
}

// truncate shortens s to at most n runes for use in messages.
func truncate(s string, n int) string {
	s = strings.TrimSpace(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
