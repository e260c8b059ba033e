package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// TestFileNamesCannotForgeLines is issue 18 item 14 as an agent would see
// it: a file whose name holds a newline followed by a fake `file:line:`
// line must not appear raw in any answer.
func TestFileNamesCannotForgeLines(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{
		"src/a.ts":                         "export function alpha() { return 1; }\n",
		"notes\n" + testkit.Forged + ".ts": "import { alpha } from '../src/a';\nexport function forgedTarget() { return alpha(); }\n",
	})
	idx := filepath.Join(t.TempDir(), "index.db")
	out := mustScry(t, "index", "--root", root, "--index", idx)
	if !strings.Contains(out, "unsafe-name") {
		t.Errorf("the index summary does not count the skipped name:\n%s", out)
	}
	for _, args := range [][]string{
		{"search", "forgedTarget"},
		{"search", "symbol = forgedTarget"},
		{"search", "--json", "forgedTarget"},
		{"refs", "alpha"},
		{"callers", "alpha"},
	} {
		out := mustScry(t, append(args, "--root", root, "--index", idx)...)
		if line, ok := testkit.ForgedLine(out, testkit.Forged, ""); ok {
			t.Errorf("%v: a file name forged the line %q:\n%s", args, line, out)
		}
	}
}

// TestChunksQuotesUnsafeNames: `scry chunks` reads paths it did not
// discover, so it quotes a name that would otherwise forge lines.
func TestChunksQuotesUnsafeNames(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"x\n" + testkit.Forged + ".ts": "export function f() {}\n"})
	out := mustScry(t, "chunks", "--root", dir, dir)
	if !strings.Contains(out, `\n`+testkit.Forged) {
		t.Errorf("the name is not in the output, quoted:\n%s", out)
	}
	if line, ok := testkit.ForgedLine(out, testkit.Forged, ""); ok {
		t.Errorf("a file name forged the line %q:\n%s", line, out)
	}
}

// TestEveryDeclaratorBySymbolPath is issue 18 item 18 through the real
// parser: each name of `export const A = 1, B = 2` answers `symbol = B`.
func TestEveryDeclaratorBySymbolPath(t *testing.T) {
	root := t.TempDir()
	src := "export const Alpha = 1, Beta = 2, Gamma = () => Alpha + Beta;\nlet first = 1, second = 2;\nexport const BetaMax = 3;\n" +
		"export const { host, port: listenPort = 80 } = config;\nconst [head, ...tail] = list;\n"
	testkit.WriteTree(t, root, map[string]string{"consts.ts": src})
	idx := filepath.Join(t.TempDir(), "index.db")
	tests := []struct{ query, want string }{
		{"symbol = Beta", `"name":"Beta"`},
		{"symbol = Gamma", `"name":"Gamma"`},
		{"symbol = consts.ts > Alpha", `"name":"Alpha"`},
		{"symbol = second", `"name":"second"`},
		{"symbol = BetaMax", `"name":"BetaMax"`},
		{"symbol = listenPort", `"name":"listenPort"`},
		{"symbol = tail", `"name":"tail"`},
	}
	for _, tt := range tests {
		out := mustScry(t, "search", "--json", "--root", root, "--index", idx, tt.query)
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s: result lacks %s:\n%.400s", tt.query, tt.want, out)
		}
	}
}

// TestEveryDeclaratorRefs: the compiler is asked about the declarator
// named, not the statement's first.
func TestEveryDeclaratorRefs(t *testing.T) {
	tslstest.Binary(t)
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{
		"consts.ts": "export const Alpha = 1, Beta = 2;\n",
		"use.ts":    "import { Alpha, Beta } from './consts';\nexport const useA = Alpha + 1;\nexport const useB = Beta * 2;\n",
	})
	idx := filepath.Join(t.TempDir(), "index.db")
	tests := []struct{ name, want, not string }{
		{"Beta", "useB = Beta", "useA"},
		{"Alpha", "useA = Alpha", "useB"},
	}
	for _, tt := range tests {
		out := mustScry(t, "refs", tt.name, "--root", root, "--index", idx)
		if !strings.Contains(out, tt.want) || strings.Contains(out, tt.not) || strings.Contains(out, "approximate") {
			t.Errorf("refs %s: want %q from the compiler and not %q:\n%s", tt.name, tt.want, tt.not, out)
		}
	}
}

// TestRootNameCannotForgeLines: the workspace root's own name is printed
// escaped too (doctor's report, the index summary, errors).
func TestRootNameCannotForgeLines(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws\n"+testkit.Forged)
	testkit.WriteTree(t, root, map[string]string{"a.ts": "export const a = 1;\n"})
	idx := filepath.Join(t.TempDir(), "index.db")
	for _, args := range [][]string{
		{"doctor", "--root", root, "--index", idx},
		{"index", "--root", root, "--index", idx},
		{"chunks", "--root", root, filepath.Join(root, "missing\n"+testkit.Forged+".ts")},
	} {
		out, err := runScry(t, args...)
		if err != nil {
			out += "\nscry: " + render.ErrorLine(err)
		}
		if line, ok := testkit.ForgedLine(out, testkit.Forged, ""); ok {
			t.Errorf("%v: the root's name forged the line %q:\n%s", args[0], line, out)
		}
	}
}
