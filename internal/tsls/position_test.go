package tsls

import "testing"

func TestTextPositions(t *testing.T) {
	// Line 0: "aé😀b" — é is 2 bytes/1 unit, 😀 is 4 bytes/2 units.
	// Line 1 ends with CRLF, line 2 with a lone CR (a line break for the
	// server, editors and scry alike), line 3 is the last.
	src := "aé😀b\nx\r\ny\rz"
	txt := NewText([]byte(src))
	cases := []struct {
		offset int
		pos    Position
	}{
		{0, Position{0, 0}},
		{1, Position{0, 1}},  // é
		{3, Position{0, 2}},  // 😀
		{7, Position{0, 4}},  // b
		{8, Position{0, 5}},  // end of line 0
		{9, Position{1, 0}},  // x
		{12, Position{2, 0}}, // y
		{14, Position{3, 0}}, // z after lone CR
	}
	for _, c := range cases {
		if got := txt.PositionAt(c.offset); got != c.pos {
			t.Errorf("PositionAt(%d) = %+v, want %+v", c.offset, got, c.pos)
		}
		if got := txt.OffsetAt(c.pos); got != c.offset {
			t.Errorf("OffsetAt(%+v) = %d, want %d", c.pos, got, c.offset)
		}
	}
	// Inside the surrogate pair / multi-byte sequence: snap to the start.
	if got := txt.PositionAt(5); got != (Position{0, 2}) {
		t.Errorf("PositionAt inside 😀 = %+v", got)
	}
	if got := txt.OffsetAt(Position{0, 3}); got != 3 {
		t.Errorf("OffsetAt between surrogates = %d, want 3", got)
	}
	// Past the end of a line clamps to the line end (before CRLF).
	if got := txt.OffsetAt(Position{1, 99}); got != 10 {
		t.Errorf("OffsetAt past line end = %d, want 10", got)
	}
	// Rows are 1-based LSP lines: row 4 is "z", after the lone CR.
	pos, err := txt.PositionOf(4, 0)
	if err != nil || pos != (Position{3, 0}) {
		t.Errorf("PositionOf(4,0) = %+v, %v", pos, err)
	}
	pos, err = txt.PositionOf(1, 7) // 'b'
	if err != nil || pos != (Position{0, 4}) {
		t.Errorf("PositionOf(1,7) = %+v, %v", pos, err)
	}
	if _, err := txt.PositionOf(9, 0); err == nil {
		t.Error("PositionOf beyond the file: want an error")
	}
	if row, col := txt.RowCol(14); row != 4 || col != 0 {
		t.Errorf("RowCol(14) = %d,%d", row, col)
	}
	if got := txt.LineText(3); got != "y" {
		t.Errorf("LineText(3) = %q", got)
	}
	if got := txt.LineText(2); got != "x" {
		t.Errorf("LineText(2) = %q", got)
	}
	if got := txt.Line(Position{3, 0}); got != 4 {
		t.Errorf("Line(3:0) = %d", got)
	}
}

func TestURIRoundTrip(t *testing.T) {
	for _, p := range []string{"/tmp/a b/c#d.ts", "/x/ü/y.ts", "/plain/file.ts"} {
		u := PathToURI(p)
		if got := URIToPath(u); got != p {
			t.Errorf("URIToPath(PathToURI(%q)) = %q (uri %q)", p, got, u)
		}
	}
	if got := PathToURI("/tmp/a b.ts"); got != "file:///tmp/a%20b.ts" {
		t.Errorf("PathToURI = %q", got)
	}
}

func TestHoverCode(t *testing.T) {
	md := "```typescript\nfunction f(a: string): void\n```\nDocs here."
	if got := HoverCode(md); got != "function f(a: string): void" {
		t.Errorf("HoverCode = %q", got)
	}
	if got := HoverCode("plain"); got != "plain" {
		t.Errorf("HoverCode(plain) = %q", got)
	}
}
