package workspace

import (
	"bytes"
	"path/filepath"
	"unicode/utf8"

	"github.com/scry-dev/scry/internal/lines"
)

const (
	// binarySniffLen matches git's heuristic: a NUL byte in the first 8 KB.
	binarySniffLen = 8 << 10
	// A minified file has few, very long lines. Small files are exempt so
	// that a short one-line module is still indexed.
	minifiedMinSize    = 3 << 10
	minifiedAvgLineLen = 1000
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// CheckContent returns "" when b, the contents of the file at path, should be
// indexed, and otherwise the reason to skip it: SkipBinary, SkipNotUTF8 or
// SkipMinified. It is the second half of discovery, run by the indexer on the
// bytes it has read, so that no file is read twice. A UTF-8 byte order mark is
// accepted.
func CheckContent(path string, b []byte) string {
	if isMinifiedName(filepath.Base(path)) {
		return SkipMinified
	}
	if bytes.IndexByte(b[:min(len(b), binarySniffLen)], 0) >= 0 {
		return SkipBinary
	}
	b = bytes.TrimPrefix(b, utf8BOM)
	if !utf8.Valid(b) {
		return SkipNotUTF8
	}
	if len(b) >= minifiedMinSize {
		if len(b)/lines.TotalOf(b) > minifiedAvgLineLen {
			return SkipMinified
		}
	}
	return ""
}
