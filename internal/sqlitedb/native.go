//go:build cgo && sqlite_fts5

package sqlitedb

import (
	"database/sql"
	"fmt"
	"net/url"
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
		if err := registerBulk(); err != nil {
			panic(err) // only when SQLite is out of memory at start
		}
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

// addPragma sets p as the driver's own connection parameter, _name=value;
// the driver applies them in its own order (auto_vacuum before the journal
// mode, as SQLite needs).
func addPragma(q url.Values, p pragma) { q.Set("_"+p.name, p.value) }
