package answer_test

import (
	"context"
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestAssignedFunctionFromTheIndex: a method of JavaScript written before
// classes (Runner.prototype.runTests = function …) is found by the name
// its callers write, and its callers are the code that calls it through
// this or self, not a comment that mentions the call. Before, `scry def
// runTests` said no such symbol existed and its callers were none.
func TestAssignedFunctionFromTheIndex(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"lib/runner.js": "'use strict';\n\nfunction Runner(suite) {\n  this.suite = suite;\n}\n\n" +
			"Runner.prototype.runTests = function (suite, fn) {\n  return fn(suite);\n};\n\n" +
			"Runner.prototype.runSuite = function (suite, fn) {\n  var self = this;\n" +
			"  function report() {\n    // see this.runTests() for how the tests run\n    return 'this.runTests(suite)';\n  }\n" +
			"  report();\n  return self.runTests(suite, fn);\n};\n\nmodule.exports = Runner;\n",
		// A test's use of it sorts before lib/ by name, after it by part.
		"lib/a.spec.js": "const Runner = require('./runner');\nnew Runner([]).runTests([], () => {});\n",
	})
	ctx := context.Background()
	x := reads(openIndexed(t, root, engine.Options{}))

	found, err := x.FindSymbols(ctx, answer.SymbolQuery{Name: "runTests"})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Name != "Runner.prototype.runTests" {
		t.Fatalf("find runTests = %+v, want Runner.prototype.runTests", found)
	}
	syms, err := x.Symbols("runTests")
	if err != nil {
		t.Fatal(err)
	}
	if len(syms) != 1 {
		t.Fatalf("symbols runTests = %d, want 1", len(syms))
	}
	tree, err := x.Callers(ctx, syms[0], 1)
	if err != nil {
		t.Fatal(err)
	}
	var callers []string
	for _, c := range tree.Callers {
		callers = append(callers, c.QualifiedName())
	}
	if !slices.Equal(callers, []string{"Runner.prototype.runSuite"}) {
		t.Errorf("callers of runTests = %q, want only Runner.prototype.runSuite (report's comment and string call nothing)", callers)
	}
	refs, err := x.References(ctx, syms[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, s := range refs.Sites {
		lines = append(lines, s.Line)
	}
	if !slices.Contains(lines, 7) || !slices.Contains(lines, 18) {
		t.Errorf("references of runTests on lines %v, want the declaration (7) and the call (18)", lines)
	}
	if last := refs.Sites[len(refs.Sites)-1]; last.File != "lib/a.spec.js" {
		t.Errorf("references end in %s, want the test's use last", last.File)
	}
}
