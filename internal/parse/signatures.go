package parse

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/scry-dev/scry/internal/ident"
)

// reparseSignatures works around a gap in the TypeScript grammar: a generic
// call signature on its own line after another member that ends without a
// semicolon, as in
//
//	interface HandlerInterface {
//	  <P extends string>(handler: H<P>): Hono<P>
//	  <P extends string, I>(path: P, handler: H<P, I>): Hono<P>
//	}
//
// is legal TypeScript (a line break ends a member), but tree-sitter reads the
// "<" as type arguments of the line before and fails, and the error swallows
// the whole declaration, often the whole file (hono's types.ts). Such lines
// are parsed again with a ";" written over the first character of their
// indentation: offsets and lines stay the same, and the symbols' text is still
// read from the source as written. Only lines the first tree's error nodes
// reach are touched, and the new tree is kept only when it has fewer error
// nodes than the first.
func reparseSignatures(p *sitter.Parser, tree *sitter.Tree, src []byte) *sitter.Tree {
	fixed, n := separateSignatures(src, errorSpans(tree.RootNode(), nil))
	if n == 0 {
		return tree
	}
	again := p.Parse(fixed, nil)
	if again == nil {
		return tree
	}
	if errorNodes(again.RootNode()) < errorNodes(tree.RootNode()) {
		tree.Close()
		return again
	}
	again.Close()
	return tree
}

// separateSignatures returns a copy of src with ";" over the first
// indentation character of every indented line that opens with "<" right
// after a code line ending in a name, ")", "]" or ">" (the end of a member),
// where spans meet either line, and how many lines it changed. Comment-only and blank lines in
// between are skipped.
func separateSignatures(src []byte, spans [][2]int) ([]byte, int) {
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
			if rest[0] == '<' && i > 0 && endsMember(prevEnd) && overlaps(spans, prevStart, end) {
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

// overlaps reports whether the line [start, end] shares a byte with a span
// (an error node begins after the "<" it is about, at the type arguments it
// took it for).
func overlaps(spans [][2]int, start, end int) bool {
	for _, sp := range spans {
		if sp[0] <= end && sp[1] > start {
			return true
		}
	}
	return false
}

// errorSpans appends the byte spans of the outermost error nodes under n.
func errorSpans(n *sitter.Node, out [][2]int) [][2]int {
	if n.IsError() {
		return append(out, [2]int{int(n.StartByte()), int(n.EndByte())})
	}
	if n.HasError() {
		eachChild(n, func(c *sitter.Node) { out = errorSpans(c, out) })
	}
	return out
}

// errorNodes counts the error and missing nodes of a tree.
func errorNodes(n *sitter.Node) int {
	if n.IsError() || n.IsMissing() {
		return 1
	}
	count := 0
	if n.HasError() {
		eachChild(n, func(c *sitter.Node) { count += errorNodes(c) })
	}
	return count
}

// eachChild calls fn on every child of n, through a cursor: Node.Child(i)
// walks the siblings from the first, which makes a root of thousands of
// statements quadratic.
func eachChild(n *sitter.Node, fn func(*sitter.Node)) {
	c := n.Walk()
	defer c.Close()
	for ok := c.GotoFirstChild(); ok; ok = c.GotoNextSibling() {
		fn(c.Node())
	}
}
