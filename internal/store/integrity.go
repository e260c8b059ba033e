package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/scry-dev/scry/internal/sqlitedb"
)

// ErrCorrupt is wrapped by errors that mean the index file is damaged
// (zeroed or overwritten pages, a truncated file): SQLite's "database disk
// image is malformed" and "file is not a database". The index is a cache of
// the workspace, so the remedy is to rebuild it (Remove, then Open and sync).
var ErrCorrupt = errors.New("index file is damaged")

// ErrDamagedIndex is wrapped, beside the damage itself, by an Open error for
// a file whose header marks it as a scry index (its application id) but
// whose schema could not be read or dropped: the file is scry's, so it may
// be deleted and rebuilt like one that opened and then failed QuickCheck.
// Which page a damage hits decides which of the two a caller sees.
var ErrDamagedIndex = errors.New("scry index with damaged pages")

// IsCorrupt reports whether err says the index file is damaged: SQLite
// found damaged pages, or a write failed a unique constraint. scry's
// writes never break one (a file's chunks are deleted, by the file's id,
// before its new ones are inserted), so such a failure means rows that
// disagree with each other — a file row renumbered, orphaned chunks —
// which SQLite's checks do not see (each table and index is sound alone)
// and which would fail every sync of the file for good.
func IsCorrupt(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrCorrupt) {
		return true
	}
	return sqlitedb.IsCorrupt(err) || sqlitedb.IsUniqueViolation(err)
}

// QuickCheck runs SQLite's quick integrity check over every table and
// index (b-tree structure and page contents, not cross-checks between
// indexes and tables): zeroed pages show here rather than as a failed
// search later. It costs one read of the file.
func (s *Store) QuickCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		if IsCorrupt(err) {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, s.path, err)
		}
		return fmt.Errorf("store: check %s: %w", s.path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, s.path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		if IsCorrupt(err) {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, s.path, err)
		}
		return fmt.Errorf("store: check %s: %w", s.path, err)
	}
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], fmt.Sprintf("and %d more", len(problems)-3))
		}
		return fmt.Errorf("%w: %s: %s", ErrCorrupt, s.path, strings.Join(problems, "; "))
	}
	return nil
}

// Remove deletes the index file at path with its WAL and shared-memory
// files; the store must be closed.
func Remove(path string) error {
	var errs []error
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store: remove %s: %w", path, err)
	}
	return nil
}
