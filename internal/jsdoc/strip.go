package jsdoc

import (
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/parse"
)

// DocRanges returns the byte ranges [start, end) of the comments that
// document s, whose summary is summary:
//   - every comment attached above the declaration (the parser puts them
//     between StartByte and DeclStartByte);
//   - every /** */ block between the declaration's start and its body: the
//     parser merges overload signatures into the implementation, whose JSDoc
//     (and the overloads' own) then sits after DeclStartByte;
//   - every /** */ block anywhere in the symbol with the same summary: effect
//     repeats a function's JSDoc on each call signature of its type
//     (`export const scan: { /** ... */ <A>(...): B; ... } = ...`).
//
// Other comments inside the symbol stay: they belong to what it contains.
func DocRanges(src []byte, s *parse.Symbol, summary string) [][2]int {
	var out [][2]int
	end := min(s.EndByte, len(src))
	lead := s.DeclStartByte
	if lead < s.StartByte || lead > end {
		lead = s.StartByte
	}
	out = append(out, comments(src, s.StartByte, lead, false)...)
	header := s.BodyStartByte
	if header < lead || header > end {
		header = lead
	}
	key := Normalize(summary)
	for _, r := range comments(src, lead, end, true) {
		if r[0] < header || Normalize(Summary(jsdocText(src[r[0]:r[1]]))) == key {
			out = append(out, r)
		}
	}
	return out
}

// jsdocText is the text of a /** */ block without its markers, as the
// parser gives it in Symbol.JSDoc.
func jsdocText(block []byte) string {
	s := strings.TrimSuffix(strings.TrimPrefix(string(block), "/**"), "*/")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		lines[i] = strings.TrimSpace(strings.TrimPrefix(l, "*"))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// comments finds comments in src[from:to]. With jsdocOnly it returns only
// /** */ blocks and skips string and template literals, since that range is
// code (parameter lists may hold default values); otherwise the range is
// known to hold only comments and white space and every comment counts.
func comments(src []byte, from, to int, jsdocOnly bool) [][2]int {
	var out [][2]int
	for i := from; i < to; i++ {
		c := src[i]
		switch {
		case jsdocOnly && (c == '"' || c == '\'' || c == '`'):
			i = skipString(src, i, to)
		case c == '/' && i+1 < to && src[i+1] == '/':
			j := i
			for j < to && src[j] != '\n' {
				j++
			}
			if !jsdocOnly {
				out = append(out, [2]int{i, j})
			}
			i = j
		case c == '/' && i+1 < to && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			j += 2
			if j > len(src) {
				j = len(src)
			}
			if !jsdocOnly || (i+2 < len(src) && src[i+2] == '*' && j-i > 4) {
				out = append(out, [2]int{i, j})
			}
			i = j - 1
		}
	}
	return out
}

// skipString returns the index of the quote closing the literal opened at i
// (or to-1), honouring backslash escapes.
func skipString(src []byte, i, to int) int {
	q := src[i]
	for j := i + 1; j < to; j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			if q != '`' {
				return j
			}
		}
	}
	return to - 1
}

// Blank returns a copy of src in which every byte inside ranges is a space,
// except line breaks, which stay: every line keeps its number and every
// byte its offset, so ranges computed on the original still hold.
func Blank(src []byte, ranges [][2]int) []byte {
	out := append([]byte(nil), src...)
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] < ranges[j][0] })
	for _, r := range ranges {
		for i := max(r[0], 0); i < r[1] && i < len(out); i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	return out
}

// BlankAll returns a copy of src with every /** */ block outside string
// literals blanked the way the quality benchmark blanks an answer's JSDoc
// (line breaks and offsets kept). The embedding model's trainer uses it so
// that its code side looks like a benchmark answer: code without the
// comment that describes it.
func BlankAll(src []byte) []byte {
	return Blank(src, comments(src, 0, len(src), true))
}
