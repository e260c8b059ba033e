package parse

import (
	"bytes"

	"github.com/scry-dev/scry/internal/ident"
)

// separateMembers works around two members that tree-sitter joins to the
// member on the line before when that one ends without a semicolon. One is a
// generic call signature on its own line, as in
//
//	interface HandlerInterface {
//	  <P extends string>(handler: H<P>): Hono<P>
//	  <P extends string, I>(path: P, handler: H<P, I>): Hono<P>
//	}
//
// which is legal TypeScript (a line break ends a member), but tree-sitter
// reads the "<" as type arguments of the line before and fails, and the
// error swallows the whole declaration, often the whole file (hono's
// types.ts). The other is a member whose name begins with "in" (in?: string,
// in2, instanceof: SVG attributes, Prisma filters), read as the operator.
// Such lines get a ";" written over the first character of their
// indentation.
//
// It returns a copy of src with ";" over the first indentation character of
// every indented line that opens with "<", or with a name beginning "in"
// followed by ":", "?" or "(", right after a code line ending in a name,
// ")", "]" or ">" (the end of a member), where spans meet either line, and
// how many lines it changed. Comment-only and blank lines in between are
// skipped.
func separateMembers(src []byte, spans [][2]int) ([]byte, int) {
	errs := spanCursor{spans: spans}
	var out []byte
	n := 0
	var prevEnd byte // last character of the last code line
	prevStart := 0   // where that line starts
	for start := 0; start < len(src); {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		line := src[start:end]
		i := 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		switch rest := line[i:]; {
		case len(rest) == 0 || rest[0] == '\r', bytes.HasPrefix(rest, []byte("//")), bytes.HasPrefix(rest, []byte("/*")), bytes.HasPrefix(rest, []byte("*")):
			// blank or comment: the member before still ends where it did
		default:
			// The error may begin on the member before, which took the
			// "<" for its own type arguments.
			if (rest[0] == '<' || opensInMember(rest)) && i > 0 && endsMember(prevEnd) && errs.overlaps(prevStart, end) {
				if out == nil {
					out = append([]byte(nil), src...)
				}
				out[start] = ';'
				n++
			}
			prevEnd, prevStart = lastCode(rest), start
		}
		start = end + 1
	}
	if n == 0 {
		return src, 0
	}
	return out, n
}

// opensInMember reports whether a line opens with a member whose name
// begins with "in".
func opensInMember(rest []byte) bool {
	if !bytes.HasPrefix(rest, []byte("in")) {
		return false
	}
	i := 2
	for i < len(rest) && ident.PartByte(rest[i]) {
		i++
	}
	rest = bytes.TrimLeft(rest[i:], " \t")
	return len(rest) > 0 && (rest[0] == ':' || rest[0] == '?' || rest[0] == '(')
}

func endsMember(c byte) bool {
	return c == ')' || c == ']' || c == '>' || ident.PartByte(c)
}

// lastCode is the last character of a line before any trailing space or
// line comment ("//" inside a string is rare enough at a member's end).
func lastCode(line []byte) byte {
	end := len(line)
	for i := 0; i+1 < len(line); i++ {
		if line[i] == '/' && line[i+1] == '/' {
			end = i
			break
		}
	}
	for end > 0 && (line[end-1] == ' ' || line[end-1] == '\t' || line[end-1] == '\r') {
		end--
	}
	if end == 0 {
		return 0
	}
	return line[end-1]
}
