package parse

import (
	"bytes"
)

// Files above segmentAbove (bundles such as typescript.js) are parsed in
// pieces of about segmentSize, cut where a top-level declaration starts at
// column 0 (or one indentation level in) after a line that ends a statement. tree-sitter's tree costs
// about 25 bytes of memory per source byte; pieces bound that to the piece,
// and each piece's tree is freed before the next is parsed. The price: a
// wrapper spanning the whole file (an IIFE) is not one symbol, its
// declarations become root symbols — which is also how an agent wants to
// find them.
const (
	segmentAbove = 2 << 20
	segmentSize  = 256 << 10
)

// shallow strips an indentation of at most two spaces or one tab: bundles
// wrap modules in functions one level deep (TypeScript's checker is a single
// 2 MB function), and their declarations start there.
func shallow(line []byte) []byte {
	switch {
	case bytes.HasPrefix(line, []byte("  ")) && len(line) > 2 && line[2] != ' ' && line[2] != '\t':
		return line[2:]
	case bytes.HasPrefix(line, []byte("\t")) && len(line) > 1 && line[1] != ' ' && line[1] != '\t':
		return line[1:]
	}
	return line
}

// segmentCuts returns the byte offsets (line starts) where the file is cut.
func segmentCuts(src []byte) []int {
	var cuts []int
	last := 0
	prevEnd := byte(0) // last non-space byte of the previous non-blank line
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		if i-last >= segmentSize && (prevEnd == ';' || prevEnd == '}' || prevEnd == ')') && startsDeclaration(shallow(line)) {
			cuts = append(cuts, i)
			last = i
		}
		if t := bytes.TrimRight(line, " \t\r"); len(t) > 0 {
			prevEnd = t[len(t)-1]
		}
		i = end + 1
	}
	return cuts
}

func parseSegments(path string, src []byte, lang string, cuts []int) (*File, error) {
	f := &File{Path: path, Language: lang, Source: src}
	bounds := append(append([]int{0}, cuts...), len(src))
	lineShift := 0
	for i := 0; i+1 < len(bounds); i++ {
		from, to := bounds[i], bounds[i+1]
		piece, err := parseWhole(path, src[from:to], lang)
		if err != nil {
			return nil, err
		}
		shiftPiece(piece, from, lineShift)
		f.Imports = append(f.Imports, piece.Imports...)
		f.Symbols = append(f.Symbols, piece.Symbols...)
		f.ErrorNodes += piece.ErrorNodes
		// Every piece but the last ends with a line break, so its last
		// start is the next piece's first, from.
		if i == 0 {
			f.LineStarts = piece.LineStarts
		} else {
			for _, s := range piece.LineStarts[1:] {
				f.LineStarts = append(f.LineStarts, from+s)
			}
		}
		lineShift += len(piece.LineStarts) - 1
	}
	return f, nil
}
