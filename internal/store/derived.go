package store

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// This file holds what a chunk row leaves out because its file's row or its
// own other columns already say it (see the schema's comment), and how
// reads put it back.

// fileJoin joins a chunk c to its file's row cf: the file's id is the high
// bits of the chunk's seq. CROSS JOIN keeps chunks the outer loop, since
// the join key is an expression of c that no index on chunks can drive
// from a files row.
var fileJoin = " CROSS JOIN files cf ON cf.id = c.seq >> " + strconv.Itoa(fileShift)

// inFile is the condition on a seq column for the chunks of the file whose
// path is given, twice, as its arguments: one seq range, which SQLite walks
// in the table itself. An unknown path yields NULL bounds, so no chunk.
func inFile(seq string) string {
	return fmt.Sprintf(`%[1]s BETWEEN (SELECT id << %[2]d FROM files WHERE path = ?)
	AND (SELECT (id << %[2]d) | %[3]d FROM files WHERE path = ?)`, seq, fileShift, int64(1)<<fileShift-1)
}

// notInFile is the condition (over chunks c) for the chunks outside the
// file whose path is its argument; every chunk when the file is unknown.
var notInFile = fmt.Sprintf(`(c.seq >> %d) IS NOT (SELECT id FROM files WHERE path = ?)`, fileShift)

// filePathOf is the absolute path kept on a file's row: its first chunk's
// (chunk.File gives every chunk of a file the same one).
func filePathOf(chunks []chunk.Chunk) string {
	if len(chunks) == 0 {
		return ""
	}
	return chunks[0].FilePath
}

// inLineOrder reports whether chunks, in the order they take their seqs,
// are already in line order (start line, then depth; seq breaks ties). A
// file's row records it so that reads in line order can walk its seq range
// and stop at a limit instead of sorting every chunk of a large file
// (chunk.File emits a parent before its children, in source order, so
// nearly every file is).
func inLineOrder(chunks []chunk.Chunk) bool {
	for i := 1; i < len(chunks); i++ {
		a, b := &chunks[i-1], &chunks[i]
		if a.StartLine > b.StartLine || a.StartLine == b.StartLine && a.Depth > b.Depth {
			return false
		}
	}
	return true
}

// storedFilePath is the chunks.file_path value for a chunk of a file whose
// row holds shared: NULL when they agree.
func storedFilePath(own, shared string) any {
	if own == shared {
		return nil
	}
	return own
}

// A breadcrumb is the relative path, the names of the chunk's ancestors and
// its own name joined by " > " (chunk.File builds it so), which the row
// already holds but for the ancestors above the parent. It is stored as:
//
//	NULL            path > name                (a top-level chunk)
//	'' (TEXT)       path > parent_name > name  (a parent's direct child)
//	mid (TEXT)      path > mid > name          (deeper chunks)
//	BLOB            the breadcrumb verbatim    (anything else)
//
// encodeBreadcrumb picks the first form that decodes back to b, so any
// breadcrumb round-trips whatever its shape.
func encodeBreadcrumb(b, rel, parent, name string) any {
	if b == rel+" > "+name {
		return nil
	}
	if b == rel+" > "+parent+" > "+name {
		return ""
	}
	pre, suf := rel+" > ", " > "+name
	if len(b) > len(pre)+len(suf) && strings.HasPrefix(b, pre) && strings.HasSuffix(b, suf) {
		if mid := b[len(pre) : len(b)-len(suf)]; mid != "" {
			return mid
		}
	}
	return []byte(b)
}

// decodeBreadcrumb inverts encodeBreadcrumb.
func decodeBreadcrumb(v any, rel, parent, name string) (string, error) {
	switch v := v.(type) {
	case nil:
		return rel + " > " + name, nil
	case string:
		if v == "" {
			return rel + " > " + parent + " > " + name, nil
		}
		return rel + " > " + v + " > " + name, nil
	case []byte:
		return string(v), nil
	}
	return "", fmt.Errorf("breadcrumb of type %T", v)
}

// A chunk's relevant imports are whole import statements of its file, the
// same few repeated in most of its chunks (a tenth of the chunks table's
// text once paths were gone). The file's row keeps each distinct statement
// once (importList), and a chunk the positions of its own in that list
// (importRefs).

// fileImports lists the distinct import statements of chunks, in the order
// they first appear, with each one's position.
func fileImports(chunks []chunk.Chunk) ([]string, map[string]int) {
	var list []string
	pos := map[string]int{}
	for i := range chunks {
		for _, s := range chunks[i].RelevantImports {
			if _, ok := pos[s]; !ok {
				pos[s] = len(list)
				list = append(list, s)
			}
		}
	}
	return list, pos
}

// importList is the files.imports value: each statement as a uvarint
// length and its bytes (statements may hold any byte, so no separator).
func importList(list []string) []byte {
	var b []byte
	for _, s := range list {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// importRefs is the chunks.relevant_imports value: NULL for none, else
// the statements' positions in the file's list as uvarints.
func importRefs(imports []string, pos map[string]int) any {
	if len(imports) == 0 {
		return nil
	}
	var b []byte
	for _, s := range imports {
		b = binary.AppendUvarint(b, uint64(pos[s]))
	}
	return b
}

// decodeImports inverts importRefs over the file's importList. A chunk
// without imports reads back nil, as the chunker leaves it.
func decodeImports(refs, list []byte) ([]string, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	var out []string
	for len(refs) > 0 {
		k, n := binary.Uvarint(refs)
		if n <= 0 {
			return nil, fmt.Errorf("bad import reference")
		}
		refs = refs[n:]
		s, ok := nthImport(list, k)
		if !ok {
			return nil, fmt.Errorf("import %d not in the file's list", k)
		}
		out = append(out, s)
	}
	return out, nil
}

// nthImport returns the k-th statement of an importList.
func nthImport(list []byte, k uint64) (string, bool) {
	for {
		l, n := binary.Uvarint(list)
		if n <= 0 || uint64(len(list)-n) < l {
			return "", false
		}
		if k == 0 {
			return string(list[n : n+int(l)]), true
		}
		list = list[n+int(l):]
		k--
	}
}

// A signature is most often the declaration's first line as written, which
// the chunk's embedding text (its source, for a leaf) begins with; those
// were 5.6 of the 9 MB of signatures of the speed corpus. Such a signature
// is stored as its place in that text, an INTEGER offset<<sigLenBits |
// length, and any other as TEXT (the column has no type affinity, so
// neither is converted). Only the first chunkindex.LightText bytes are searched, which
// a light read's text always holds (chunkindex.LightText characters).
const sigLenBits = 16

// encodeSignature is the chunks.signature value of sig, the signature of a
// chunk whose embedding text is text.
func encodeSignature(sig, text string) any {
	if sig == "" || len(sig) >= 1<<sigLenBits {
		return sig
	}
	if k := strings.Index(text[:min(len(text), chunkindex.LightText)], sig); k >= 0 {
		return int64(k)<<sigLenBits | int64(len(sig))
	}
	return sig
}

// decodeSignature inverts encodeSignature, given the chunk's embedding
// text or, for a light read, its first chunkindex.LightText characters.
func decodeSignature(v any, text string) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case int64:
		off, n := v>>sigLenBits, v&(1<<sigLenBits-1)
		if off < 0 || off+n > int64(len(text)) {
			return "", fmt.Errorf("signature at %d (%d bytes) of a text of %d", off, n, len(text))
		}
		return text[off : off+n], nil
	}
	return "", fmt.Errorf("signature of type %T", v)
}
