package store

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sync"
)

// A container chunk's full source (a class, a module-level call wrapping a
// thousand lines) is stored compressed: it is read only when the chunk is
// shown, never searched in SQL (its embedding text, which SQL does read, is
// stored apart), and containers held a third of the index's source text.
// A compressed source is a BLOB of raw DEFLATE data; a plain one is TEXT,
// so the column's type says which it is.
const (
	// compressAbove is the shortest source worth compressing: below it
	// the saving is under a page.
	compressAbove = 1024
	// compressLevel trades ratio for speed; indexing compresses everything
	// once, reads decompress a few chunks.
	compressLevel = flate.BestSpeed
)

var writers = sync.Pool{New: func() any {
	w, err := flate.NewWriter(nil, compressLevel)
	if err != nil {
		panic(err) // only for an invalid level
	}
	return w
}}

// compressSource returns the DEFLATE form of s, or nil when it would not
// save at least a quarter.
func compressSource(s string) []byte {
	if len(s) < compressAbove {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(s) / 3)
	w := writers.Get().(*flate.Writer)
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

// sourceText scans a full_source column: TEXT as it is, a BLOB inflated.
type sourceText struct{ s *string }

func (t sourceText) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*t.s = ""
	case string:
		*t.s = v
	case []byte:
		r := flate.NewReader(bytes.NewReader(v))
		defer r.Close()
		var b bytes.Buffer
		b.Grow(len(v) * 4)
		if _, err := b.ReadFrom(r); err != nil {
			return fmt.Errorf("inflate full source: %w", err)
		}
		*t.s = b.String()
	default:
		return fmt.Errorf("full source of type %T", v)
	}
	return nil
}
