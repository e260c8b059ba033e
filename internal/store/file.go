package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// File returns the record of one indexed file; ok is false when the file
// is not in the index. A sync that knows which files changed reads only
// their records, not all of them.
func (s *Store) File(p string) (rec FileRecord, ok bool, err error) {
	err = s.db.QueryRowContext(context.Background(),
		`SELECT path, mtime, size, content_hash, language, indexed_at FROM files WHERE path = ?`, p).
		Scan(&rec.Path, &rec.Mtime, &rec.Size, &rec.ContentHash, &rec.Language, &rec.IndexedAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return FileRecord{}, false, nil
	case err != nil:
		return FileRecord{}, false, fmt.Errorf("store: file %s: %w", p, err)
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
