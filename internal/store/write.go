package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/sqlitedb"
)

// ChunkSig is what the indexer needs of a replaced chunk to detect signature
// changes.
type ChunkSig struct {
	ID         string
	Breadcrumb string
	Name       string
	Signature  string
}

// ReplaceFile stores a file's new chunks in place of its old ones, in one
// transaction: the old chunks go with their full-text rows and vectors, the
// new ones are inserted (marked as needing embedding), and the file record
// is upserted. It returns the old chunks' signatures, in line order.
//
// A chunk's RelativePath must be rec.Path or empty (then rec.Path is stored).
func (s *Store) ReplaceFile(rec chunkindex.FileRecord, chunks []chunk.Chunk) ([]ChunkSig, error) {
	return s.ReplaceFilePrepared(rec, chunks, nil)
}

// Prepared is what a file's chunks are stored as beyond their own fields:
// full-text columns and compressed sources. Splitting, stemming and
// compressing cost as much as writing; callers that index many files
// compute them with Prepare on their worker goroutines, keeping the single
// writer free for SQLite.
type Prepared struct {
	fullText []chunkindex.FullText
	source   [][]byte // compressed full source, nil where stored as text or in blocks
	text     [][]byte // compressed embedding text, nil where stored as text or NULL
	spans    []span   // where each source lies in blocks
	blocks   [][]byte // the file's text in compressed blocks, nil where no chunk lies
}

// Prepare computes the stored forms of a file's chunks, given without the
// file's text: their sources are stored as ranges of a text made of the
// sources themselves, each child found in its parent's (see layout).
func Prepare(chunks []chunk.Chunk) *Prepared {
	return PrepareFile(chunks, nil)
}

// PrepareFile is Prepare for chunks cut from text, the file's text, by
// chunk.File: their sources are stored as ranges of it. A source not found
// where its start line begins is stored whole. text is not kept.
func PrepareFile(chunks []chunk.Chunk, text []byte) *Prepared {
	return PrepareFileLines(chunks, text, nil)
}

// PrepareFileLines is PrepareFile given starts, lines.Starts(text) (which
// the parser computed already; nil: computed here).
func PrepareFileLines(chunks []chunk.Chunk, text []byte, starts []int) *Prepared {
	p := &Prepared{fullText: make([]chunkindex.FullText, len(chunks)), source: make([][]byte, len(chunks)), text: make([][]byte, len(chunks))}
	var blocks [][]byte
	blocks, p.spans = layout(chunks, text, starts)
	p.blocks = make([][]byte, len(blocks))
	for b, t := range blocks {
		if t != nil {
			p.blocks[b] = deflateBlock(t)
		}
	}
	w := chunkindex.AcquireWriter()
	defer chunkindex.ReleaseWriter(w)
	for i := range chunks {
		c := &chunks[i]
		p.fullText[i] = w.FullText(c)
		// A leaf's source is its embedding text too, which SQL reads
		// (embedding_text is NULL then): it is stored plain when not in
		// blocks. A container's texts are compressed.
		if c.EmbeddingText != c.FullSource {
			p.text[i] = compressText(c.EmbeddingText)
			if p.spans[i].block < 0 {
				p.source[i] = compressText(c.FullSource)
			}
		}
	}
	return p
}

// ReplaceFilePrepared is ReplaceFile with the chunks' stored forms already
// computed by Prepare (nil: computed here).
func (s *Store) ReplaceFilePrepared(rec chunkindex.FileRecord, chunks []chunk.Chunk, prep *Prepared) ([]ChunkSig, error) {
	b, err := s.Begin()
	if err != nil {
		return nil, fmt.Errorf("store: replace %s: %w", rec.Path, err)
	}
	old, err := b.ReplaceFile(rec, chunks, prep)
	if err != nil {
		b.Rollback()
		return nil, err
	}
	if err := b.Commit(); err != nil {
		return nil, fmt.Errorf("store: replace %s: %w", rec.Path, err)
	}
	return old, nil
}

// Batch is one write transaction over many files. A cold index of
// thousands of files committed one file at a time spent about a fifth of
// its CPU time committing (each commit appends every page it touched to
// the write-ahead log again); a batch pays that once. It is all or
// nothing: a crash or an error loses the whole batch, and the files in it
// keep their old records (or none), so the next sync indexes them again.
//
// A batch holds this process's write lock until Commit or Rollback.
type Batch struct {
	s      *Store
	ctx    context.Context
	conn   *sql.Conn
	tx     *sql.Tx
	rows   inserter // the chunk, full-text and source inserts
	files  int
	nextID int64 // the id the batch's next new file takes; 0 until read
}

// batchCacheKiB is the page cache of a batch's connection. With SQLite's
// default of 2 MB a batch of a few hundred files evicted the pages of the
// indexes it was still inserting into and read them back. Measured on the
// speed corpus: 8 MB cost the same CPU as 32 MB (14.6 and 14.4 s) with a
// peak RSS of 174 MB instead of 242 MB. The connection returns to the
// default when the batch ends, so readers stay small.
const (
	batchCacheKiB   = 8 << 10
	defaultCacheKiB = 2000 // SQLite's own default
)

// Begin starts a batch.
func (s *Store) Begin() (*Batch, error) {
	s.wmu.Lock()
	b := &Batch{s: s, ctx: context.Background()}
	var err error
	if b.conn, err = s.db.Conn(b.ctx); err != nil {
		b.end()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	if _, err = b.conn.ExecContext(b.ctx, fmt.Sprintf("PRAGMA cache_size = -%d", batchCacheKiB)); err != nil {
		b.end()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	if b.tx, err = b.conn.BeginTx(b.ctx, nil); err != nil {
		b.end()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return b, nil
}

// Files is the number of files the batch has written.
func (b *Batch) Files() int { return b.files }

// Commit makes the batch's writes durable and ends it.
func (b *Batch) Commit() error {
	defer b.end()
	b.closeStmts()
	if err := b.tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	b.s.commits.Add(1)
	return nil
}

// Rollback drops the batch's writes and ends it.
func (b *Batch) Rollback() {
	defer b.end()
	b.closeStmts()
	b.tx.Rollback()
}

func (b *Batch) end() {
	if b.conn != nil {
		// Shrinking the cache frees its pages; a connection that cannot
		// run a pragma is broken and is dropped rather than pooled.
		if _, err := b.conn.ExecContext(b.ctx, fmt.Sprintf("PRAGMA cache_size = -%d", defaultCacheKiB)); err != nil {
			b.conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		b.conn.Close()
		b.conn = nil
	}
	if b.s != nil {
		b.s.wmu.Unlock()
		b.s = nil
	}
}

func (b *Batch) closeStmts() {
	if b.rows != nil {
		b.rows.Close()
		b.rows = nil
	}
}

// The inserts a batch runs for every chunk and source block, in the order
// inserter numbers them.
const (
	insChunk = iota
	insFullText
	insSource
)

var insertSQL = []string{insChunk: insertChunkSQL, insFullText: insertFullTextSQL, insSource: insertSourceSQL}

// inserter runs the inserts: a sqlitedb.Bulk where the build has one (a
// call into C per row instead of one per argument), database/sql
// statements otherwise.
type inserter interface {
	Exec(k int, args ...any) error
	Close() error
}

// useBulk is false in tests that compare the two ways of inserting.
var useBulk = true

func newInserter(ctx context.Context, tx *sql.Tx) (inserter, error) {
	if useBulk {
		bulk, err := sqlitedb.OpenBulk(ctx, tx, insertSQL...)
		if err != nil {
			return nil, err
		}
		if bulk != nil {
			return bulk, nil
		}
	}
	st := &stmts{ctx: ctx}
	for _, q := range insertSQL {
		s, err := tx.PrepareContext(ctx, q)
		if err != nil {
			st.Close()
			return nil, err
		}
		st.list = append(st.list, s)
	}
	return st, nil
}

// stmts is inserter through database/sql.
type stmts struct {
	ctx  context.Context
	list []*sql.Stmt
}

func (s *stmts) Exec(k int, args ...any) error {
	_, err := s.list[k].ExecContext(s.ctx, args...)
	return err
}

func (s *stmts) Close() error {
	for _, st := range s.list {
		st.Close()
	}
	return nil
}

// ReplaceFile is Store.ReplaceFilePrepared inside the batch. After an error
// the batch must be rolled back.
func (b *Batch) ReplaceFile(rec chunkindex.FileRecord, chunks []chunk.Chunk, prep *Prepared) ([]ChunkSig, error) {
	if prep == nil {
		prep = Prepare(chunks)
	}
	if len(prep.fullText) != len(chunks) || len(prep.spans) != len(chunks) || len(prep.text) != len(chunks) {
		return nil, fmt.Errorf("store: replace %s: %d prepared rows for %d chunks", rec.Path, len(prep.fullText), len(chunks))
	}
	if err := checkRelPath(rec.Path); err != nil {
		return nil, fmt.Errorf("store: replace %s: %w", rec.Path, err)
	}
	for i := range chunks {
		if rp := chunks[i].RelativePath; rp != "" && rp != rec.Path {
			return nil, fmt.Errorf("store: replace %s: chunk %s has relative path %q",
				rec.Path, chunks[i].ID, rp)
		}
	}
	if rec.IndexedAt == 0 {
		rec.IndexedAt = time.Now().UnixNano()
	}
	if len(chunks) >= 1<<chunkBits || len(prep.blocks) >= 1<<chunkBits {
		return nil, fmt.Errorf("store: replace %s: %d chunks and %d blocks in one file", rec.Path, len(chunks), len(prep.blocks))
	}
	old, err := b.replace(rec, chunks, prep)
	if err != nil {
		return nil, fmt.Errorf("store: replace %s: %w", rec.Path, err)
	}
	b.files++
	return old, nil
}

func (b *Batch) replace(rec chunkindex.FileRecord, chunks []chunk.Chunk, prep *Prepared) ([]ChunkSig, error) {
	ctx, tx := b.ctx, b.tx
	// A file keeps its id across replacements (a new one takes the next
	// free id) and moves to its next generation. This is a read and a
	// plain insert or update rather than one upsert: a statement that may
	// write more than one row opens a statement savepoint, and at every
	// savepoint FTS5 flushes what it holds in memory into a new segment,
	// so an upsert per file made the batch's full-text rows one small
	// segment per file again, and their merging a twentieth of a cold
	// index's CPU time.
	filePath, ordered := filePathOf(chunks), inLineOrder(chunks)
	imports, importPos := fileImports(chunks)
	var fileID, gen int64
	var old []ChunkSig
	err := tx.QueryRowContext(ctx, `SELECT id, generation FROM files WHERE path = ?`, rec.Path).Scan(&fileID, &gen)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if b.nextID == 0 {
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM files`).Scan(&b.nextID); err != nil {
				return nil, err
			}
		}
		fileID, gen = b.nextID, 0
		if rec.ID != 0 {
			if rec.ID < 0 || rec.ID > maxFileID {
				return nil, fmt.Errorf("file id %d out of range", rec.ID)
			}
			fileID = rec.ID // the UNIQUE constraint refuses one in use
		}
		b.nextID = max(b.nextID, fileID+1)
		if _, err := tx.ExecContext(ctx, `INSERT INTO files(path, id, generation, mtime, size, content_hash, language,
			indexed_at, file_path, line_ordered, imports)
			VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
			rec.Path, fileID, rec.Mtime, rec.Size, rec.ContentHash, rec.Language, rec.IndexedAt, filePath, ordered,
			importList(imports)); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		var rows []fullTextRow
		if old, rows, err = oldChunks(ctx, tx, fileID, rec.Path); err != nil {
			return nil, err
		}
		// The full-text rows go first, while the chunks they are
		// recomputed from are there (fulltext_delete.go); the vectors go
		// by foreign-key cascade. A file has source blocks only while it
		// has chunks.
		if len(old) > 0 {
			lo, hi := fileID<<fileShift, fileID<<fileShift|(1<<fileShift-1)
			if err := deleteFullText(ctx, tx, rows); err != nil {
				return nil, err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM chunks WHERE seq BETWEEN ? AND ?`, lo, hi); err != nil {
				return nil, err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM sources WHERE key BETWEEN ? AND ?`, lo, hi); err != nil {
				return nil, err
			}
		}
		gen++
		if _, err := tx.ExecContext(ctx, `UPDATE files SET mtime = ?, size = ?, content_hash = ?, language = ?,
			indexed_at = ?, generation = ?, file_path = ?, line_ordered = ?, imports = ? WHERE id = ?`,
			rec.Mtime, rec.Size, rec.ContentHash, rec.Language, rec.IndexedAt, gen, filePath, ordered,
			importList(imports), fileID); err != nil {
			return nil, err
		}
	}
	if fileID > maxFileID {
		return nil, fmt.Errorf("file id %d out of range", fileID)
	}
	if len(chunks) == 0 {
		return old, nil
	}
	if b.rows == nil {
		if b.rows, err = newInserter(ctx, tx); err != nil {
			return nil, err
		}
	}
	base := fileID<<fileShift | (gen&genMask)<<chunkBits
	for k, z := range prep.blocks {
		if z != nil {
			if err := b.rows.Exec(insSource, base|int64(k), z); err != nil {
				return nil, fmt.Errorf("source block %d: %w", k, err)
			}
		}
	}
	return old, insertChunks(b.rows, base, rec, filePath, importPos, chunks, prep)
}

// checkRelPath rejects paths that are not clean, relative and slash
// separated: a second spelling of one file would index it twice.
func checkRelPath(p string) error {
	switch {
	case p == "" || p == ".":
		return fmt.Errorf("empty path")
	case strings.HasPrefix(p, "/"), p == "..", strings.HasPrefix(p, "../"):
		return fmt.Errorf("path %q is not relative to the root", p)
	case strings.Contains(p, `\`), path.Clean(p) != p:
		return fmt.Errorf("path %q is not clean and slash-separated", p)
	}
	return nil
}

const (
	insertChunkSQL = `INSERT INTO chunks(
		seq, id, start_line, end_line, depth, node_kind, name, assigned_name, parent_name,
		parent_chunk_id, exported, needs_embedding, src_block, src_last, src_off, src_len, file_path,
		breadcrumb, child_chunk_ids, modifiers, relevant_imports, signature, jsdoc,
		embedding_text, full_source)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	insertFullTextSQL = `INSERT INTO chunks_fts(rowid, name, breadcrumb, signature, jsdoc, body, idents)
		VALUES (?, ?, ?, ?, ?, ?, ?)`
	insertSourceSQL = `INSERT INTO sources(key, data) VALUES (?, ?)`
)

// insertChunks inserts chunks with seq base+ordinal (see fileShift).
// filePath is the absolute path the file's row keeps (filePathOf), and
// importPos the positions of its import statements (fileImports).
func insertChunks(rows inserter, base int64, rec chunkindex.FileRecord, filePath string,
	importPos map[string]int, chunks []chunk.Chunk, prep *Prepared) error {
	for i := range chunks {
		c := &chunks[i]
		seq := base | int64(i)
		var source, block, last, off, n any = c.FullSource, nil, nil, nil, nil
		if z := prep.source[i]; z != nil {
			source = z
		}
		if sp := prep.spans[i]; sp.block >= 0 {
			source, block, off, n = nil, sp.block, sp.off, sp.n
			if sp.last != sp.block {
				last = sp.last
			}
		}
		err := rows.Exec(insChunk,
			seq, c.ID, c.StartLine, c.EndLine, c.Depth, c.NodeKind, c.Name, assignedName(c.Name), c.ParentName,
			c.ParentChunkID, c.Exported, block, last, off, n, storedFilePath(c.FilePath, filePath),
			encodeBreadcrumb(c.Breadcrumb, rec.Path, c.ParentName, c.Name), jsonList(c.ChildChunkIDs), jsonList(c.Modifiers), importRefs(c.RelevantImports, importPos),
			encodeSignature(c.Signature, c.EmbeddingText), c.JSDoc, embeddingText(c, prep.text[i]), source)
		if err != nil {
			return fmt.Errorf("chunk %s: %w", c.ID, err)
		}
		f := prep.fullText[i]
		if err := rows.Exec(insFullText, seq, f[0], f[1], f[2], f[3], f[4], f[5]); err != nil {
			return fmt.Errorf("chunk %s: full-text row: %w", c.ID, err)
		}
	}
	return nil
}

// assignedName is the assigned_name column: NULL for the names that are not
// dotted paths, which keeps its index to the few that are.
func assignedName(name string) any {
	if a := ident.Assigned(name); a != "" {
		return a
	}
	return nil
}

// embeddingText is the stored form: NULL stands for "same as full_source".
// z, when not nil, is its compressed form.
func embeddingText(c *chunk.Chunk, z []byte) any {
	switch {
	case c.EmbeddingText == c.FullSource:
		return nil
	case z != nil:
		return z
	}
	return c.EmbeddingText
}

func jsonList(v []string) string {
	if len(v) == 0 {
		return "[]"
	}
	b, err := json.Marshal(v)
	if err != nil {
		// json.Marshal of a []string cannot fail.
		panic(err)
	}
	return string(b)
}

// TouchFile records a new mtime for a file whose content hash did not
// change, so the next sync skips it without re-parsing.
func (s *Store) TouchFile(p string, mtime int64) error {
	b, err := s.Begin()
	if err != nil {
		return fmt.Errorf("store: touch %s: %w", p, err)
	}
	if err := b.TouchFile(p, mtime); err != nil {
		b.Rollback()
		return err
	}
	if err := b.Commit(); err != nil {
		return fmt.Errorf("store: touch %s: %w", p, err)
	}
	return nil
}

// TouchFile is Store.TouchFile inside the batch.
func (b *Batch) TouchFile(p string, mtime int64) error {
	err := func() error {
		res, err := b.tx.ExecContext(b.ctx, `UPDATE files SET mtime = ? WHERE path = ?`, mtime, p)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return chunkindex.ErrNotFound
		}
		return nil
	}()
	if err != nil {
		return fmt.Errorf("store: touch %s: %w", p, err)
	}
	b.files++
	return nil
}

// DeleteFile removes a file with its chunks, their full-text rows and
// vectors. Deleting an unknown file is not an error.
func (s *Store) DeleteFile(p string) error {
	err := s.write(func(ctx context.Context, tx *sql.Tx) error {
		var fileID int64
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM files WHERE path = ?`, p).Scan(&fileID); {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err != nil:
			return err
		}
		// Full-text rows, then chunks, explicitly rather than leaning on
		// the cascade, in the order of ReplaceFile.
		_, rows, err := oldChunks(ctx, tx, fileID, p)
		if err != nil {
			return err
		}
		if err := deleteFullText(ctx, tx, rows); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM chunks WHERE `+inFile("seq"), p, p); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sources WHERE `+inFile("key"), p, p); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM files WHERE path = ?`, p)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: delete %s: %w", p, err)
	}
	return nil
}

// deleteBatch is how many files DeleteFiles removes per transaction: the
// indexer's batch size, so a removal holds the write lock no longer than
// an indexing batch does.
const deleteBatch = 1024

// DeleteFiles removes files as DeleteFile does, many per transaction, and
// returns the signatures their chunks had (for the signature cascade).
// Removing 100,000 files one transaction each, after a read of each file's
// chunks, held the next question for a minute; here the cost is the rows
// removed, and a commit per deleteBatch files. Unknown paths are skipped.
func (s *Store) DeleteFiles(paths []string) ([]ChunkSig, error) {
	var sigs []ChunkSig
	for len(paths) > 0 {
		n := min(len(paths), deleteBatch)
		part := paths[:n]
		paths = paths[n:]
		err := s.write(func(ctx context.Context, tx *sql.Tx) error {
			// Prepared once for the batch: preparing them for each file
			// was a third of the removal's time.
			byPath, err := tx.PrepareContext(ctx, `SELECT id FROM files WHERE path = ?`)
			if err != nil {
				return err
			}
			defer byPath.Close()
			chunksOf, err := tx.PrepareContext(ctx, oldChunksSQL)
			if err != nil {
				return err
			}
			defer chunksOf.Close()
			query := func(args ...any) (*sql.Rows, error) { return chunksOf.QueryContext(ctx, args...) }
			var fts []fullTextRow
			var ids []int64
			for _, p := range part {
				var fileID int64
				switch err := byPath.QueryRowContext(ctx, p).Scan(&fileID); {
				case errors.Is(err, sql.ErrNoRows):
					continue
				case err != nil:
					return err
				}
				old, rows, err := oldChunksBy(ctx, query, fileID, p)
				if err != nil {
					return err
				}
				sigs = append(sigs, old...)
				fts = append(fts, rows...)
				ids = append(ids, fileID)
			}
			// Full-text rows first, while the chunks they came from are
			// there, as in ReplaceFile; then each file's chunks and source
			// blocks by their rowid range, and the file rows.
			if err := deleteFullText(ctx, tx, fts); err != nil {
				return err
			}
			for _, q := range []string{`DELETE FROM chunks WHERE seq BETWEEN ? AND ?`, `DELETE FROM sources WHERE key BETWEEN ? AND ?`} {
				st, err := tx.PrepareContext(ctx, q)
				if err != nil {
					return err
				}
				for _, id := range ids {
					if _, err := st.ExecContext(ctx, id<<fileShift, id<<fileShift|(1<<fileShift-1)); err != nil {
						st.Close()
						return err
					}
				}
				st.Close()
			}
			st, err := tx.PrepareContext(ctx, `DELETE FROM files WHERE id = ?`)
			if err != nil {
				return err
			}
			defer st.Close()
			for _, id := range ids {
				if _, err := st.ExecContext(ctx, id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return sigs, fmt.Errorf("store: delete %d files: %w", len(part), err)
		}
	}
	return sigs, nil
}

// MarkNeedsEmbedding flags chunks for (re-)embedding, e.g. the neighbours of
// a chunk whose signature changed. Unknown ids are ignored.
func (s *Store) MarkNeedsEmbedding(ids []string) error {
	if err := s.setNeedsEmbedding(ids, 1); err != nil {
		return fmt.Errorf("store: mark needs embedding: %w", err)
	}
	return nil
}

// ClearNeedsEmbedding unflags chunks once their vectors are stored.
func (s *Store) ClearNeedsEmbedding(ids []string) error {
	if err := s.setNeedsEmbedding(ids, 0); err != nil {
		return fmt.Errorf("store: clear needs embedding: %w", err)
	}
	return nil
}

func (s *Store) setNeedsEmbedding(ids []string, v int) error {
	if len(ids) == 0 {
		return nil
	}
	return s.write(func(ctx context.Context, tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `UPDATE chunks SET needs_embedding = ? WHERE id = ?`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, id := range ids {
			if _, err := st.ExecContext(ctx, v, id); err != nil {
				return fmt.Errorf("chunk %s: %w", id, err)
			}
		}
		return nil
	})
}

// NeedsEmbedding returns the ids of the chunks flagged for embedding, grouped
// by file in the order files were first indexed. New chunks start flagged.
func (s *Store) NeedsEmbedding() ([]string, error) {
	ids, err := s.queryStrings(`SELECT id FROM chunks WHERE needs_embedding = 1 ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("store: needs embedding: %w", err)
	}
	return ids, nil
}

func (s *Store) queryStrings(q string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, err
	}
	return collectRows(rows, func(r *sql.Rows) (string, error) {
		var v string
		err := r.Scan(&v)
		return v, err
	})
}
