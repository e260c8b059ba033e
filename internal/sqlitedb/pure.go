//go:build !(cgo && sqlite_fts5)

package sqlitedb

import (
	"database/sql/driver"
	"fmt"
	"net/url"

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

// addPragma adds p as a _pragma=name(value) parameter; the driver runs
// them in the order given.
func addPragma(q url.Values, p pragma) { q.Add("_pragma", p.name+"("+p.value+")") }
