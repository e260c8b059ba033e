package parse

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/textfmt"
)

// The builder walks one file's syntax tree into symbols; these are its
// helpers for positions, node text and signatures.

type builder struct {
	path       string
	lang       string
	src        []byte
	g          *grammar
	lineStarts []int
	jsxAware   bool
	testCode   bool // a test or its support (pathclass.TestCode): object-literal methods are mocks, part of their test
	cursor     *sitter.TreeCursor
	imports    []Import
	errors     int
	cands      []candidate
	kids       unsafe.Pointer // childNodes' buffer, of nkids nodes, in C memory
	nkids      int
	// level is how many declarations deep the builder is (nested and
	// namespace bodies); none are looked for below MaxDepth.
	level int
	// scanned counts the candidates nested looked at: the work a deep nest
	// costs, which tests hold linear in the file.
	scanned int
}

// line returns the 1-based line holding byte offset off.
func (b *builder) line(off int) int { return lines.Of(b.lineStarts, off) }

// endLine is the line of the last byte of [start,end): a node that ends right
// after a newline does not reach the next line.
func (b *builder) endLine(start, end int) int {
	if end > start {
		end--
	}
	return b.line(end)
}

func (b *builder) kindOf(n *sitter.Node) kind {
	id := n.KindId()
	if int(id) < len(b.g.kinds) {
		return b.g.kinds[id]
	}
	return kNone
}

func (b *builder) text(n *sitter.Node) string {
	return string(b.src[n.StartByte():n.EndByte()])
}

func (b *builder) namedChildren(n *sitter.Node) []sitter.Node {
	return b.childNodes(n, true)
}

func (b *builder) children(n *sitter.Node) []sitter.Node {
	return b.childNodes(n, false)
}

// newSymbol makes a symbol spanning node n.
func (b *builder) newSymbol(n *sitter.Node, name, k string) *Symbol {
	start, end := int(n.StartByte()), int(n.EndByte())
	return &Symbol{
		Name:          name,
		Kind:          k,
		StartByte:     start,
		DeclStartByte: start,
		EndByte:       end,
		StartLine:     b.line(start),
		EndLine:       b.endLine(start, end),
		BodyStartByte: -1,
	}
}

// setSpan makes s cover exactly node n (a wrapper such as an export
// statement around the declaration s was built from).
func (b *builder) setSpan(s *Symbol, n *sitter.Node) {
	s.StartByte, s.DeclStartByte, s.EndByte = int(n.StartByte()), int(n.StartByte()), int(n.EndByte())
	s.StartLine, s.EndLine = b.line(s.StartByte), b.endLine(s.StartByte, s.EndByte)
}

func (b *builder) lineEnd(l int) int { return lines.End(b.src, b.lineStarts, l) }

func (b *builder) blankLine(l int) bool {
	start := b.lineStarts[l-1]
	return len(bytes.TrimSpace(b.src[start:b.lineEnd(l)])) == 0
}

func (b *builder) hasToken(n *sitter.Node, tok string) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if !c.IsNamed() && c.Kind() == tok {
			return true
		}
	}
	return false
}

// child is n.ChildByFieldName(field), by the field's id: ChildByFieldName
// copies the name into C memory and frees it at every call.
func (b *builder) child(n *sitter.Node, field string) *sitter.Node {
	if id, ok := b.g.fields[field]; ok {
		return n.ChildByFieldId(id)
	}
	return n.ChildByFieldName(field)
}

func (b *builder) fieldText(n *sitter.Node, field string) string {
	if c := b.child(n, field); c != nil {
		return b.text(c)
	}
	return ""
}

// signature is the declaration text before its body (decorators skipped),
// whitespace collapsed; for bodiless declarations, the whole text.
func (b *builder) signature(n *sitter.Node, bodyStart int) string {
	start := int(n.StartByte())
	for _, c := range b.children(n) {
		if k := b.kindOf(&c); k == kDecorator || k == kComment {
			continue
		}
		start = int(c.StartByte())
		break
	}
	end := int(n.EndByte())
	if bodyStart >= start && bodyStart <= end {
		end = bodyStart
	}
	if start > end {
		start = end
	}
	return collapseSpace(b.view(start, end), 300)
}

// view is src[start:end] as a string without a copy, for functions that
// only read it (collapseSpace): a bodiless declaration's signature is its
// whole text, which may be megabytes of data.
func (b *builder) view(start, end int) string {
	if start >= end {
		return ""
	}
	return unsafe.String(&b.src[start], end-start)
}

// nodeView is view of a node's text.
func (b *builder) nodeView(n *sitter.Node) string {
	return b.view(int(n.StartByte()), int(n.EndByte()))
}

// collapseSpace is s with every run of white space made one space (the
// fields of strings.Fields joined), a final ";" and white space trimmed,
// and cut to max bytes followed by "…" when longer. It reads s only as far
// as the result needs and returns a string of its own.
func collapseSpace(s string, max int) string {
	// The trims remove at most two bytes (";" and the space before it),
	// so once max+3 bytes are collapsed the result is cut whatever follows.
	limit := max + 3
	buf := make([]byte, 0, min(len(s), limit+utf8.UTFMax))
	pending, cut := false, false
	for i := 0; i < len(s); {
		c, w, space := s[i], 1, false
		if c < utf8.RuneSelf {
			space = asciiSpace[c]
		} else {
			var r rune
			r, w = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		if space {
			pending = len(buf) > 0
			i += w
			continue
		}
		if pending {
			buf = append(buf, ' ')
			pending = false
		}
		buf = append(buf, s[i:i+w]...)
		i += w
		if len(buf) >= limit {
			cut = true
			break
		}
	}
	t := string(buf)
	if !cut {
		t = strings.TrimSuffix(t, ";")
		t = strings.TrimSpace(t)
	}
	return textfmt.Clip(t, max)
}

// asciiSpace are the ASCII bytes strings.Fields splits at.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') {
		return s[1 : len(s)-1]
	}
	return s
}
