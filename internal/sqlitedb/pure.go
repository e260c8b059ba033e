//go:build !(cgo && sqlite_fts5)

package sqlitedb

import (
	"database/sql/driver"
	"net/url"
	"strconv"

	"modernc.org/sqlite"
)

// Engine names the SQLite this binary runs, for doctor.
var Engine = "SQLite (translated to Go; build with -tags sqlite_fts5 and cgo for the faster C build)"

func driverName() string {
	predicates() // closes registration, as the C build does
	return "sqlite"
}

func registerPredicate(name string, fn Predicate) {
	sqlite.MustRegisterDeterministicScalarFunction(name, 2,
		func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			a, ok1 := text(args[0])
			b, ok2 := text(args[1])
			if ok1 && ok2 && fn(a, b) {
				return int64(1), nil
			}
			return int64(0), nil
		})
}

func text(v driver.Value) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

func dataSource(abs string, o Options) string {
	q := url.Values{}
	// busy_timeout first so the other pragmas already wait on a busy file.
	if o.BusyTimeoutMS > 0 {
		q.Add("_pragma", "busy_timeout("+strconv.Itoa(o.BusyTimeoutMS)+")")
	}
	if o.ForeignKeys {
		q.Add("_pragma", "foreign_keys(1)")
	}
	if o.WAL {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	if o.SynchronousNormal {
		q.Add("_pragma", "synchronous(NORMAL)")
	}
	if o.Immediate {
		q.Set("_txlock", "immediate")
	}
	return fileURI(abs, q)
}
