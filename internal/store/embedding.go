package store

import (
	"context"
	"database/sql"
	"fmt"
)

// This file holds the queries the embedding side of scry needs: which
// chunks still need a vector under a model, storing vectors while clearing
// the marks, and the candidate ids for filtered vector search.

// EmbedInput is a chunk waiting for a vector.
type EmbedInput struct {
	Seq  int64
	ID   string
	Text string // the embedding text (full source where they are equal)
}

// pendingWhere selects chunks marked for (re-)embedding — new ones and
// those the signature cascade marked — and chunks with no vector under the
// model (the embedder was switched, or an earlier run was interrupted).
const pendingWhere = `(c.needs_embedding = 1 OR NOT EXISTS (
	SELECT 1 FROM vectors v WHERE v.chunk_id = c.id AND v.model = ?))`

// PendingEmbeddings returns up to limit chunks after seq afterSeq (in
// index order) that need a vector under model; page with the last Seq.
func (s *Store) PendingEmbeddings(model string, afterSeq int64, limit int) ([]EmbedInput, error) {
	rows, err := s.db.QueryContext(context.Background(),
		`SELECT c.seq, c.id, `+textExpr+` FROM chunks c
		WHERE c.seq > ? AND `+pendingWhere+` ORDER BY c.seq LIMIT ?`, afterSeq, model, limit)
	if err != nil {
		return nil, fmt.Errorf("store: pending embeddings (%s): %w", model, err)
	}
	out, err := collectRows(rows, func(r *sql.Rows) (EmbedInput, error) {
		var e EmbedInput
		err := r.Scan(&e.Seq, &e.ID, &e.Text)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: pending embeddings (%s): %w", model, err)
	}
	return out, nil
}

// CountPendingEmbeddings counts the chunks PendingEmbeddings would return.
func (s *Store) CountPendingEmbeddings(model string) (int, error) {
	return s.countFor(model, "count pending embeddings", `SELECT count(*) FROM chunks c WHERE `+pendingWhere)
}

// countFor runs query, a count whose one argument is model; what names it
// in the error.
func (s *Store) countFor(model, what, query string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(context.Background(), query, model).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: %s (%s): %w", what, model, err)
	}
	return n, nil
}

// EmbeddedVector is a vector computed for a chunk as it was read by
// PendingEmbeddings.
type EmbeddedVector struct {
	Seq  int64
	ID   string
	Data []float32
}

// StoreEmbeddings writes vectors under model and clears the chunks'
// marks, in one transaction. A chunk replaced since it was read (its seq
// no longer carries its id: the file changed while embedding) is skipped,
// keeping its mark, so its new text gets embedded next time. It returns the
// vectors stored.
func (s *Store) StoreEmbeddings(model string, vecs []EmbeddedVector) ([]Vector, error) {
	var stored []Vector
	err := s.write(func(ctx context.Context, tx *sql.Tx) error {
		// Clearing the mark is also the check that the chunk is the one
		// read: a chunk replaced since has another seq or id, so no row
		// matches and its vector is not stored.
		clear, err := tx.PrepareContext(ctx, `UPDATE chunks SET needs_embedding = 0 WHERE seq = ? AND id = ?`)
		if err != nil {
			return err
		}
		defer clear.Close()
		put, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO vectors(chunk_id, model, dim, data) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer put.Close()
		for _, v := range vecs {
			res, err := clear.ExecContext(ctx, v.Seq, v.ID)
			if err != nil {
				return fmt.Errorf("chunk %s: %w", v.ID, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return fmt.Errorf("chunk %s: %w", v.ID, err)
			} else if n == 0 {
				continue
			}
			if _, err := put.ExecContext(ctx, v.ID, model, len(v.Data), encodeVector(v.Data)); err != nil {
				return fmt.Errorf("chunk %s: %w", v.ID, err)
			}
			// What a reload would read, so that an index built from
			// these equals one loaded from the store.
			stored = append(stored, Vector{ChunkID: v.ID, Data: quantised(v.Data)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: store embeddings (%s): %w", model, err)
	}
	return stored, nil
}

// VectorCount counts the vectors stored under model.
func (s *Store) VectorCount(model string) (int, error) {
	return s.countFor(model, "vector count", `SELECT count(*) FROM vectors WHERE model = ?`)
}

// VectorModels lists the models with stored vectors and their counts.
func (s *Store) VectorModels() (map[string]int, error) {
	rows, err := s.db.QueryContext(context.Background(), `SELECT model, count(*) FROM vectors GROUP BY model`)
	if err != nil {
		return nil, fmt.Errorf("store: vector models: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var m string
		var n int
		if err := rows.Scan(&m, &n); err != nil {
			return nil, fmt.Errorf("store: vector models: %w", err)
		}
		out[m] = n
	}
	return out, rows.Err()
}

// ChunkIDsFiltered returns the ids of the chunks in files matching any of
// paths (see chunkindex.PathMatch) and of any of languages, and of any of kinds (node
// kinds); an empty list does not filter. With no filter at all it returns
// nil, meaning "every chunk", so that an unfiltered vector search does not
// build a set of every id.
func (s *Store) ChunkIDsFiltered(paths, languages, kinds []string) ([]string, error) {
	if len(paths) == 0 && len(languages) == 0 && len(kinds) == 0 {
		return nil, nil
	}
	where, args, err := fileFilter(paths, languages, kinds)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// Each passing file's chunks are one seq range (see fileShift), read
	// from the table itself; CROSS JOIN keeps files the outer loop, which
	// the planner otherwise turns round into a scan of every chunk. The
	// ids come in file id and seq order; callers use them as a set.
	ids, err := s.queryStrings(fmt.Sprintf(`SELECT c.id FROM files f CROSS JOIN chunks c
		ON c.seq BETWEEN f.id << %[1]d AND (f.id << %[1]d) | %[2]d WHERE 1`, fileShift, int64(1)<<fileShift-1)+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: filtered chunk ids: %w", err)
	}
	if ids == nil {
		ids = []string{} // filtered to nothing, which differs from "no filter"
	}
	return ids, nil
}
