//go:build cgo && sqlite_fts5

package sqlitedb

import (
	"database/sql"
	"fmt"
	"net/url"
	"strconv"
	"sync"

	"github.com/mattn/go-sqlite3"
)

// CompiledFromC says which build this is; costs differ between them.
const CompiledFromC = true

// Engine names the SQLite this binary runs, for doctor.
var Engine = func() string {
	v, _, _ := sqlite3.Version()
	return "SQLite " + v + " (C, cgo)"
}()

const nativeDriver = "scry-sqlite3"

var registerOnce sync.Once

// driverName registers, once, a driver whose every new connection gets
// the registered functions.
func driverName() string {
	registerOnce.Do(func() {
		fns := functions()
		sql.Register(nativeDriver, &sqlite3.SQLiteDriver{
			ConnectHook: func(c *sqlite3.SQLiteConn) error {
				for name, f := range fns {
					var err error
					if f.scalar != nil {
						err = c.RegisterFunc(name, func(args ...any) (any, error) {
							if len(args) != f.nargs {
								return nil, argCount(name, f.nargs, len(args))
							}
							return f.scalar(nullsAsNil(args))
						}, true)
					} else {
						err = c.RegisterAggregator(name, func() *aggregator {
							return &aggregator{name: name, nargs: f.nargs, a: f.aggregate()}
						}, true)
					}
					if err != nil {
						return fmt.Errorf("sqlitedb: register %s: %w", name, err)
					}
				}
				return nil
			},
		})
	})
	return nativeDriver
}

// aggregator adapts an Aggregate to the driver's reflection-based
// interface (a Step and a Done method).
type aggregator struct {
	name  string
	nargs int
	a     Aggregate
}

func (g *aggregator) Step(args ...any) error {
	if len(args) != g.nargs {
		return argCount(g.name, g.nargs, len(args))
	}
	return g.a.Step(nullsAsNil(args))
}

func (g *aggregator) Done() (any, error) { return g.a.Done() }

// nullsAsNil turns the driver's NULL argument, a nil []byte, into nil, as
// Scalar promises; an empty BLOB arrives as a non-nil empty slice.
func nullsAsNil(args []any) []any {
	for i, a := range args {
		if b, ok := a.([]byte); ok && b == nil {
			args[i] = nil
		}
	}
	return args
}

// registerFunction has nothing to do here: the connect hook reads the
// registry when the driver is first used.
func registerFunction(string, function) {}

func dataSource(abs string, o Options) string {
	q := url.Values{}
	if o.BusyTimeoutMS > 0 {
		q.Set("_busy_timeout", strconv.Itoa(o.BusyTimeoutMS))
	}
	if o.ForeignKeys {
		q.Set("_foreign_keys", "1")
	}
	if o.AutoVacuumIncremental {
		// The driver runs it before the journal mode.
		q.Set("_auto_vacuum", "incremental")
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
