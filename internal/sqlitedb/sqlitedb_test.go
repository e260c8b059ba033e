package sqlitedb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	RegisterPredicate("has_prefix", strings.HasPrefix)
}

// Both builds apply the options, call registered predicates, run FTS5
// with bm25() and survive odd characters in the path.
func TestOpenAppliesOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "we?ird #dir%20", "x.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, Options{BusyTimeoutMS: 1234, ForeignKeys: true, WAL: true, SynchronousNormal: true, Immediate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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
		var got string
		if err := db.QueryRow("PRAGMA " + p.pragma).Scan(&got); err != nil || got != p.want {
			t.Errorf("PRAGMA %s = %q, %v; want %q", p.pragma, got, err, p.want)
		}
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
		var got int
		if err := db.QueryRow(`SELECT has_prefix(?, ?)`, c.a, c.b).Scan(&got); err != nil || got != c.want {
			t.Errorf("has_prefix(%v, %v) = %d, %v; want %d", c.a, c.b, got, err, c.want)
		}
	}
	if _, err := db.Exec(`CREATE VIRTUAL TABLE t USING fts5(a, b, content = '', contentless_delete = 1);
		INSERT INTO t(rowid, a, b) VALUES (1, 'parse schema', 'x'), (2, 'format date', 'parse')`); err != nil {
		t.Fatalf("FTS5: %v", err)
	}
	var rowid int
	if err := db.QueryRow(`SELECT rowid FROM t WHERE t MATCH '"parse"' ORDER BY bm25(t, 10.0, 1.0) LIMIT 1`).Scan(&rowid); err != nil || rowid != 1 {
		t.Errorf("bm25 best = %d, %v; want 1 (the name column weighs more)", rowid, err)
	}
	if Engine == "" {
		t.Error("no engine name")
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
