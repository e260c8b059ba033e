package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestEmptyWorkspace indexes real directories with nothing to index and
// checks that the engine says why: nothing of TS/JS at all (in a directory
// that is or is not a project), sources only in dependencies or build
// output, every source excluded by the settings, every source too large.
// A workspace with a source file has no such report.
func TestEmptyWorkspace(t *testing.T) {
	big := "export const x = '" + strings.Repeat("x", 2048) + "';\n"
	tests := []struct {
		name      string
		files     map[string]string
		configure func(*config.Config) error
		check     func(t *testing.T, w *engine.EmptyWorkspace)
	}{
		{name: "no files at all", files: nil, check: func(t *testing.T, w *engine.EmptyWorkspace) {
			if w.Candidates != 0 || w.HiddenTotal() != 0 || w.Other != 0 || len(w.Markers) != 0 {
				t.Errorf("%+v, want nothing found and no project markers", *w)
			}
		}},
		{name: "a project of other languages", files: map[string]string{"package.json": "{}", "main.py": "print(1)\n", "README.md": "# x\n"},
			check: func(t *testing.T, w *engine.EmptyWorkspace) {
				if w.Candidates != 0 || w.Other != 3 || strings.Join(w.Markers, ",") != "package.json" {
					t.Errorf("%+v, want 3 other files and the package.json marker", *w)
				}
			}},
		{name: "sources only in dependencies and build output", files: map[string]string{
			"node_modules/lib/index.js": "module.exports = 1;\n", "node_modules/lib/util.js": "module.exports = 2;\n",
			"packages/a/dist/a.js": "export const a = 1;\n", ".gitignore": "gen/\n", "gen/out.ts": "export const g = 1;\n"},
			check: func(t *testing.T, w *engine.EmptyWorkspace) {
				if w.Candidates != 0 || w.Hidden["node_modules"] != 2 || w.Hidden["dist"] != 1 || w.Hidden["gen"] != 1 {
					t.Errorf("hidden %v, candidates %d: want node_modules 2, dist 1, gen 1", w.Hidden, w.Candidates)
				}
				if d := w.HiddenDirs(); d[0] != "node_modules" {
					t.Errorf("hidden dirs %v: want node_modules first (most files)", d)
				}
			}},
		{name: "every source excluded", files: map[string]string{"src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 1;\n"},
			configure: func(c *config.Config) error { c.Exclude = []string{"src"}; return nil },
			check: func(t *testing.T, w *engine.EmptyWorkspace) {
				if w.Candidates != 2 || strings.Join(w.Exclude, ",") != "src" {
					t.Errorf("%+v, want 2 candidates left out by exclude src", *w)
				}
			}},
		{name: "every source too large", files: map[string]string{"a.ts": big},
			configure: func(c *config.Config) error { c.MaxFileSize = 1024; return nil },
			check: func(t *testing.T, w *engine.EmptyWorkspace) {
				if w.Candidates != 1 || w.Skipped["too-large"] != 1 {
					t.Errorf("candidates %d, skipped %v: want the one file skipped as too large", w.Candidates, w.Skipped)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			testkit.WriteTree(t, root, tt.files)
			w := openEmpty(t, root, tt.configure)
			if w == nil {
				t.Fatal("no empty-workspace report for an index with no files")
			}
			tt.check(t, w)
		})
	}
	t.Run("a workspace with sources", func(t *testing.T) {
		root := t.TempDir()
		testkit.WriteTree(t, root, map[string]string{"a.ts": "export const a = 1;\n"})
		if w := openEmpty(t, root, nil); w != nil {
			t.Errorf("report %+v for a workspace with a source file", *w)
		}
	})
}

// openEmpty indexes root and returns the engine's empty-workspace report.
func openEmpty(t *testing.T, root string, configure func(*config.Config) error) *engine.EmptyWorkspace {
	t.Helper()
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Sync: true,
		Getenv: func(string) string { return "" }, Configure: configure})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w, err := e.MaybeEmpty(ctx, e.LastSync())
	if err != nil {
		t.Fatal(err)
	}
	return w
}
