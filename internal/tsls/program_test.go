package tsls_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls"
)

// writeFiles creates files (slash paths relative to root) with contents,
// and returns their paths, sorted.
func writeFiles(t *testing.T, root string, files map[string]string) []string {
	t.Helper()
	testkit.WriteTree(t, root, files)
	var paths []string
	for rel := range files {
		paths = append(paths, filepath.Join(root, filepath.FromSlash(rel)))
	}
	sort.Strings(paths)
	return paths
}

// newTree writes files into a new folder; it returns the folder and the
// files' paths, sorted.
func newTree(t *testing.T, files map[string]string) (string, []string) {
	t.Helper()
	root := t.TempDir()
	return root, writeFiles(t, root, files)
}

// refFiles lists the files (relative, sorted, unique) of hmac's references.
func refFiles(t *testing.T, srv *tsls.Server, root, file string, pos tsls.Position) string {
	t.Helper()
	locs, err := srv.References(context.Background(), file, pos, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	for _, l := range locs {
		rel, _ := filepath.Rel(root, l.Path())
		if !seen[rel] {
			seen[rel] = true
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// A workspace without tsconfig.json: references must reach every file that
// uses the symbol, whichever file was asked about before, and follow files
// created and deleted later. Without the workspace program, tsgo's inferred
// project holds only the asked file and what it imports, so lib/hmac.ts
// sees none of its importers.
func TestWorkspaceProgramWithoutTsconfig(t *testing.T) {
	root, files := newTree(t, map[string]string{
		"lib/hmac.ts":    "export function hmac(key: string): string {\n  return key + '!'\n}\n",
		"api/sign.ts":    "import { hmac } from '../lib/hmac'\nexport function sign(): string {\n  return hmac('a')\n}\n",
		"api/verify.ts":  "import { hmac } from '../lib/hmac'\nexport function verify(): boolean {\n  return hmac('b') === 'b!'\n}\n",
		"web/render.jsx": "import { hmac } from '../lib/hmac'\nexport const Badge = () => <b>{hmac('c')}</b>\n",
		"notes.md":       "not a source file\n",
	})
	srv := start(t, root, tsls.Options{ProgramFiles: files})
	ctx := context.Background()
	hmac := filepath.Join(root, "lib", "hmac.ts")
	pos := at(t, hmac, "hmac", 0)

	want := "api/sign.ts api/verify.ts web/render.jsx"
	if got := refFiles(t, srv, root, hmac, pos); got != want {
		t.Errorf("references of hmac = %q, want %q", got, want)
	}
	// Asking about another file first must not change the answer.
	sign := filepath.Join(root, "api", "sign.ts")
	if _, err := srv.Hover(ctx, sign, at(t, sign, "sign", 0)); err != nil {
		t.Fatal(err)
	}
	if got := refFiles(t, srv, root, hmac, pos); got != want {
		t.Errorf("references of hmac after a request on sign.ts = %q, want %q", got, want)
	}

	// A file created, then one deleted: the program follows.
	files = append(files, writeFiles(t, root, map[string]string{
		"jobs/rotate.ts": "import { hmac } from '../lib/hmac'\nexport const rotate = () => hmac('r')\n",
	})...)
	if err := srv.FilesChanged(ctx, filepath.Join(root, "jobs", "rotate.ts")); err != nil {
		t.Fatal(err)
	}
	if err := srv.SetProgramFiles(ctx, files); err != nil {
		t.Fatal(err)
	}
	if got, want := refFiles(t, srv, root, hmac, pos), "api/sign.ts api/verify.ts jobs/rotate.ts web/render.jsx"; got != want {
		t.Errorf("after creating rotate.ts: references = %q, want %q", got, want)
	}
	verify := filepath.Join(root, "api", "verify.ts")
	if err := os.Remove(verify); err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, f := range files {
		if f != verify {
			kept = append(kept, f)
		}
	}
	if err := srv.FilesChanged(ctx, verify); err != nil {
		t.Fatal(err)
	}
	if err := srv.SetProgramFiles(ctx, kept); err != nil {
		t.Fatal(err)
	}
	if got, want := refFiles(t, srv, root, hmac, pos), "api/sign.ts jobs/rotate.ts web/render.jsx"; got != want {
		t.Errorf("after deleting verify.ts: references = %q, want %q", got, want)
	}
}

// Files under a tsconfig.json stay in their configured project; only the
// others are put in the workspace program, and both answer.
func TestWorkspaceProgramBesideTsconfig(t *testing.T) {
	root, files := newTree(t, map[string]string{
		"app/tsconfig.json": `{"compilerOptions": {"strict": true}, "include": ["**/*.ts"]}`,
		"app/core.ts":       "export function core(): number {\n  return 1\n}\n",
		"app/use.ts":        "import { core } from './core'\nexport const twice = () => core() * 2\n",
		"scripts/a.ts":      "export function tool(): string {\n  return 'a'\n}\n",
		"scripts/b.ts":      "import { tool } from './a'\nexport const run = () => tool()\n",
	})
	srv := start(t, root, tsls.Options{ProgramFiles: files})
	core := filepath.Join(root, "app", "core.ts")
	if got, want := refFiles(t, srv, root, core, at(t, core, "core", 0)), "app/use.ts"; got != want {
		t.Errorf("references of core = %q, want %q", got, want)
	}
	a := filepath.Join(root, "scripts", "a.ts")
	if got, want := refFiles(t, srv, root, a, at(t, a, "tool", 0)), "scripts/b.ts"; got != want {
		t.Errorf("references of tool = %q, want %q", got, want)
	}
}

func TestProgramSplit(t *testing.T) {
	_, files := newTree(t, map[string]string{
		"web/jsconfig.json":  `{}`,
		"web/src/app.jsx":    "export const App = () => null\n",
		"web/src/deep/x.mjs": "export const x = 1\n",
		"api/tsconfig.json":  `{}`,
		"api/main.ts":        "export {}\n",
		"tools/build.ts":     "export {}\n",
		"tools/run.cjs":      "module.exports = {}\n",
		"README.md":          "# not source\n",
	})
	governed, ungoverned := tsls.ProgramSplit(files)
	if governed != 3 || ungoverned != 2 {
		t.Errorf("ProgramSplit = %d governed, %d ungoverned; want 3, 2", governed, ungoverned)
	}
}
