package chunkindex

import (
	"sync"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/terms"
)

// FullText is a chunk's full-text columns.
type FullText [6]string

// PrepareFullText computes the chunks' full-text columns alone, for
// indexes that rank with the same columns as the local one.
func PrepareFullText(chunks []chunk.Chunk) []FullText {
	out := make([]FullText, len(chunks))
	w := AcquireWriter()
	defer ReleaseWriter(w)
	for i := range chunks {
		out[i] = w.FullText(&chunks[i])
	}
	return out
}

// FullTextWriter is the scratch space of FullText: a Joiner, which keeps its
// identifiers' terms from file to file, and a buffer.
type FullTextWriter struct {
	j   *terms.Joiner
	buf []byte
}

var writers = sync.Pool{New: func() any { return &FullTextWriter{j: terms.NewJoiner()} }}

// AcquireWriter takes a FullTextWriter from a pool; ReleaseWriter gives it
// back. A writer is used by one goroutine at a time.
func AcquireWriter() *FullTextWriter { return writers.Get().(*FullTextWriter) }

// ReleaseWriter returns w to the pool of AcquireWriter.
func ReleaseWriter(w *FullTextWriter) { writers.Put(w) }

// FullText returns the FTS column texts of a chunk. Every column holds
// terms.Split output, not raw text: queries arrive as terms.Query output
// (stemmed sub-words plus whole identifiers), and raw text tokenised by
// unicode61 would only meet them where stemming happens to change nothing
// ("validating" would never match "valid"). The split of name and breadcrumb
// is what lets "validate token" find validateToken; the whole identifier
// kept by Split lets a query naming validateToken rank it first.
//
// idents covers the chunk's own surface: name, signature, JSDoc and the
// embedding text, where children are collapsed to stubs. body stays empty:
// for a leaf the full source is the embedding text, and a container's
// collapsed children are chunks of their own, indexed for their own words.
// Indexing a container's whole source again made cold indexing about a
// sixth slower and did not change ranking (the rxjs JSDoc ranking test:
// Hit@5 0.42 with it, 0.41 without; MRR@10 0.36 both). The column is kept
// so the schema and weights need not move if that ever changes.
//
// idents is the terms of name, signature, JSDoc and embedding text as one
// text joined by line breaks; no identifier crosses a line break, so it is
// those parts' terms joined, each part split once, and the name, signature
// and JSDoc columns are pieces of it.
func (w *FullTextWriter) FullText(c *chunk.Chunk) FullText {
	var bounds [4]int // where each part's terms end in buf
	buf := w.buf[:0]
	for k, part := range [...]string{c.Name, c.Signature, c.JSDoc, c.EmbeddingText} {
		buf = w.j.Append(buf, part)
		bounds[k] = len(buf)
	}
	idents := string(buf)
	crumb := string(w.j.Append(buf[:0], c.Breadcrumb))
	w.buf = buf
	piece := func(k int) string {
		start := 0
		if k > 0 {
			start = bounds[k-1]
		}
		if start == bounds[k] {
			return ""
		}
		if start > 0 {
			start++ // the space before the part's first term
		}
		return idents[start:bounds[k]]
	}
	body := ""
	return FullText{
		piece(0),
		crumb,
		piece(1),
		piece(2),
		body,
		idents,
	}
}
