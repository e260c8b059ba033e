package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/terms"
)

// chunkCols are the columns scanChunk reads, for a chunks table aliased c
// joined to its file's row by fileJoin. The embedding text is read as
// stored, NULL where it is the source, which scanChunk then copies: the
// source is read once.
var chunkCols = chunkColumns(sourceExpr, "inflated(c.embedding_text)")

// lightCols read what ranking needs of a chunk and leave its full source
// empty: a ranker scores hundreds of candidates and shows a few, and the
// full text of large chunks is most of what reading them costs.
// ChunksByIDs fills in the rest for the few that are shown.
var lightCols = chunkColumns("''", fmt.Sprintf("substr(%s, 1, %d)", textExpr, chunkindex.LightText))

func chunkColumns(source, text string) string {
	return `c.id, coalesce(c.file_path, cf.file_path), cf.path, c.node_kind, c.name, c.parent_name,
	c.parent_chunk_id, c.child_chunk_ids, c.depth, c.signature, ` + source + `, c.start_line,
	c.end_line, c.jsdoc, c.relevant_imports, cf.imports, ` + text + `, c.breadcrumb, c.exported,
	c.modifiers`
}

// ChunksByIDs returns the chunks with these ids in full, keyed by id;
// missing ids are left out.
func (s *Store) ChunksByIDs(ids []string) (map[string]chunk.Chunk, error) {
	out := make(map[string]chunk.Chunk, len(ids))
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		cs, err := s.queryChunks(`SELECT `+chunkCols+` FROM chunks c`+fileJoin+` WHERE c.id IN (`+placeholders(len(part))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: chunks by id: %w", err)
		}
		for _, c := range cs {
			out[c.ID] = c
		}
	}
	return out, nil
}

// TopLevelDefinitions returns, light (see lightCols), up to limit chunks of
// a file at depth 0 or 1 whose kind is one of kinds, in line order.
func (s *Store) TopLevelDefinitions(path string, kinds []string, limit int) ([]chunk.Chunk, error) {
	args := []any{path, path}
	for _, k := range kinds {
		args = append(args, k)
	}
	out, err := s.inLineOrder(`SELECT `+lightCols+`, cf.line_ordered FROM chunks c`+fileJoin+` WHERE `+inFile("c.seq")+`
		AND c.depth <= 1 AND c.node_kind IN (`+placeholders(len(kinds))+`) ORDER BY c.seq`, limit, args...)
	if err != nil {
		return nil, fmt.Errorf("store: definitions of %s: %w", path, err)
	}
	return out, nil
}

// inLineOrder runs a query of one file's chunks in seq order (chunkCols or
// lightCols, then the file's line_ordered) and returns them in line order
// (start line, depth, seq), at most limit of them (limit < 0: all). There
// is no index by line: the chunks of a file whose seq order is its line
// order, nearly every file, are read up to the limit and no further;
// another file's are all read and sorted.
func (s *Store) inLineOrder(q string, limit int, args ...any) ([]chunk.Chunk, error) {
	rows, err := s.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []chunk.Chunk
	ordered := true
	for (limit < 0 || !ordered || len(out) < limit) && rows.Next() {
		c, err := scanChunk(rows, &ordered)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !ordered {
		// Rows came in seq order, so a stable sort breaks ties by seq.
		slices.SortStableFunc(out, func(a, b chunk.Chunk) int {
			return cmp.Or(cmp.Compare(a.StartLine, b.StartLine), cmp.Compare(a.Depth, b.Depth))
		})
		if limit >= 0 && len(out) > limit {
			out = out[:limit]
		}
	}
	return out, nil
}

type scanner interface{ Scan(dest ...any) error }

func scanChunk(sc scanner, extra ...any) (chunk.Chunk, error) {
	var c chunk.Chunk
	var children, modifiers string
	var imports, fileImports []byte
	var crumb, sig any
	var text sql.NullString
	dest := append([]any{&c.ID, &c.FilePath, &c.RelativePath, &c.NodeKind, &c.Name, &c.ParentName,
		&c.ParentChunkID, &children, &c.Depth, &sig, sourceText{&c.FullSource}, &c.StartLine,
		&c.EndLine, &c.JSDoc, &imports, &fileImports, &text, &crumb, &c.Exported,
		&modifiers}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return c, err
	}
	c.EmbeddingText = text.String
	if !text.Valid {
		c.EmbeddingText = c.FullSource
	}
	var err error
	if c.Signature, err = decodeSignature(sig, c.EmbeddingText); err != nil {
		return c, fmt.Errorf("chunk %s: %w", c.ID, err)
	}
	if c.Breadcrumb, err = decodeBreadcrumb(crumb, c.RelativePath, c.ParentName, c.Name); err != nil {
		return c, fmt.Errorf("chunk %s: %w", c.ID, err)
	}
	if c.ChildChunkIDs, err = parseList(children); err != nil {
		return c, fmt.Errorf("chunk %s: child ids: %w", c.ID, err)
	}
	if c.RelevantImports, err = decodeImports(imports, fileImports); err != nil {
		return c, fmt.Errorf("chunk %s: imports: %w", c.ID, err)
	}
	if c.Modifiers, err = parseList(modifiers); err != nil {
		return c, fmt.Errorf("chunk %s: modifiers: %w", c.ID, err)
	}
	return c, nil
}

// parseList returns nil for an empty list, so a chunk reads back as it was
// written (the chunker leaves empty lists nil).
func parseList(s string) ([]string, error) {
	if s == "" || s == "[]" {
		return nil, nil
	}
	var v []string
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// collectRows reads each of rows with scan, in order, and closes rows. The
// first error, a row's or the one the rows end with, is returned as it is,
// for the caller to say what it was reading.
func collectRows[T any](rows *sql.Rows, scan func(*sql.Rows) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (s *Store) queryChunks(q string, args ...any) ([]chunk.Chunk, error) {
	rows, err := s.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, err
	}
	return collectRows(rows, func(r *sql.Rows) (chunk.Chunk, error) { return scanChunk(r) })
}

// Chunk returns one chunk by id; the error wraps chunkindex.ErrNotFound when it does
// not exist.
func (s *Store) Chunk(id string) (chunk.Chunk, error) {
	row := s.db.QueryRowContext(context.Background(), `SELECT `+chunkCols+` FROM chunks c`+fileJoin+` WHERE c.id = ?`, id)
	c, err := scanChunk(row)
	if errors.Is(err, sql.ErrNoRows) {
		err = chunkindex.ErrNotFound
	}
	if err != nil {
		return chunk.Chunk{}, fmt.Errorf("store: chunk %s: %w", id, err)
	}
	return c, nil
}

// ChunksByFile returns a file's chunks ordered by start line, then depth
// (a parent before the children that start on its line).
func (s *Store) ChunksByFile(p string) ([]chunk.Chunk, error) {
	out, err := s.inLineOrder(`SELECT `+chunkCols+`, cf.line_ordered FROM chunks c`+fileJoin+` WHERE `+inFile("c.seq")+`
		ORDER BY c.seq`, -1, p, p)
	if err != nil {
		return nil, fmt.Errorf("store: chunks of %s: %w", p, err)
	}
	return out, nil
}

// ChunksByName returns the chunks whose name is exactly name (or that
// declare it as one of several variables, see nameIs), ordered by file and
// line.
func (s *Store) ChunksByName(name string) ([]chunk.Chunk, error) {
	where, args := nameIs(name)
	out, err := s.queryChunks(`SELECT `+chunkCols+` FROM chunks c`+fileJoin+` WHERE `+where+`
		ORDER BY cf.path, c.start_line, c.depth, c.seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: chunks named %s: %w", name, err)
	}
	return asDeclarator(out, name), nil
}

// nameIs is the SQL condition (over chunks c) for a chunk named name. A
// statement declaring several variables (`export const A = 1, B = 2`) is
// one chunk named "A, B", and so are declarations sharing a line
// (`export const a = 1; export function f() {}`, a "statement" named
// "a, f", since siblings never share a line); each of its declarators is
// found by its own name too. The second branch scans only the name index
// (a covering scan, names and row ids), and only names holding ", " can
// match.
func nameIs(name string) (string, []any) {
	if name == "" || strings.Contains(name, ", ") {
		return "c.name = ?", []any{name}
	}
	return `(c.name = ? OR (c.seq IN (SELECT seq FROM chunks INDEXED BY chunks_by_name
		WHERE instr(name, ', ') > 0 AND instr(', ' || name || ', ', ', ' || ? || ', ') > 0)
		AND c.node_kind IN (` + multiKinds + `)))`, []any{name, name}
}

// asDeclarator names each shared multi-declarator chunk found by one of its
// names after that name (its lines, source and id stay the chunk's), so
// that what is asked about it next — its position for the compiler, its
// references — is about that declarator, not the statement's first.
func asDeclarator(cs []chunk.Chunk, name string) []chunk.Chunk {
	for i := range cs {
		c := &cs[i]
		if c.Name == name || !strings.Contains(c.Name, ", ") {
			continue
		}
		if strings.HasSuffix(c.Breadcrumb, " > "+c.Name) {
			c.Breadcrumb = strings.TrimSuffix(c.Breadcrumb, c.Name) + name
		}
		c.Name = name
		if c.NodeKind == "statement" {
			c.NodeKind = declaratorKind(c.FullSource, name)
		}
	}
	return cs
}

// multiKinds are the kinds of a chunk whose name lists several declared
// names: one statement's declarators, or declarations sharing a line.
const multiKinds = `'const', 'variable', 'statement'`

// declaratorKeyword finds the keyword that declares a name in a line of
// several declarations.
var declaratorKeyword = regexp.MustCompile(`\b(function\s*\*?|class|interface|type|enum|namespace|module|const|let|var)\s+([\p{L}\p{N}_$]+)`)

// declaratorKind is the kind of the declaration of name in the source of
// declarations sharing a line: the keyword written before it, else
// "variable" (a later declarator of `const a = 1, b = 2`).
func declaratorKind(src, name string) string {
	for _, m := range declaratorKeyword.FindAllStringSubmatch(src, -1) {
		if m[2] != name {
			continue
		}
		switch kw := strings.TrimSpace(strings.TrimSuffix(m[1], "*")); kw {
		case "let", "var":
			return "variable"
		default:
			return kw
		}
	}
	return "variable"
}

// Files returns every file record keyed by path, for sync diffing.
func (s *Store) Files() (map[string]chunkindex.FileRecord, error) {
	list, err := s.files()
	if err != nil {
		return nil, fmt.Errorf("store: files: %w", err)
	}
	out := make(map[string]chunkindex.FileRecord, len(list))
	for _, f := range list {
		out[f.Path] = f
	}
	return out, nil
}

// AllFiles returns every file record ordered by path.
func (s *Store) AllFiles() ([]chunkindex.FileRecord, error) {
	list, err := s.files()
	if err != nil {
		return nil, fmt.Errorf("store: all files: %w", err)
	}
	return list, nil
}

func (s *Store) files() ([]chunkindex.FileRecord, error) {
	rows, err := s.db.QueryContext(context.Background(),
		`SELECT path, mtime, size, content_hash, language, indexed_at FROM files ORDER BY path`)
	if err != nil {
		return nil, err
	}
	return collectRows(rows, func(r *sql.Rows) (chunkindex.FileRecord, error) {
		var f chunkindex.FileRecord
		err := r.Scan(&f.Path, &f.Mtime, &f.Size, &f.ContentHash, &f.Language, &f.IndexedAt)
		return f, err
	})
}

// Stats counts files and chunks.
func (s *Store) Stats() (files, chunks int, err error) {
	err = s.db.QueryRowContext(context.Background(),
		`SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks)`).Scan(&files, &chunks)
	if err != nil {
		return 0, 0, fmt.Errorf("store: stats: %w", err)
	}
	return files, chunks, nil
}

// ChunksReferencing returns the ids of the chunks outside excludeFile whose
// embedding text contains name as a whole identifier (not as part of a
// longer one), in index order. The signature cascade uses it to find the
// chunks whose embedding mentions a symbol whose signature changed.
func (s *Store) ChunksReferencing(name, excludeFile string) ([]string, error) {
	return s.chunksReferencing(name, excludeFile, "")
}

// chunksReferencing is ChunksReferencing with an extra condition (over
// chunks c) on the chunks it returns.
func (s *Store) chunksReferencing(name, excludeFile, cond string) ([]string, error) {
	if name == "" {
		return nil, nil
	}
	var q string
	var args []any
	if ts := terms.Query(name); len(ts) > 0 {
		// Every term of the name is in the idents column of a chunk whose
		// embedding text contains it, so the AND of them is a sound
		// pre-filter; the boundary check below makes it exact.
		q = `SELECT c.id, ` + textExpr + ` FROM chunks_fts JOIN chunks c ON c.seq = chunks_fts.rowid
			WHERE chunks_fts MATCH ? AND ` + notInFile + cond + ` ORDER BY c.seq`
		args = []any{"idents : (" + ftsTerms(ts, " AND ") + ")", excludeFile}
	} else {
		// Names that yield no terms ("$", "_", "x") cannot use the index.
		q = `SELECT c.id, ` + textExpr + ` AS text FROM chunks c
			WHERE ` + notInFile + cond + ` AND instr(text, ?) > 0 ORDER BY c.seq`
		args = []any{excludeFile, name}
	}
	rows, err := s.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: chunks referencing %s: %w", name, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("store: chunks referencing %s: %w", name, err)
		}
		if containsIdent(text, name) {
			out = append(out, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: chunks referencing %s: %w", name, err)
	}
	return out, nil
}

// perNameReferences is how many names EmbeddedChunksReferencing looks up
// one full-text query each; more are found in one pass over the embedded
// chunks. A query per name costs the length of the name's terms' posting
// lists, and names such as fn1 … fn99999 share a term ("fn") every chunk
// holds: removing 100,000 such files cost 100,000 passes over the index.
const perNameReferences = 64

// EmbeddedChunksReferencing is ChunksReferencing for many names at once,
// limited to chunks that are embedded (the signature cascade marks those
// for re-embedding; the others are marked already). refs maps each name to
// the file whose chunks are left out for it. The ids come sorted, once
// each.
func (s *Store) EmbeddedChunksReferencing(refs map[string]string) ([]string, error) {
	var ids []string
	if len(refs) <= perNameReferences {
		for name, file := range refs {
			got, err := s.chunksReferencing(name, file, " AND c.needs_embedding = 0")
			if err != nil {
				return nil, err
			}
			ids = append(ids, got...)
		}
	} else {
		var err error
		if ids, err = s.scanReferences(refs); err != nil {
			return nil, fmt.Errorf("store: chunks referencing %d names: %w", len(refs), err)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// scanReferences reads each embedded chunk once and keeps those whose
// text names one of refs' names as a whole identifier, outside that name's
// file.
func (s *Store) scanReferences(refs map[string]string) ([]string, error) {
	ctx := context.Background()
	paths := map[int64]string{}
	rows, err := s.db.QueryContext(ctx, `SELECT id, path FROM files`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			rows.Close()
			return nil, err
		}
		paths[id] = p
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, `SELECT c.seq, c.id, `+textExpr+` FROM chunks c WHERE c.needs_embedding = 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var seq int64
		var id, text string
		if err := rows.Scan(&seq, &id, &text); err != nil {
			return nil, err
		}
		file := paths[seq>>fileShift]
		if namesAny(text, func(name string) bool {
			declared, ok := refs[name]
			return ok && declared != file
		}) {
			out = append(out, id)
		}
	}
	return out, rows.Err()
}

// namesAny reports whether match holds for one of the identifiers of text
// (runs of identifier characters, with a private name's "#" kept as well):
// the whole-identifier occurrences containsIdent finds, all at once.
func namesAny(text string, match func(string) bool) bool {
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if !ident.Part(r) {
			i += w
			continue
		}
		j := i + w
		for j < len(text) {
			r, w := utf8.DecodeRuneInString(text[j:])
			if !ident.Part(r) {
				break
			}
			j += w
		}
		if match(text[i:j]) || i > 0 && text[i-1] == '#' && match(text[i-1:j]) {
			return true
		}
		i = j
	}
	return false
}

// containsIdent reports whether name occurs in text with no identifier
// character right before or after it.
func containsIdent(text, name string) bool {
	for off := 0; ; {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(name)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if !ident.Part(before) && !ident.Part(after) {
			return true
		}
		off = start + 1
	}
}
