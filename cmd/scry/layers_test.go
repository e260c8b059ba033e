package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/scry-dev/scry/"

// TestLayerTable holds docs/architecture.md's layer table to the code: every
// package with code is in a row (or among the packages only tests import,
// named under the table), and imports only packages of its own row or the
// rows below; no package's code imports a test-only package.
func TestLayerTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, testOnly := layerTable(t, string(doc))
	row := map[string]int{}
	for i, pkgs := range rows {
		for _, p := range pkgs {
			row[p] = i
		}
	}
	imports := packageImports(t, "../..")
	for pkg, ims := range imports {
		r, inTable := row[pkg]
		if !inTable && !testOnly[pkg] {
			t.Errorf("%s is not in docs/architecture.md's layer table", pkg)
			continue
		}
		for _, im := range ims {
			if testOnly[im] && !testOnly[pkg] {
				t.Errorf("%s imports %s, which only tests may import", pkg, im)
			}
			if ir, ok := row[im]; ok && inTable && ir < r {
				t.Errorf("%s (row %d) imports %s of a higher row (%d)", pkg, r+1, im, ir+1)
			}
		}
	}
}

var backticked = regexp.MustCompile("`((?:internal|cmd|embed)/[a-z0-9/-]+)`")

// layerTable reads the rows of the table under "## Layers", top row
// first, and the test-only packages named in the paragraph after it.
func layerTable(t *testing.T, doc string) (rows [][]string, testOnly map[string]bool) {
	t.Helper()
	_, sec, ok := strings.Cut(doc, "## Layers")
	if !ok {
		t.Fatal("docs/architecture.md has no Layers section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	testOnly = map[string]bool{}
	inTable := false
	for _, line := range strings.Split(sec, "\n") {
		if strings.HasPrefix(line, "|") {
			inTable = true
			cells := strings.Split(line, "|")
			if len(cells) < 4 {
				continue
			}
			var pkgs []string
			for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
				pkgs = append(pkgs, qualified(m[1]))
			}
			if len(pkgs) > 0 {
				rows = append(rows, pkgs)
			}
			continue
		}
		if inTable {
			for _, m := range backticked.FindAllStringSubmatch(line, -1) {
				testOnly[qualified(m[1])] = true
			}
		}
	}
	if len(rows) < 5 {
		t.Fatalf("read %d rows of the layer table", len(rows))
	}
	return rows, testOnly
}

// qualified writes a package as the table names it (embed/builtin inside
// internal/embed's cell) with its module path.
func qualified(p string) string {
	if !strings.HasPrefix(p, "internal/") && !strings.HasPrefix(p, "cmd/") {
		p = "internal/" + p
	}
	return module + p
}

// packageImports maps every package of the module that has non-test Go
// files to the module's packages they import (whatever their build tags).
func packageImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			pkg := module + filepath.ToSlash(rel)
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			if _, ok := out[pkg]; !ok {
				out[pkg] = nil
			}
			for _, im := range f.Imports {
				if p, _ := strconv.Unquote(im.Path.Value); strings.HasPrefix(p, module) {
					out[pkg] = append(out[pkg], p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
