package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// Full-text rows are deleted with FTS5's 'delete' command, given the
// values that were inserted, rather than by rowid from a contentless-delete
// table: in SQLite 3.50.4, which the C build compiles, such a table does not
// take a deleted row out of its BM25 statistics (the row count and each
// column's total size; 3.54.1, the Go build's, does), so every re-indexed
// file counted again, and an index that had followed many edits ranked
// differently from a fresh index of the same files. The values are
// recomputed from the stored chunk, which reads back as it was written,
// through the same fullText as the insert.

const deleteFullTextSQL = `INSERT INTO chunks_fts(chunks_fts, rowid, name, breadcrumb, signature, jsdoc, body, idents)
	VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)`

// fullTextRow is a chunk's full-text row as it was inserted.
type fullTextRow struct {
	seq int64
	ft  chunkindex.FullText
}

// oldChunks reads, in one pass over the chunks of the file with id fileID
// and path p, what replacing or removing them needs: their signatures in
// line order (for the signature cascade) and their full-text rows.
func oldChunks(ctx context.Context, tx *sql.Tx, fileID int64, p string) ([]ChunkSig, []fullTextRow, error) {
	return oldChunksBy(ctx, func(args ...any) (*sql.Rows, error) { return tx.QueryContext(ctx, oldChunksSQL, args...) }, fileID, p)
}

// oldChunksSQL reads a file's chunks for oldChunks, given the bounds of its
// rowids.
var oldChunksSQL = `SELECT c.seq, c.id, c.name, c.parent_name, c.breadcrumb, c.signature, c.jsdoc, ` + textExpr + `
		FROM chunks c WHERE c.seq BETWEEN ? AND ? ORDER BY c.start_line, c.depth, c.seq`

// oldChunksBy is oldChunks through query, which runs oldChunksSQL (a
// statement prepared once for many files, say).
func oldChunksBy(ctx context.Context, query func(args ...any) (*sql.Rows, error), fileID int64, p string) ([]ChunkSig, []fullTextRow, error) {
	rows, err := query(fileID<<fileShift, fileID<<fileShift|(1<<fileShift-1))
	if err != nil {
		return nil, nil, fmt.Errorf("old chunks: %w", err)
	}
	defer rows.Close()
	w := chunkindex.AcquireWriter()
	defer chunkindex.ReleaseWriter(w)
	var sigs []ChunkSig
	var fts []fullTextRow
	for rows.Next() {
		var seq int64
		var c chunk.Chunk
		var parent string
		var crumb, sig any
		var text sql.NullString
		if err := rows.Scan(&seq, &c.ID, &c.Name, &parent, &crumb, &sig, &c.JSDoc, &text); err != nil {
			return nil, nil, fmt.Errorf("old chunks: %w", err)
		}
		c.EmbeddingText = text.String
		if c.Signature, err = decodeSignature(sig, c.EmbeddingText); err != nil {
			return nil, nil, fmt.Errorf("chunk %s: %w", c.ID, err)
		}
		if c.Breadcrumb, err = decodeBreadcrumb(crumb, p, parent, c.Name); err != nil {
			return nil, nil, fmt.Errorf("chunk %s: %w", c.ID, err)
		}
		sigs = append(sigs, ChunkSig{ID: c.ID, Breadcrumb: c.Breadcrumb, Name: c.Name, Signature: c.Signature})
		fts = append(fts, fullTextRow{seq, w.FullText(&c)})
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("old chunks: %w", err)
	}
	return sigs, fts, nil
}

// deleteFullText removes full-text rows, given as they were inserted; the
// chunks themselves stay.
func deleteFullText(ctx context.Context, tx *sql.Tx, rows []fullTextRow) error {
	if len(rows) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, deleteFullTextSQL)
	if err != nil {
		return fmt.Errorf("delete full-text rows: %w", err)
	}
	defer st.Close()
	for _, r := range rows {
		f := r.ft
		if _, err := st.ExecContext(ctx, r.seq, f[0], f[1], f[2], f[3], f[4], f[5]); err != nil {
			return fmt.Errorf("delete full-text row %d: %w", r.seq, err)
		}
	}
	return nil
}
