package parse

import (
	"bytes"
	"strings"

	"github.com/scry-dev/scry/internal/lines"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Comments: a /* left open to the end of the file, and the JSDoc and
// comment text that symbols carry.

// unclosedComment returns the offset of a "/*" that no "*/" closes, or -1.
// Only a "/*" after the file's last "*/" can be one, and only where the
// tree does not show it inside a string, template, regex, JSX text or line
// comment that parsed cleanly. tree-sitter's recovery from it varies (an
// ERROR node, a division followed by an error, a regex missing its end),
// so the tree is asked only where the "/*" is not, never where it is.
func unclosedComment(root *sitter.Node, src []byte) int {
	if !root.HasError() {
		return -1 // an unclosed comment is always a syntax error
	}
	from := 0
	if i := bytes.LastIndex(src, []byte("*/")); i >= 0 {
		from = i + 2
	}
	for {
		i := bytes.Index(src[from:], []byte("/*"))
		if i < 0 {
			return -1
		}
		p := from + i
		if !insideToken(root, p, 2) {
			return p
		}
		from = p + 1
	}
}

// unclosedTemplate returns the offset of a "`" that no "`" closes, or -1:
// to the compiler the rest of the file is that template's text, while
// tree-sitter recovers by parsing on, so a function after it came back as
// a symbol. The backticks that count are those outside the strings,
// comments, regexes and templates that parsed cleanly; when they are odd
// in number, the last one opens a template that never ends (the ones
// before it pair up).
func unclosedTemplate(root *sitter.Node, src []byte) int {
	if !root.HasError() || bytes.IndexByte(src, '`') < 0 {
		return -1
	}
	last, n := -1, 0
	for i := bytes.IndexByte(src, '`'); i >= 0; {
		if !insideToken(root, i, 1) {
			last, n = i, n+1
		}
		k := bytes.IndexByte(src[i+1:], '`')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	if n%2 == 0 {
		return -1
	}
	return last
}

// insideToken reports whether the width bytes at offset p are inside a
// string, template, regex, JSX text or comment that has no error in it.
func insideToken(root *sitter.Node, p, width int) bool {
	for n := root.DescendantForByteRange(uint(p), uint(p+width)); n != nil; n = n.Parent() {
		switch n.Kind() {
		case "string", "template_string", "regex", "jsx_text", "comment", "string_fragment":
			return !n.HasError() && int(n.StartByte()) <= p && p+width <= int(n.EndByte())
		}
	}
	return false
}

// blankFrom returns a copy of src with every byte from off on a space,
// except line breaks.
func blankFrom(src []byte, off int) []byte {
	out := bytes.Clone(src)
	for i := off; i < len(out); i++ {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
	return out
}

// unclosedSymbol adds the comment (or template text) running from off to
// the end of the file; a symbol sharing its first line absorbs it.
func (b *builder) unclosedSymbol(syms []*Symbol, off int, kind string) []*Symbol {
	start := b.line(off)
	end := lines.Total(b.lineStarts, len(b.src))
	c := &Symbol{Kind: kind, StartLine: start, EndLine: end, StartByte: off, DeclStartByte: off, EndByte: len(b.src), BodyStartByte: -1}
	c.Name = commentName(b.src[off:])
	return mergeSameLine(append(syms, c))
}

func firstLine(b []byte) string {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i]
	}
	return collapseSpace(string(b), 60)
}

func commentName(b []byte) string {
	s := strings.TrimSpace(string(b))
	for _, line := range lines.Split(s) {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "/*! ")
		line = strings.TrimSuffix(line, "*/")
		if line = strings.TrimSpace(line); line != "" {
			return collapseSpace(line, 60)
		}
	}
	return "comment"
}

// lastJSDoc returns the text of the last /** */ block in a comment run,
// without the comment markers.
func lastJSDoc(b []byte) string {
	i := bytes.LastIndex(b, []byte("/**"))
	if i < 0 {
		return ""
	}
	doc := b[i+3:]
	j := bytes.Index(doc, []byte("*/"))
	if j < 0 {
		return ""
	}
	if len(bytes.TrimSpace(b[i+3+j+2:])) != 0 {
		// Something other than whitespace follows the JSDoc: it is not the
		// comment directly above the declaration.
		return ""
	}
	var docLines []string
	for _, line := range lines.Split(string(doc[:j])) {
		line = strings.TrimSpace(line)
		line = strings.TrimPrefix(line, "*")
		docLines = append(docLines, strings.TrimSpace(line))
	}
	return strings.TrimSpace(strings.Join(docLines, "\n"))
}
