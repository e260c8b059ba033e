//go:build !(cgo && sqlite_fts5)

package sqlitedb

import (
	"database/sql/driver"
	"fmt"
	"net/url"
	"strconv"

	"modernc.org/sqlite"
)

// CompiledFromC says which build this is; costs differ between them.
const CompiledFromC = false

// Engine names the SQLite this binary runs, for doctor.
var Engine = "SQLite (translated to Go; build with -tags sqlite_fts5 and cgo for the faster C build)"

func driverName() string {
	functions() // closes registration, as the C build does
	return "sqlite"
}

func registerFunction(name string, f function) {
	impl := &sqlite.FunctionImpl{NArgs: int32(f.nargs), Deterministic: true}
	if f.scalar != nil {
		impl.Scalar = func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			return f.scalar(values(args))
		}
	} else {
		impl.MakeAggregate = func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) {
			return &aggregator{name: name, a: f.aggregate()}, nil
		}
	}
	sqlite.MustRegisterFunction(name, impl)
}

func values(args []driver.Value) []any {
	out := make([]any, len(args))
	for i, v := range args {
		out[i] = v
	}
	return out
}

// aggregator adapts an Aggregate to the driver's interface.
type aggregator struct {
	name string
	a    Aggregate
}

func (g *aggregator) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	return g.a.Step(values(args))
}

func (g *aggregator) WindowInverse(*sqlite.FunctionContext, []driver.Value) error {
	return fmt.Errorf("%s: not a window function", g.name)
}

func (g *aggregator) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	return g.a.Done()
}

func (g *aggregator) Final(*sqlite.FunctionContext) {}

func dataSource(abs string, o Options) string {
	q := url.Values{}
	// busy_timeout first so the other pragmas already wait on a busy file.
	if o.BusyTimeoutMS > 0 {
		q.Add("_pragma", "busy_timeout("+strconv.Itoa(o.BusyTimeoutMS)+")")
	}
	if o.ForeignKeys {
		q.Add("_pragma", "foreign_keys(1)")
	}
	if o.AutoVacuumIncremental {
		q.Add("_pragma", "auto_vacuum(2)")
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
