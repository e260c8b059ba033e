package parse

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// declStarts are the openings of a top-level declaration written at column 0.
var declStarts = [][]byte{
	[]byte("export "), []byte("function "), []byte("function*"), []byte("async function"), []byte("class "),
	[]byte("abstract class "), []byte("const "), []byte("let "), []byte("var "), []byte("interface "),
	[]byte("type "), []byte("enum "), []byte("namespace "), []byte("declare "), []byte("import "),
	[]byte("module.exports"), []byte("exports."),
}

func startsDeclaration(line []byte) bool {
	for _, p := range declStarts {
		if bytes.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// recoverRegion handles a multi-line root statement that tree-sitter could
// not parse (error recovery can swallow hundreds of following lines into one
// node, as the `in`/`out` variance gap does): it cuts the region at the lines
// where a new top-level declaration starts and parses each piece on its own.
// It returns nil when there is nothing to cut at.
func (b *builder) recoverRegion(n *sitter.Node) []*Symbol {
	start, end := int(n.StartByte()), int(n.EndByte())
	first, last := b.line(start), b.endLine(start, end)
	if last-first < 2 {
		return nil
	}
	bounds := []int{start}
	for l := first + 1; l <= last; l++ {
		ls := b.lineStarts[l-1]
		if startsDeclaration(b.src[ls:b.lineEnd(l)]) {
			bounds = append(bounds, ls)
		}
	}
	if len(bounds) == 1 {
		return nil
	}
	bounds = append(bounds, end)
	var out []*Symbol
	for i := 0; i+1 < len(bounds); i++ {
		from, to := bounds[i], bounds[i+1]
		f, err := Parse(b.path, b.src[from:to], b.lang)
		if err != nil {
			return nil
		}
		lineShift := b.line(from) - 1
		shiftPiece(f, from, lineShift)
		b.imports = append(b.imports, f.Imports...)
		b.errors += f.ErrorNodes
		out = append(out, f.Symbols...)
	}
	return out
}

// shiftPiece moves what was parsed from a piece of a file to its place in
// the whole: its symbols by bytesBy bytes and linesBy lines, its imports
// by linesBy lines.
func shiftPiece(piece *File, bytesBy, linesBy int) {
	for _, s := range piece.Symbols {
		shift(s, bytesBy, linesBy)
	}
	for i := range piece.Imports {
		piece.Imports[i].StartLine += linesBy
		piece.Imports[i].EndLine += linesBy
	}
}

func shift(s *Symbol, bytesBy, linesBy int) {
	s.StartByte += bytesBy
	s.DeclStartByte += bytesBy
	s.EndByte += bytesBy
	if s.BodyStartByte >= 0 {
		s.BodyStartByte += bytesBy
	}
	s.StartLine += linesBy
	s.EndLine += linesBy
	for _, c := range s.Children {
		shift(c, bytesBy, linesBy)
	}
}
