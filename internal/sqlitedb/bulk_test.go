package sqlitedb

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type namedText string

// TestBulk: rows a Bulk inserts are the rows database/sql inserts with
// the same arguments, value for value and type for type, and its errors
// read as the driver's.
func TestBulk(t *testing.T) {
	db := openDB(t, filepath.Join(t.TempDir(), "b.db"), Options{WAL: true, Immediate: true})
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE t (k INTEGER PRIMARY KEY, via TEXT, v, UNIQUE (via, v))`); err != nil {
		t.Fatal(err)
	}
	args := []any{
		nil, int64(-7), 42, int32(5), true, false, 2.5, "", "text", "ünïcode ✓", namedText("named"),
		[]byte(nil), []byte{}, []byte{0, 1, 2}, strings.Repeat("long ", 10000),
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	bulk, err := OpenBulk(ctx, tx, `INSERT INTO t(k, via, v) VALUES (?, 'bulk', ?)`)
	if err != nil {
		t.Fatal(err)
	}
	if bulk == nil {
		tx.Rollback()
		t.Skip("this build has no bulk statements")
	}
	for i, a := range args {
		if err := bulk.Exec(0, 2*i, a); err != nil {
			t.Fatalf("bulk %T: %v", a, err)
		}
		if _, err := tx.Exec(`INSERT INTO t(k, via, v) VALUES (?, 'sql', ?)`, 2*i+1, a); err != nil {
			t.Fatalf("sql %T: %v", a, err)
		}
	}
	if err := bulk.Exec(0, 1); err == nil || !strings.Contains(err.Error(), "arguments") {
		t.Errorf("wrong argument count: %v", err)
	}
	if err := bulk.Exec(0, 1000, struct{}{}); err == nil {
		t.Error("an argument of an unknown type was bound")
	}
	// A failed statement: the same message as the driver's, and the
	// statement works again after it.
	bulkErr := bulk.Exec(0, 1000, "text")
	_, sqlErr := tx.Exec(`INSERT INTO t(k, via, v) VALUES (?, 'bulk', ?)`, 1001, "text")
	if bulkErr == nil || sqlErr == nil || bulkErr.Error() != sqlErr.Error() {
		t.Errorf("duplicate: bulk error %v, sql error %v", bulkErr, sqlErr)
	}
	if err := bulk.Exec(0, 1002, "after the error"); err != nil {
		t.Errorf("after an error: %v", err)
	}
	if err := bulk.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT k, typeof(v), quote(v) FROM t WHERE k < 1000 ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got [][2]string
	for rows.Next() {
		var k int
		var typ, q string
		if err := rows.Scan(&k, &typ, &q); err != nil {
			t.Fatal(err)
		}
		got = append(got, [2]string{typ, q})
	}
	if len(got) != 2*len(args) {
		t.Fatalf("%d rows for %d arguments", len(got), len(args))
	}
	for i, a := range args {
		if b, s := got[2*i], got[2*i+1]; !reflect.DeepEqual(b, s) {
			t.Errorf("%T %.20v: bulk stored %.40v, database/sql %.40v", a, fmt.Sprint(a), b, s)
		}
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM t WHERE k = 1002`).Scan(&n); err != nil || n != 1 {
		t.Errorf("row after the error: %d, %v", n, err)
	}
}

// TestBulkHandleIsPerConnection: each connection's Bulk writes through
// that connection (two transactions on two connections of one pool).
func TestBulkHandleIsPerConnection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	db := openDB(t, path, Options{WAL: true})
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE a (x); CREATE TABLE b (x)`); err != nil {
		t.Fatal(err)
	}
	read, err := db.Conn(ctx) // a second connection with a read open
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	rtx, err := read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := rtx.QueryRow(`SELECT count(*) FROM a`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	bulk, err := OpenBulk(ctx, tx, `INSERT INTO a VALUES (?)`)
	if err != nil || bulk == nil {
		tx.Rollback()
		rtx.Rollback()
		if err != nil {
			t.Fatal(err)
		}
		t.Skip("this build has no bulk statements")
	}
	if err := bulk.Exec(0, 1); err != nil {
		t.Fatal(err)
	}
	// The write is the transaction's: seen inside it, not by the reader
	// (its snapshot), and by everyone after the commit.
	if err := tx.QueryRow(`SELECT count(*) FROM a`).Scan(&n); err != nil || n != 1 {
		t.Errorf("inside the transaction: %d rows, %v", n, err)
	}
	if err := rtx.QueryRow(`SELECT count(*) FROM a`).Scan(&n); err != nil || n != 0 {
		t.Errorf("in the reader's snapshot: %d rows, %v", n, err)
	}
	bulk.Close()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rtx.Rollback()
	if err := db.QueryRow(`SELECT count(*) FROM a`).Scan(&n); err != nil || n != 1 {
		t.Errorf("after the commit: %d rows, %v", n, err)
	}
}
