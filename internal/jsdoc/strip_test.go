package jsdoc

import (
	"bytes"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/parse"
)

// stripSymbol parses src, blanks the documentation of the named symbol (at
// any depth) and returns the result.
func stripSymbol(t *testing.T, path, src, name string) []byte {
	t.Helper()
	f, err := parse.Parse(path, []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var found *parse.Symbol
	walkSymbols(f.Symbols, func(s *parse.Symbol) {
		if s.Name == name && found == nil {
			found = s
		}
	})
	if found == nil {
		t.Fatalf("no symbol %s in %s", name, path)
	}
	return Blank([]byte(src), DocRanges([]byte(src), found, Summary(found.JSDoc)))
}

// checkStripped checks that out has the lines of src, none of gone, all of
// kept, and that every non-blank line of out is unchanged from src.
func checkStripped(t *testing.T, src string, out []byte, gone, kept []string) {
	t.Helper()
	in, got := strings.Split(src, "\n"), strings.Split(string(out), "\n")
	if len(in) != len(got) || len(out) != len(src) {
		t.Fatalf("lines %d -> %d, bytes %d -> %d: line numbers or offsets moved", len(in), len(got), len(src), len(out))
	}
	for i := range in {
		if strings.TrimSpace(got[i]) != "" && got[i] != in[i] {
			t.Errorf("line %d changed: %q -> %q", i+1, in[i], got[i])
		}
	}
	for _, g := range gone {
		if bytes.Contains(out, []byte(g)) {
			t.Errorf("%q is still in the stripped source", g)
		}
	}
	for _, k := range kept {
		if !bytes.Contains(out, []byte(k)) {
			t.Errorf("%q is missing from the stripped source", k)
		}
	}
}

func TestStripFunction(t *testing.T) {
	src := `import { x } from "./x";

/**
 * Other function's doc stays.
 */
export function other() { return 1 }

// A line comment attached above.
/**
 * Adds the specified number of days.
 *
 * @param date - the date
 */
export function addDays(date: Date, amount = "a /** not a comment */") {
  /** Inner doc stays. */
  const y = 2;
  return date;
}
`
	out := stripSymbol(t, "a.ts", src, "addDays")
	checkStripped(t, src, out,
		[]string{"Adds the specified", "@param date", "A line comment attached"},
		[]string{"Other function's doc stays.", "Inner doc stays.", `amount = "a /** not a comment */"`, "export function addDays("})

	// The parser now starts the symbol at its declaration, on the same line.
	f, err := parse.Parse("a.ts", out, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Symbols {
		if s.Name == "addDays" {
			if s.JSDoc != "" || s.StartLine != 14 {
				t.Errorf("stripped addDays: JSDoc %q, start line %d; want none, 14", s.JSDoc, s.StartLine)
			}
		}
	}
}

func TestStripOverloads(t *testing.T) {
	src := `/** @deprecated use the other form */
export function map<T>(a: T): T;
export function map<T>(a: T, b: T): T;
/**
 * Applies a projection to each value.
 */
export function map<T>(a: T, b?: T): T {
  return a;
}
`
	out := stripSymbol(t, "m.ts", src, "map")
	checkStripped(t, src, out, []string{"Applies a projection", "@deprecated"}, []string{"export function map<T>(a: T, b?: T): T {"})
}

func TestStripRepeatedOnCallSignatures(t *testing.T) {
	// effect repeats a function's JSDoc on every call signature of its type.
	src := `/**
 * Accumulates values from the left.
 *
 * @since 2.0.0
 */
export const scan: {
  /**
   * Accumulates values from the left.
   */
  <B, A>(b: B): (self: Iterable<A>) => B
  /**
   * A different comment on the second signature.
   */
  <A, B>(self: Iterable<A>, b: B): B
} = dual(2, (self, b) => b)
`
	out := stripSymbol(t, "s.ts", src, "scan")
	checkStripped(t, src, out, []string{"Accumulates values"}, []string{"A different comment", "<B, A>(b: B)", "} = dual(2, (self, b) => b)"})
}

func TestStripJavaScriptClassMethod(t *testing.T) {
	src := `class Stack {
  /**
   * Removes the top value of the stack.
   */
  pop() {
    return this.items.pop();
  }

  /** Pushes a value. */
  push(v) { this.items.push(v); }
}
`
	out := stripSymbol(t, "s.js", src, "pop")
	checkStripped(t, src, out, []string{"Removes the top"}, []string{"Pushes a value.", "pop() {", "push(v)"})
}

// walkSymbols calls fn on every symbol, children after their parent.
func walkSymbols(ss []*parse.Symbol, fn func(*parse.Symbol)) {
	for _, s := range ss {
		fn(s)
		walkSymbols(s.Children, fn)
	}
}
