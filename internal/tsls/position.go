package tsls

import (
	"fmt"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/scry-dev/scry/internal/lines"
)

// Text is a file's content with its line index. LSP lines and scry's own
// rows (internal/lines: broken at "\n", "\r\n" and a lone "\r") are the same
// lines; they differ in columns, UTF-16 units for the server and bytes for
// scry.
type Text struct {
	src       []byte
	lspStarts []int // byte offset of each line
	rowStarts []int // the same slice, named for the byte-column side
}

// NewText indexes src.
func NewText(src []byte) *Text {
	starts := lines.Starts(src)
	return &Text{src: src, lspStarts: starts, rowStarts: starts}
}

// ReadText reads and indexes a file.
func ReadText(path string) (*Text, error) {
	b, err := readSource(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return NewText(b), nil
}

// Bytes returns the content.
func (t *Text) Bytes() []byte { return t.src }

// Len returns the content length in bytes.
func (t *Text) Len() int { return len(t.src) }

// lspLineEnd returns the byte offset where LSP line i's content ends
// (before its terminator).
func (t *Text) lspLineEnd(i int) int { return lines.End(t.src, t.lspStarts, i+1) }

// PositionAt converts a byte offset to an LSP position (UTF-16 column).
// Offsets inside a multi-byte character map to that character's start.
func (t *Text) PositionAt(offset int) Position {
	if offset < 0 {
		offset = 0
	}
	if offset > len(t.src) {
		offset = len(t.src)
	}
	line := sort.Search(len(t.lspStarts), func(i int) bool { return t.lspStarts[i] > offset }) - 1
	start := t.lspStarts[line]
	col := 0
	for i := start; i < offset; {
		r, size := utf8.DecodeRune(t.src[i:])
		if i+size > offset {
			break
		}
		col += utf16Len(r)
		i += size
	}
	return Position{Line: line, Character: col}
}

// OffsetAt converts an LSP position to a byte offset. Columns past the end of
// the line clamp to the line end; a column in the middle of a surrogate pair
// maps to the start of that character.
func (t *Text) OffsetAt(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lspStarts) {
		return len(t.src)
	}
	i, end := t.lspStarts[p.Line], t.lspLineEnd(p.Line)
	col := 0
	for i < end {
		r, size := utf8.DecodeRune(t.src[i:end])
		n := utf16Len(r)
		if col+n > p.Character {
			break
		}
		col += n
		i += size
	}
	return i
}

// RowOffset converts a 1-based row (a line as internal/lines counts)
// and a 0-based byte column to a byte offset.
func (t *Text) RowOffset(row, byteCol int) (int, error) {
	if row < 1 || row > len(t.rowStarts) {
		return 0, fmt.Errorf("line %d out of range (file has %d lines)", row, len(t.rowStarts))
	}
	off := t.rowStarts[row-1] + byteCol
	if byteCol < 0 || off > len(t.src) {
		return 0, fmt.Errorf("column %d out of range on line %d", byteCol, row)
	}
	return off, nil
}

// RowCol converts a byte offset to a 1-based row and 0-based byte column.
func (t *Text) RowCol(offset int) (row, byteCol int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(t.src) {
		offset = len(t.src)
	}
	i := sort.Search(len(t.rowStarts), func(i int) bool { return t.rowStarts[i] > offset }) - 1
	return i + 1, offset - t.rowStarts[i]
}

// PositionOf converts the parser's coordinates (1-based row, 0-based byte
// column) to an LSP position.
func (t *Text) PositionOf(row, byteCol int) (Position, error) {
	off, err := t.RowOffset(row, byteCol)
	if err != nil {
		return Position{}, err
	}
	return t.PositionAt(off), nil
}

// Line returns the 1-based row that an LSP position falls on, in the
// parser's row numbering.
func (t *Text) Line(p Position) int {
	row, _ := t.RowCol(t.OffsetAt(p))
	return row
}

// Slice returns the text of an LSP range.
func (t *Text) Slice(r Range) string {
	a, b := t.OffsetAt(r.Start), t.OffsetAt(r.End)
	if b < a {
		a, b = b, a
	}
	return string(t.src[a:b])
}

// LineText returns the content of a 1-based row without its terminator.
func (t *Text) LineText(row int) string {
	if row < 1 || row > len(t.rowStarts) {
		return ""
	}
	return string(t.src[t.rowStarts[row-1]:lines.End(t.src, t.rowStarts, row)])
}

// utf16Len counts a rune's UTF-16 code units. An invalid byte decodes to
// U+FFFD, one unit, which is also how the server (Go, like us) counts it.
func utf16Len(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}
