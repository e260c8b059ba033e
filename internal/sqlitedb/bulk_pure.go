//go:build !(cgo && sqlite_fts5)

package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
)

// Bulk: see bulk.go. This build has none.
type Bulk struct{}

// OpenBulk returns nil: this build keeps to database/sql.
func OpenBulk(context.Context, *sql.Tx, ...string) (*Bulk, error) { return nil, nil }

// Exec is never called on this build's nil Bulk.
func (b *Bulk) Exec(int, ...any) error {
	return errors.New("sqlitedb: no bulk statements in this build")
}

// Close does nothing.
func (b *Bulk) Close() error { return nil }
