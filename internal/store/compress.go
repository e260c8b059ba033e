package store

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	kflate "github.com/klauspost/compress/flate"
	"github.com/scry-dev/scry/internal/sqlitedb"
)

// Two kinds of chunk text are stored compressed, each alone, as a BLOB of
// raw DEFLATE data where a plain one is TEXT, so a column's type says which
// it is:
//   - a container's own embedding text (its source with children collapsed
//     to stubs; a leaf's is its source, in blocks), which SQL reads through
//     the inflated() function; these were 6.5 MB of the speed corpus;
//   - a container's full source when it is not found in its file's text
//     (source.go), read only when the chunk is shown, through sourceText.
const (
	// compressAbove is the shortest text worth compressing: below it the
	// saving is a few hundred bytes.
	compressAbove = 512
	// compressLevel trades ratio for speed; indexing compresses everything
	// once, reads decompress a few chunks. Written, like blocks, by
	// klauspost/compress (see blockLevel).
	compressLevel = kflate.BestSpeed
)

var writers = sync.Pool{New: func() any {
	w, err := kflate.NewWriter(nil, compressLevel)
	if err != nil {
		panic(err) // only for an invalid level
	}
	return w
}}

// compressText returns the DEFLATE form of s, or nil when it would not
// save at least a quarter.
func compressText(s string) []byte {
	if len(s) < compressAbove {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(s) / 3)
	w := writers.Get().(*kflate.Writer)
	defer writers.Put(w)
	w.Reset(&buf)
	if _, err := io.WriteString(w, s); err != nil {
		return nil
	}
	if err := w.Close(); err != nil {
		return nil
	}
	if buf.Len() > len(s)*3/4 {
		return nil
	}
	return buf.Bytes()
}

// storedText is the column value of a text compressText may shrink.
func storedText(s string) any {
	if z := compressText(s); z != nil {
		return z
	}
	return s
}

// sourceText scans a full_source column: TEXT as it is, a BLOB inflated.
type sourceText struct{ s *string }

func (t sourceText) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*t.s = ""
	case string:
		*t.s = v
	case []byte:
		s, err := inflate(v)
		if err != nil {
			return fmt.Errorf("full source: %w", err)
		}
		*t.s = s
	default:
		return fmt.Errorf("full source of type %T", v)
	}
	return nil
}

func init() {
	// inflated(x) is x, or its inflated text when x is a BLOB. Cached:
	// light reads meet the same containers often.
	sqlitedb.RegisterScalar("inflated", 1, func(args []any) (any, error) {
		z, ok := args[0].([]byte)
		if !ok {
			return args[0], nil
		}
		s, err := blocks.text(z)
		if err != nil {
			return nil, fmt.Errorf("inflated: %w", err)
		}
		return s, nil
	})
}
