//go:build cgo && sqlite_fts5

package sqlitedb

import (
	"database/sql"
	"net/url"
	"strconv"
	"sync"

	"github.com/mattn/go-sqlite3"
)

// Engine names the SQLite this binary runs, for doctor.
var Engine = func() string {
	v, _, _ := sqlite3.Version()
	return "SQLite " + v + " (C, cgo)"
}()

const nativeDriver = "scry-sqlite3"

var registerOnce sync.Once

// driverName registers, once, a driver whose every new connection gets
// the registered predicates.
func driverName() string {
	registerOnce.Do(func() {
		fns := predicates()
		sql.Register(nativeDriver, &sqlite3.SQLiteDriver{
			ConnectHook: func(c *sqlite3.SQLiteConn) error {
				for name, fn := range fns {
					if err := c.RegisterFunc(name, func(a, b any) int64 {
						x, ok1 := text(a)
						y, ok2 := text(b)
						if ok1 && ok2 && fn(x, y) {
							return 1
						}
						return 0
					}, true); err != nil {
						return err
					}
				}
				return nil
			},
		})
	})
	return nativeDriver
}

func text(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

// registerPredicate has nothing to do here: the connect hook reads the
// registry when the driver is first used.
func registerPredicate(string, Predicate) {}

func dataSource(abs string, o Options) string {
	q := url.Values{}
	if o.BusyTimeoutMS > 0 {
		q.Set("_busy_timeout", strconv.Itoa(o.BusyTimeoutMS))
	}
	if o.ForeignKeys {
		q.Set("_foreign_keys", "1")
	}
	if o.WAL {
		q.Set("_journal_mode", "WAL")
	}
	if o.SynchronousNormal {
		q.Set("_synchronous", "NORMAL")
	}
	if o.Immediate {
		q.Set("_txlock", "immediate")
	}
	return fileURI(abs, q)
}
