package answer

import (
	"fmt"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/lines"
)

// identifierAt returns the identifier at a 1-based line and column of src
// (lines as editors count them: internal/lines).
func identifierAt(src []byte, line, column int) (string, error) {
	starts := lines.Starts(src)
	if line < 1 || line > lines.Total(starts, len(src)) {
		return "", fmt.Errorf("definition: line %d is past the end of the file", line)
	}
	text := string(src[starts[line-1]:lines.End(src, starts, line)])
	i := column - 1
	if i < 0 || i >= len(text) || !ident.PartByte(text[i]) {
		return "", fmt.Errorf("definition: no identifier at line %d, column %d", line, column)
	}
	s, e := i, i
	for s > 0 && ident.PartByte(text[s-1]) {
		s--
	}
	for e < len(text) && ident.PartByte(text[e]) {
		e++
	}
	return text[s:e], nil
}
