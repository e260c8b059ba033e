package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// TestRootFromSubdirectory runs commands from a subdirectory of a git work
// tree without --root: they answer about the whole project, name the root
// they chose, take a path typed relative to the current directory, and
// --root still wins.
func TestRootFromSubdirectory(t *testing.T) {
	project := t.TempDir()
	testkit.WriteTree(t, project, map[string]string{
		"src/auth/token.ts": "export function validateToken(t: string) { return t.length > 0; }\n",
		"src/app/main.ts":   "import { validateToken } from '../auth/token';\nexport const ok = validateToken('x');\n",
		".git/":             "",
	})
	t.Chdir(filepath.Join(project, "src", "app"))
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())

	out := mustScry(t, "def", "validateToken")
	if !strings.Contains(out, "workspace root "+project+" (git work tree") || !strings.Contains(out, "src/auth/token.ts") {
		t.Errorf("def from src/app does not name the root or find the declaration in src/auth:\n%s", out)
	}
	out = mustScry(t, "importers", "../auth/token.ts")
	if !strings.Contains(out, "src/app/main.ts") {
		t.Errorf("importers of a path relative to the current directory:\n%s", out)
	}
	out, err := runScry(t, "def", "../auth/token.ts > validateToken")
	if err != nil || !strings.Contains(out, "function validateToken — src/auth/token.ts") {
		t.Errorf("a symbol path whose file is relative to the current directory: %v\n%s", err, out)
	}
	out = mustScry(t, "def", "--root", ".", "validateToken")
	if strings.Contains(out, "workspace root") || strings.Contains(out, "src/auth/token.ts") {
		t.Errorf("--root . should index src/app alone and name no other root:\n%s", out)
	}
}
