package sqlitedb

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	RegisterPredicate("has_prefix", strings.HasPrefix)
	// kind_of(x): the Go type a value arrives as.
	RegisterScalar("kind_of", 1, func(args []any) (any, error) {
		return fmt.Sprintf("%T", args[0]), nil
	})
	RegisterScalar("fail_on", 1, func(args []any) (any, error) {
		if args[0] == "bad" {
			return nil, errors.New("fail_on: bad argument")
		}
		return args[0], nil
	})
	RegisterAggregate("joined", 2, func() Aggregate { return &joiner{} })
}

// joiner is joined(text, sep): the texts in row order, sep between.
type joiner struct{ parts []string }

func (j *joiner) Step(args []any) error {
	s, ok := args[0].(string)
	if !ok {
		return fmt.Errorf("joined: %T", args[0])
	}
	j.parts = append(j.parts, s)
	return nil
}

func (j *joiner) Done() (any, error) { return strings.Join(j.parts, "+"), nil }

// Registered functions get the same values and give the same answers in
// both builds.
func TestFunctions(t *testing.T) {
	db := openDB(t, filepath.Join(t.TempDir(), "f.db"), Options{})
	kinds := []struct {
		arg  any
		want string
	}{
		{"text", "string"},
		{[]byte{1, 2}, "[]uint8"},
		{int64(7), "int64"},
		{2.5, "float64"},
		{nil, "<nil>"},
		{[]byte{}, "[]uint8"},
	}
	for _, k := range kinds {
		wantValue(t, db, k.want, `SELECT kind_of(?)`, k.arg)
	}
	wantValue(t, db, "a+b+c", `SELECT joined(x, '+') FROM (SELECT 'a' AS x UNION ALL SELECT 'b' UNION ALL SELECT 'c')`)
	var s string
	if err := db.QueryRow(`SELECT fail_on('bad')`).Scan(&s); err == nil || !strings.Contains(err.Error(), "bad argument") {
		t.Errorf("a function's error: %v", err)
	}
	if err := db.QueryRow(`SELECT kind_of(1, 2)`).Scan(&s); err == nil {
		t.Error("a call with the wrong number of arguments succeeded")
	}
}

// Both builds apply the options, call registered predicates, run FTS5
// with bm25() and survive odd characters in the path.
func TestOpenAppliesOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "we?ird #dir%20", "x.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, path, Options{BusyTimeoutMS: 1234, ForeignKeys: true, WAL: true, SynchronousNormal: true, Immediate: true})
	pragmas := []struct {
		pragma string
		want   string
	}{
		{"busy_timeout", "1234"},
		{"foreign_keys", "1"},
		{"journal_mode", "wal"},
		{"synchronous", "1"}, // NORMAL
	}
	for _, p := range pragmas {
		wantValue(t, db, p.want, "PRAGMA "+p.pragma)
	}
	calls := []struct {
		a, b any
		want int
	}{
		{"src/a.ts", "src/", 1},
		{"lib/a.ts", "src/", 0},
		{nil, "src/", 0},
		{int64(3), "src/", 0},
	}
	for _, c := range calls {
		wantValue(t, db, c.want, `SELECT has_prefix(?, ?)`, c.a, c.b)
	}
	if _, err := db.Exec(`CREATE VIRTUAL TABLE t USING fts5(a, b, content = '', contentless_delete = 1);
		INSERT INTO t(rowid, a, b) VALUES (1, 'parse schema', 'x'), (2, 'format date', 'parse')`); err != nil {
		t.Fatalf("FTS5: %v", err)
	}
	// bm25's best is row 1: the name column weighs more.
	wantValue(t, db, 1, `SELECT rowid FROM t WHERE t MATCH '"parse"' ORDER BY bm25(t, 10.0, 1.0) LIMIT 1`)
	if Engine == "" {
		t.Error("no engine name")
	}
}

// wantValue checks that query (with args) answers the one value want.
// openDB opens the database at path with o, closed when the test ends.
func openDB(t *testing.T, path string, o Options) *sql.DB {
	t.Helper()
	db, err := Open(path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func wantValue[T comparable](t *testing.T, db *sql.DB, want T, query string, args ...any) {
	t.Helper()
	var got T
	if err := db.QueryRow(query, args...).Scan(&got); err != nil || got != want {
		t.Errorf("%s %v = %v, %v; want %v", query, args, got, err, want)
	}
}

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		err            error
		busy, corrupts bool
	}{
		{errors.New("database is locked (5) (SQLITE_BUSY)"), true, false},
		{errors.New("database is locked"), true, false},
		{errors.New("database disk image is malformed"), false, true},
		{errors.New("file is not a database (26)"), false, true},
		{errors.New("vtable constructor failed: chunks_fts"), false, true},
		{errors.New("no such table: x"), false, false},
		{nil, false, false},
	}
	for _, tc := range tests {
		if IsBusy(tc.err) != tc.busy || IsCorrupt(tc.err) != tc.corrupts {
			t.Errorf("%v: busy %v corrupt %v", tc.err, IsBusy(tc.err), IsCorrupt(tc.err))
		}
	}
}
