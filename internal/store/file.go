package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/scry-dev/scry/internal/chunkindex"
)

// File returns the record of one indexed file; ok is false when the file
// is not in the index. A sync that knows which files changed reads only
// their records, not all of them.
func (s *Store) File(p string) (rec chunkindex.FileRecord, ok bool, err error) {
	err = s.db.QueryRowContext(context.Background(),
		`SELECT path, mtime, size, content_hash, language, indexed_at FROM files WHERE path = ?`, p).
		Scan(&rec.Path, &rec.Mtime, &rec.Size, &rec.ContentHash, &rec.Language, &rec.IndexedAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return chunkindex.FileRecord{}, false, nil
	case err != nil:
		return chunkindex.FileRecord{}, false, fmt.Errorf("store: file %s: %w", p, err)
	}
	return rec, true, nil
}

// Checkpoint folds the write-ahead log into the index file and truncates
// it, so that the file's size is the index's size.
func (s *Store) Checkpoint() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, err := s.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("store: checkpoint: %w", err)
	}
	return nil
}

// NextFileID is the id the next file new to the index takes unless told
// otherwise. A sync numbers its new files from it in path order, so that
// the same tree indexed twice gets the same ids, and the same chunk rowids,
// whatever order its parsers finish in: ties in ranking are broken by
// rowid, and a benchmark run twice then gives the same answers.
func (s *Store) NextFileID() (int64, error) {
	var id int64
	if err := s.db.QueryRowContext(context.Background(), `SELECT coalesce(max(id), 0) + 1 FROM files`).Scan(&id); err != nil {
		return 0, fmt.Errorf("store: next file id: %w", err)
	}
	return id, nil
}
