package answer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// impactRepo copies testdata/impact into a new git repository with one
// commit and returns its root.
func impactRepo(t *testing.T) string {
	t.Helper()
	root := testkit.Fixture(t, "impact")
	testkit.GitRepo(t, root)
	return root
}

func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s lacks %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestImpactGolden changes add() in a shop project whose blast radius is
// known: Cart.total calls it, checkout calls Cart.total, cart.ts imports
// it, and test/cart.test.ts imports cart.ts; round, report and greeting,
// and their tests, are untouched. The answers (working tree against HEAD;
// the same change committed, as a range; and one under a small budget) are
// pinned in testdata/impact.txtar (go test -update rewrites them).
func TestImpactGolden(t *testing.T) {
	bin := tslstest.Binary(t)
	root := impactRepo(t)
	edit(t, root, "src/money.ts", "return round(a + b);", "const sum = a + b;\n  return round(sum);")
	ctx := context.Background()
	env := map[string]string{"SCRY_TSGO": bin}
	e := openIndexed(t, root, engine.Options{Compiler: engine.CompilerWait, Getenv: func(k string) string { return env[k] }})

	imp, err := reads(e).Impact(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if imp.Approximate {
		t.Errorf("approximate: %s", imp.Reason)
	}
	if len(imp.Symbols) != 1 || imp.Symbols[0].Name != "add" {
		t.Fatalf("changed symbols %+v, want add", imp.Symbols)
	}
	var callers []string
	for _, c := range imp.Symbols[0].Callers {
		callers = append(callers, c.Name+"@"+c.File)
	}
	if got := strings.Join(callers, " "); !strings.Contains(got, "Cart.total@src/cart.ts") || !strings.Contains(got, "checkout@src/checkout.ts") {
		t.Errorf("callers %s, want Cart.total and checkout", got)
	}
	var tests []string
	for _, tf := range imp.Tests {
		tests = append(tests, tf.File)
	}
	if strings.Join(tests, " ") != "test/cart.test.ts" {
		t.Errorf("tests %v, want test/cart.test.ts only", tests)
	}
	files := []golden.File{{Name: "working tree", Data: render.Impact(imp, 8000)}}

	testkit.Git(t, root, "commit", "-q", "-am", "add: name the sum")
	rng, err := reads(e).Impact(ctx, "HEAD~1..HEAD", 0)
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, golden.File{Name: "HEAD~1..HEAD", Data: render.Impact(rng, 8000)})
	files = append(files, golden.File{Name: "working tree, budget 120", Data: render.Impact(imp, 120)})
	golden.Check(t, "testdata/impact.txtar", files)
}

// TestImpactRefusesOptions: a revision that is not one (an option, a
// path with spaces) is refused before git runs; outside a git work tree
// the error says so.
func TestImpactRefusesOptions(t *testing.T) {
	root := impactRepo(t)
	ctx := context.Background()
	e := openIndexed(t, root, engine.Options{})
	for _, rev := range []string{"--output=/tmp/x", "-p", "HEAD ; rm", "a...b"} {
		if _, err := reads(e).Impact(ctx, rev, 0); err == nil || !strings.Contains(err.Error(), "is not a revision") {
			t.Errorf("Impact(%q): %v", rev, err)
		}
	}
	if imp, err := reads(e).Impact(ctx, "", 0); err != nil || len(imp.Files) != 0 {
		t.Errorf("a clean tree: %v %+v", err, imp.Files)
	}

	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, "a.ts"), []byte("export const a = 1;\n"), 0o644)
	e2 := openIndexed(t, plain, engine.Options{})
	if _, err := reads(e2).Impact(ctx, "", 0); err == nil || !strings.Contains(err.Error(), "not a git work tree") {
		t.Errorf("outside git: %v", err)
	}
}

// TestImpactFromTheIndex: without TypeScript 7 the same change is answered
// from the index, marked approximate, with the direct caller and the test.
func TestImpactFromTheIndex(t *testing.T) {
	root := impactRepo(t)
	edit(t, root, "src/money.ts", "return round(a + b);", "return round(b + a);")
	ctx := context.Background()
	e := openIndexed(t, root, engine.Options{})
	imp, err := reads(e).Impact(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	text := render.Impact(imp, 8000)
	for _, want := range []string{"(approximate: from the index", "function add — src/money.ts:7 [exported]", "total — src/cart.ts", "test/cart.test.ts"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "report.test.ts") || strings.Contains(text, "greeting") {
		t.Errorf("reaches files the change does not:\n%s", text)
	}
}

// TestImpactListsCodeFirst: a changed symbol's callers and the files
// using it list the code before the tests, whose paths (src/__tests__/)
// sort first by name.
func TestImpactListsCodeFirst(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"src/money.ts":              "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
		"src/cart.ts":               "import { add } from './money';\n\nexport function total(xs: number[]): number {\n  return xs.reduce((s, x) => add(s, x), 0);\n}\n",
		"src/__tests__/add.test.ts": "import { add } from '../money';\n\nexport function check(): boolean {\n  return add(1, 2) === 3 && add(2, 2) === 4;\n}\n",
	})
	testkit.GitRepo(t, root)
	edit(t, root, "src/money.ts", "return a + b;", "return b + a;")
	imp, err := reads(openIndexed(t, root, engine.Options{})).Impact(context.Background(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Symbols) != 1 {
		t.Fatalf("changed symbols %+v, want add", imp.Symbols)
	}
	s := imp.Symbols[0]
	var callers, refs []string
	for _, c := range s.Callers {
		callers = append(callers, c.File)
	}
	for _, r := range s.References {
		refs = append(refs, r.File)
	}
	if len(callers) != 2 || callers[0] != "src/cart.ts" {
		t.Errorf("callers in %v, want src/cart.ts first", callers)
	}
	if len(refs) != 2 || refs[0] != "src/cart.ts" {
		t.Errorf("references in %v, want src/cart.ts first (the test file uses add more often)", refs)
	}
	if len(s.Importers) != 2 || s.Importers[0] != "src/cart.ts" {
		t.Errorf("importers %v, want src/cart.ts first", s.Importers)
	}
}
