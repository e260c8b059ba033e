package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/scry-dev/scry/internal/chunk"
)

// Full-text rows are deleted with FTS5's 'delete' command, given the
// values that were inserted, rather than by rowid from a contentless-delete
// table: such a table never takes a deleted row out of its BM25 statistics
// (the row count and each column's total size), so every re-indexed file
// counted again, and an index that had followed many edits ranked
// differently from a fresh index of the same files. The values are
// recomputed from the stored chunk, which reads back as it was written,
// through the same fullText as the insert.

const deleteFullTextSQL = `INSERT INTO chunks_fts(chunks_fts, rowid, name, breadcrumb, signature, jsdoc, body, idents)
	VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)`

// deleteFullText removes the full-text rows of the chunks with seq in
// [lo, hi], all of the file at path p; the chunks themselves stay.
func deleteFullText(ctx context.Context, tx *sql.Tx, lo, hi int64, p string) error {
	rows, err := tx.QueryContext(ctx, `SELECT c.seq, c.id, c.name, c.parent_name, c.breadcrumb, c.signature, c.jsdoc, `+textExpr+`
		FROM chunks c WHERE c.seq BETWEEN ? AND ?`, lo, hi)
	if err != nil {
		return fmt.Errorf("full-text rows to delete: %w", err)
	}
	type row struct {
		seq int64
		ft  FullText
	}
	var del []row
	w := ftsWriters.Get().(*ftsWriter)
	defer ftsWriters.Put(w)
	for rows.Next() {
		var seq int64
		var c chunk.Chunk
		var parent string
		var crumb, sig any
		var text sql.NullString
		if err := rows.Scan(&seq, &c.ID, &c.Name, &parent, &crumb, &sig, &c.JSDoc, &text); err != nil {
			rows.Close()
			return fmt.Errorf("full-text rows to delete: %w", err)
		}
		c.EmbeddingText = text.String
		if c.Signature, err = decodeSignature(sig, c.EmbeddingText); err != nil {
			rows.Close()
			return fmt.Errorf("chunk %s: %w", c.ID, err)
		}
		if c.Breadcrumb, err = decodeBreadcrumb(crumb, p, parent, c.Name); err != nil {
			rows.Close()
			return fmt.Errorf("chunk %s: %w", c.ID, err)
		}
		del = append(del, row{seq, w.fullText(&c)})
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("full-text rows to delete: %w", err)
	}
	if len(del) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, deleteFullTextSQL)
	if err != nil {
		return fmt.Errorf("delete full-text rows: %w", err)
	}
	defer st.Close()
	for _, d := range del {
		f := d.ft
		if _, err := st.ExecContext(ctx, d.seq, f[0], f[1], f[2], f[3], f[4], f[5]); err != nil {
			return fmt.Errorf("delete full-text row %d: %w", d.seq, err)
		}
	}
	return nil
}
