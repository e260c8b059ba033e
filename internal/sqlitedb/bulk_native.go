//go:build cgo && sqlite_fts5

package sqlitedb

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// From sqlite3.h: the driver compiles SQLite into this binary, and these
// are its public functions.
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef struct sqlite3_context sqlite3_context;
typedef struct sqlite3_value sqlite3_value;
typedef long long sqlite3_int64;
#define SQLITE_OK 0
#define SQLITE_ROW 100
#define SQLITE_DONE 101
#define SQLITE_UTF8 1
#define SQLITE_DIRECTONLY 0x000080000
#define SQLITE_PREPARE_PERSISTENT 0x01
int sqlite3_auto_extension(void (*)(void));
int sqlite3_create_function(sqlite3 *, const char *, int, int, void *,
	void (*)(sqlite3_context *, int, sqlite3_value **),
	void (*)(sqlite3_context *, int, sqlite3_value **),
	void (*)(sqlite3_context *));
sqlite3 *sqlite3_context_db_handle(sqlite3_context *);
void sqlite3_result_int64(sqlite3_context *, sqlite3_int64);
int sqlite3_prepare_v3(sqlite3 *, const char *, int, unsigned int, sqlite3_stmt **, const char **);
int sqlite3_bind_parameter_count(sqlite3_stmt *);
int sqlite3_bind_null(sqlite3_stmt *, int);
int sqlite3_bind_int64(sqlite3_stmt *, int, sqlite3_int64);
int sqlite3_bind_double(sqlite3_stmt *, int, double);
int sqlite3_bind_text(sqlite3_stmt *, int, const char *, int, void (*)(void *));
int sqlite3_bind_blob(sqlite3_stmt *, int, const void *, int, void (*)(void *));
int sqlite3_step(sqlite3_stmt *);
int sqlite3_reset(sqlite3_stmt *);
int sqlite3_clear_bindings(sqlite3_stmt *);
int sqlite3_finalize(sqlite3_stmt *);
sqlite3 *sqlite3_db_handle(sqlite3_stmt *);
const char *sqlite3_errmsg(sqlite3 *);
int sqlite3_extended_errcode(sqlite3 *);

// scry_db_handle() is the connection's handle, for OpenBulk: a connection
// of database/sql does not show it otherwise. DIRECTONLY: not callable
// from triggers or views.
static void scry_db_handle(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	sqlite3_result_int64(ctx, (sqlite3_int64)(intptr_t)sqlite3_context_db_handle(ctx));
}

static int scry_init(sqlite3 *db, char **err, const void *api) {
	return sqlite3_create_function(db, "scry_db_handle", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, 0, scry_db_handle, 0, 0);
}

static int scry_register(void) {
	return sqlite3_auto_extension((void (*)(void))scry_init);
}

static int scry_prepare(sqlite3_int64 handle, const char *sql, sqlite3_stmt **st, const char **msg) {
	sqlite3 *db = (sqlite3 *)(intptr_t)handle;
	int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, 0);
	if (rc != SQLITE_OK) *msg = sqlite3_errmsg(db);
	return rc;
}

typedef struct { int kind; int n; sqlite3_int64 i; double f; size_t off; } scry_value;

// scry_exec binds n values (texts and blobs at their offsets in data;
// SQLITE_STATIC, since they outlive the statement's use of them: it is
// reset before returning), steps and resets. On an error, *msg is a copy
// of the connection's message (taken before the reset, which replaces
// it), for the caller to free.
static int scry_exec(sqlite3_stmt *st, const scry_value *v, int n, const char *data, char **msg) {
	int rc = SQLITE_OK;
	for (int k = 0; k < n && rc == SQLITE_OK; k++) {
		// data is never NULL, so an empty text or blob is not bound as NULL.
		switch (v[k].kind) {
		case 0: rc = sqlite3_bind_null(st, k + 1); break;
		case 1: rc = sqlite3_bind_int64(st, k + 1, v[k].i); break;
		case 2: rc = sqlite3_bind_double(st, k + 1, v[k].f); break;
		case 3: rc = sqlite3_bind_text(st, k + 1, data + v[k].off, v[k].n, 0); break;
		case 4: rc = sqlite3_bind_blob(st, k + 1, data + v[k].off, v[k].n, 0); break;
		}
	}
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE || rc == SQLITE_ROW) rc = SQLITE_OK;
	}
	if (rc != SQLITE_OK) *msg = strdup(sqlite3_errmsg(sqlite3_db_handle(st)));
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}
*/
import "C"

import (
	"context"
	"database/sql"
	"fmt"
	"unsafe"
)

func registerBulk() error {
	if rc := C.scry_register(); rc != 0 {
		return fmt.Errorf("sqlitedb: register scry_db_handle: code %d", int(rc))
	}
	return nil
}

// Bulk: see bulk.go.
type Bulk struct {
	stmts []*C.sqlite3_stmt
	nargs []int
	vals  []C.scry_value
	data  []byte
}

// OpenBulk prepares queries on the connection tx runs on. The Bulk must
// be closed before the transaction ends, and used by one goroutine.
func OpenBulk(ctx context.Context, tx *sql.Tx, queries ...string) (*Bulk, error) {
	var h int64
	if err := tx.QueryRowContext(ctx, `SELECT scry_db_handle()`).Scan(&h); err != nil {
		return nil, fmt.Errorf("sqlitedb: bulk: %w", err)
	}
	b := &Bulk{}
	for _, q := range queries {
		cq := C.CString(q)
		var st *C.sqlite3_stmt
		var msg *C.char // the connection's, read at once
		rc := C.scry_prepare(C.sqlite3_int64(h), cq, &st, &msg)
		C.free(unsafe.Pointer(cq))
		if rc != 0 {
			err := bulkError(rc, msg)
			b.Close()
			return nil, fmt.Errorf("sqlitedb: bulk: prepare: %w", err)
		}
		b.stmts = append(b.stmts, st)
		b.nargs = append(b.nargs, int(C.sqlite3_bind_parameter_count(st)))
	}
	return b, nil
}

// Exec runs query k (in OpenBulk's order) with args.
func (b *Bulk) Exec(k int, args ...any) error {
	if len(args) != b.nargs[k] {
		return fmt.Errorf("sqlitedb: bulk: %d arguments for %d parameters", len(args), b.nargs[k])
	}
	vals, data := b.vals[:0], b.data[:0]
	for _, a := range args {
		v, err := convertArg(a)
		if err != nil {
			return err
		}
		cv := C.scry_value{kind: C.int(v.kind), i: C.sqlite3_int64(v.i), f: C.double(v.f)}
		switch v.kind {
		case bindText:
			cv.off, cv.n = C.size_t(len(data)), C.int(len(v.s))
			data = append(data, v.s...)
		case bindBlob:
			cv.off, cv.n = C.size_t(len(data)), C.int(len(v.b))
			data = append(data, v.b...)
		}
		vals = append(vals, cv)
	}
	if len(data) == 0 {
		data = append(data, 0) // a valid pointer for empty texts
	}
	b.vals, b.data = vals, data
	var msg *C.char
	var vp *C.scry_value
	if len(vals) > 0 {
		vp = &vals[0]
	}
	// Neither slice holds Go pointers, and C keeps neither.
	rc := C.scry_exec(b.stmts[k], vp, C.int(len(vals)), (*C.char)(unsafe.Pointer(&data[0])), &msg)
	if rc != 0 {
		err := bulkError(rc, msg)
		C.free(unsafe.Pointer(msg))
		return err
	}
	return nil
}

// Close finalizes the statements.
func (b *Bulk) Close() error {
	for _, st := range b.stmts {
		C.sqlite3_finalize(st)
	}
	b.stmts = nil
	return nil
}

// BulkError is a failed bulk statement: SQLite's message, as the C
// driver's errors read, and its extended result code.
type BulkError struct {
	Code int
	Msg  string
}

func (e *BulkError) Error() string { return e.Msg }

func bulkError(rc C.int, msg *C.char) error {
	m := fmt.Sprintf("SQLite error %d", int(rc))
	if msg != nil {
		m = C.GoString(msg)
	}
	return &BulkError{Code: int(rc), Msg: m}
}
