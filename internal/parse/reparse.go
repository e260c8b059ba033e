package parse

import sitter "github.com/tree-sitter/go-tree-sitter"

// A rewrite returns a copy of src changed only on lines the first tree's
// error spans reach, with every offset and line kept, and how many places it
// changed (src itself and 0 when none). It works around a gap in the
// grammar: tree-sitter reads the rewritten text as the compiler reads the
// original.
type rewrite func(src []byte, spans [][2]int) ([]byte, int)

// reparse parses src again through fix when the tree has errors and fix
// changes something, and keeps the new tree only when it has fewer error
// nodes than the first. It returns the tree kept and the text it was parsed
// from, for the next rewrite to start from. The symbols' text is still read
// from the source as written: only the tree's shape comes from the rewrite.
func reparse(p *sitter.Parser, tree *sitter.Tree, src []byte, fix rewrite) (*sitter.Tree, []byte) {
	if !tree.RootNode().HasError() {
		return tree, src
	}
	fixed, n := fix(src, errorSpans(tree.RootNode(), nil))
	if n == 0 {
		return tree, src
	}
	again := p.Parse(fixed, nil)
	if again == nil {
		return tree, src
	}
	if errorNodes(again.RootNode()) < errorNodes(tree.RootNode()) {
		tree.Close()
		return again, fixed
	}
	again.Close()
	return tree, src
}

// spanCursor reports whether lines share a byte with the error spans,
// asked in document order: the spans (errorSpans') are disjoint and in
// document order too, so the cursor only moves forward and a rewrite stays
// linear in the file however many errors it has.
type spanCursor struct {
	spans [][2]int
	i     int
}

// overlaps reports whether the line [start, end] shares a byte with a span
// (an error node begins after the "<" it is about, at the type arguments it
// took it for). start never decreases between calls.
func (c *spanCursor) overlaps(start, end int) bool {
	for c.i < len(c.spans) && c.spans[c.i][1] <= start {
		c.i++
	}
	return c.i < len(c.spans) && c.spans[c.i][0] <= end
}

// errorSpans appends the byte spans of the outermost error nodes under n,
// and a byte for each missing node (which tree-sitter inserts where it
// expected a token, with no width).
func errorSpans(n *sitter.Node, out [][2]int) [][2]int {
	if n.IsError() {
		return append(out, [2]int{int(n.StartByte()), int(n.EndByte())})
	}
	if n.IsMissing() {
		return append(out, [2]int{int(n.StartByte()), int(n.StartByte()) + 1})
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
