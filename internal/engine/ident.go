package engine

import (
	"bufio"
	"bytes"
	"fmt"

	"github.com/scry-dev/scry/internal/ident"
)

// identifierAt returns the identifier at a 1-based line and column of src.
func identifierAt(src []byte, line, column int) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		if n != line {
			continue
		}
		text := sc.Text()
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
	return "", fmt.Errorf("definition: line %d is past the end of the file", line)
}
