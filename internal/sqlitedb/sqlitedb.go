// Package sqlitedb opens SQLite databases for scry through one of two
// drivers, chosen at build time: SQLite compiled from C (cgo, with the
// build tag sqlite_fts5, which `make` and CI set), or SQLite translated to
// Go (any other build). The two give the same answers; the C build runs
// full-text queries about twice as fast on one core (a 140k-chunk index:
// 3.9 against 8.4 ms of CPU per BM25 query). Everything that differs
// between them — the driver name, the connection options' syntax, how a
// Go function is registered — lives here, so the store and the embedding
// cache open their files one way.
package sqlitedb

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Options are the connection settings every connection of a database
// gets.
type Options struct {
	// BusyTimeoutMS is how long a statement waits for another process's
	// lock before failing with "database is locked".
	BusyTimeoutMS int
	// ForeignKeys enforces REFERENCES clauses (ON DELETE CASCADE).
	ForeignKeys bool
	// AutoVacuumIncremental creates a new file with auto_vacuum =
	// INCREMENTAL, so that PRAGMA incremental_vacuum can return its free
	// pages to the file system. SQLite accepts it only before the first
	// table, and before WAL mode writes the header: both builds set it
	// ahead of the journal mode. An existing file keeps its setting.
	AutoVacuumIncremental bool
	// WAL selects write-ahead logging: readers do not block the writer.
	WAL bool
	// SynchronousNormal syncs at checkpoints only (safe under WAL; the
	// last commits may be lost on power loss, never the file).
	SynchronousNormal bool
	// Immediate makes BEGIN take the write lock at once, so the busy
	// timeout applies to writers instead of a lock upgrade failing.
	Immediate bool
}

// Open opens (creating it if needed) the database file at the absolute
// path abs. A new file is created readable by its owner only (0600), and
// SQLite gives its -wal and -shm files the database file's mode: scry's
// databases hold the source of the code they index.
func Open(abs string, o Options) (*sql.DB, error) {
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		f.Close()
	case !errors.Is(err, os.ErrExist):
		return nil, fmt.Errorf("sqlitedb: create %s: %w", abs, err)
	}
	db, err := sql.Open(driverName(), dataSource(abs, o))
	if err != nil {
		return nil, fmt.Errorf("sqlitedb: open %s: %w", abs, err)
	}
	return db, nil
}

// MakePrivate makes the database at abs, and its -wal and -shm files,
// readable and writable by their owner only: a file made by an older scry
// (0644) is closed to other users once the caller knows it is a database
// of its own. Files that do not exist are passed over.
func MakePrivate(abs string) error {
	var errs []error
	for _, p := range []string{abs, abs + "-wal", abs + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlitedb: make %s private: %w", abs, err)
	}
	return nil
}

// pragma is one connection setting.
type pragma struct{ name, value string }

// pragmas are o's settings, in the order a connection applies them: the
// busy timeout first so that the others already wait on a busy file, and
// auto_vacuum before WAL mode writes the file's header.
func (o Options) pragmas() []pragma {
	var ps []pragma
	if o.BusyTimeoutMS > 0 {
		ps = append(ps, pragma{"busy_timeout", strconv.Itoa(o.BusyTimeoutMS)})
	}
	if o.ForeignKeys {
		ps = append(ps, pragma{"foreign_keys", "1"})
	}
	if o.AutoVacuumIncremental {
		ps = append(ps, pragma{"auto_vacuum", "incremental"})
	}
	if o.WAL {
		ps = append(ps, pragma{"journal_mode", "WAL"})
	}
	if o.SynchronousNormal {
		ps = append(ps, pragma{"synchronous", "NORMAL"})
	}
	return ps
}

// dataSource is the driver's name for the file at abs with o applied,
// each pragma in the build's own syntax (addPragma).
func dataSource(abs string, o Options) string {
	q := url.Values{}
	for _, p := range o.pragmas() {
		addPragma(q, p)
	}
	if o.Immediate {
		q.Set("_txlock", "immediate")
	}
	return fileURI(abs, q)
}

// fileURI is abs as a file: URI, so that any character in the path ('?',
// '#', '%') survives; a driver would otherwise cut a plain path at the
// first '?'.
func fileURI(abs string, q url.Values) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}).String()
}

// Scalar is a Go function SQL can call. Its arguments are nil, int64,
// float64, string or []byte (copies: it may keep them); it returns one of
// these, or an error that fails the statement.
type Scalar func(args []any) (any, error)

// Aggregate is one evaluation of an aggregate function: Step sees each
// row's arguments (typed as for Scalar), Done returns the result.
type Aggregate interface {
	Step(args []any) error
	Done() (any, error)
}

type function struct {
	nargs     int
	scalar    Scalar
	aggregate func() Aggregate
}

var (
	registry   = map[string]function{}
	registryMu sync.Mutex
	opened     bool
)

// RegisterScalar makes fn callable from SQL as name(…) with nargs
// arguments on every connection opened afterwards. fn must be
// deterministic: SQLite may evaluate it once for equal arguments. Call it
// from an init function: registering after the first Open panics.
func RegisterScalar(name string, nargs int, fn Scalar) {
	register(name, function{nargs: nargs, scalar: fn})
}

// RegisterAggregate makes name(…) an aggregate function of nargs
// arguments; each aggregation gets its own newAgg(). As RegisterScalar,
// from an init function.
func RegisterAggregate(name string, nargs int, newAgg func() Aggregate) {
	register(name, function{nargs: nargs, aggregate: newAgg})
}

// Predicate is a Go function SQL can call with two text arguments, such
// as path_match(pattern, path). NULL or non-text arguments give false.
type Predicate func(a, b string) bool

// RegisterPredicate makes fn callable from SQL as name(a, b), returning 1
// or 0 (see RegisterScalar).
func RegisterPredicate(name string, fn Predicate) {
	RegisterScalar(name, 2, func(args []any) (any, error) {
		a, ok1 := args[0].(string)
		b, ok2 := args[1].(string)
		if ok1 && ok2 && fn(a, b) {
			return int64(1), nil
		}
		return int64(0), nil
	})
}

func register(name string, f function) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if opened {
		panic("sqlitedb: function " + name + " registered after the first Open")
	}
	if _, dup := registry[name]; dup {
		panic("sqlitedb: function " + name + " registered twice")
	}
	registry[name] = f
	registerFunction(name, f)
}

// functions returns the registered functions and closes registration.
func functions() map[string]function {
	registryMu.Lock()
	defer registryMu.Unlock()
	opened = true
	return registry
}

// argCount is the error of a call with the wrong number of arguments (the
// C build registers every function as variadic).
func argCount(name string, want, got int) error {
	return fmt.Errorf("%s: %d arguments, want %d", name, got, want)
}

// IsBusy reports whether err is SQLite's "another connection holds the
// lock" in either driver's wording.
func IsBusy(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}

// IsUniqueViolation reports whether err is a write refused by a UNIQUE or
// PRIMARY KEY constraint.
func IsUniqueViolation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// IsCorrupt reports whether err is SQLite's "the file is damaged or not a
// database" in either driver's wording. The C build's integrity check also
// opens each FTS5 table, and a table whose pages are damaged fails there
// as "vtable constructor failed", without the underlying cause.
func IsCorrupt(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "database disk image is malformed") ||
		strings.Contains(msg, "vtable constructor failed") ||
		strings.Contains(msg, "file is not a database") ||
		strings.Contains(msg, "SQLITE_CORRUPT") || strings.Contains(msg, "SQLITE_NOTADB")
}
