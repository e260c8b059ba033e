package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// TestConfigFileSelectsFilesAndStaysInRoot: .scry.toml's include/exclude
// reach discovery, flags win over them, and a pattern that leaves the root
// is refused.
func TestConfigFileSelectsFilesAndStaysInRoot(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{"src/a.ts": "export const a = 1;\n", "lib/b.ts": "export const b = 2;\n"})
	write := func(cfg string) {
		os.WriteFile(filepath.Join(root, ".scry.toml"), []byte(cfg), 0o644)
	}
	idx := filepath.Join(t.TempDir(), "index.db")

	write("exclude = [\"lib\"]\n")
	out, err := runScry(t, "index", "--root", root, "--index", idx)
	if err != nil || !strings.Contains(out, "1 files:") {
		t.Fatalf("exclude from the config not applied: %v %s", err, out)
	}
	out, err = runScry(t, "index", "--root", root, "--index", idx, "--exclude", "nothing")
	if err != nil || !strings.Contains(out, "2 files:") {
		t.Fatalf("--exclude should win over the config: %v %s", err, out)
	}
	for _, bad := range []string{"include = [\"../**\"]\n", "exclude = [\"/etc/**\"]\n"} {
		write(bad)
		_, err = runScry(t, "index", "--root", root, "--index", idx)
		if err == nil || !strings.Contains(err.Error(), "outside the workspace root") {
			t.Errorf("config %q: error %v, want a refusal naming the root", bad, err)
		}
	}
	write("maxTokenBudget = \"lots\"\n")
	if _, err = runScry(t, "search", "--root", root, "--index", idx, "x"); err == nil || !strings.Contains(err.Error(), "maxTokenBudget") {
		t.Errorf("broken config: error %v, want one naming the key", err)
	}
	write("")
	if _, err = runScry(t, "search", "--root", root, "--index", idx, "--path", "../outside", "x"); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("--path outside the root: error %v", err)
	}
}

// A brace glob keeps its comma: --include 'src/{sub,x}/*.ts' is one
// pattern (a comma-splitting flag made it two broken ones), and repeating
// the flag gives several.
func TestIncludeKeepsBraceGlobs(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{"src/sub/a.ts", "src/x/b.ts", "src/y/c.ts", "lib/d.ts"} {
		testkit.WriteTree(t, root, map[string]string{rel: "export const v = 1;\n"})
	}
	idx := filepath.Join(t.TempDir(), "index.db")
	out, err := runScry(t, "index", "--root", root, "--index", idx, "--include", "src/{sub,x}/*.ts")
	if err != nil || !strings.Contains(out, "2 files:") {
		t.Fatalf("brace glob: %v %s", err, out)
	}
	out, err = runScry(t, "index", "--root", root, "--index", idx, "--include", "src/{sub,x}/*.ts", "--include", "lib/*.ts")
	if err != nil || !strings.Contains(out, "3 files:") {
		t.Fatalf("repeated --include: %v %s", err, out)
	}
}
