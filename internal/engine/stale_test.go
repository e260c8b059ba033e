package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchSnapshotFromTheIndexedVersion: a file edited after the index
// was read (as by an editor's atomic rename during a question) used to be
// snapshotted at the old chunk's lines: "target lines outside the file",
// or other code than the symbol found. The answer now comes from one
// version of the file.
func TestSearchSnapshotFromTheIndexedVersion(t *testing.T) {
	body := "export function validateToken(token: string): boolean {\n  return token.length > 0\n}\n"
	filler := strings.Repeat("export const x = 1\n", 3)
	e, abs := openOneFile(t, filler+body)
	ctx := context.Background()
	tests := []struct {
		name string
		text string // the file as edited after the index was read
	}{
		{"shorter", body}, // the chunk's lines are past the end
		{"shifted", "let a = 1\nlet b = 2\nlet c = 3\nlet d = 4\n" + body}, // other lines at the chunk's place
	}
	// restore puts the indexed version back and syncs it; edit then
	// replaces the file by an atomic rename, as an editor does, without a
	// sync, so the next question meets an index older than the file.
	restore := func(t *testing.T) {
		t.Helper()
		if err := os.WriteFile(abs, []byte(filler+body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(t *testing.T, text string) {
		t.Helper()
		if err := os.WriteFile(abs+".tmp", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(abs+".tmp", abs); err != nil {
			t.Fatal(err)
		}
	}
	noThreshold := 0.0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer restore(t) // for the next case
			for _, q := range []string{"symbol = validateToken", "validate token"} {
				edit(t, tt.text)
				// One result, whatever its probability: the check below is
				// about which version of the file the function's snapshot
				// comes from, not about what the ranker selects or how
				// confident it is in a one-function workspace.
				ans, err := e.Search(ctx, Query{Text: q, Limit: 1, Threshold: &noThreshold})
				if err != nil {
					t.Fatalf("%q after an edit: %v", q, err)
				}
				if len(ans.Snapshots) != 1 || !strings.Contains(ans.Snapshots[0].Text, "return token.length > 0\n}") ||
					strings.Contains(ans.Snapshots[0].Text, "let d") {
					t.Fatalf("%q: snapshots after an edit: %+v (response %+v)", q, ans.Snapshots, ans.Response)
				}
				// Back to the indexed version, so the next query meets
				// the same edit.
				restore(t)
			}
		})
	}
}

// openOneFile opens, synced, a new workspace holding a.ts with text; abs
// is the file's path. The engine is closed when the test ends.
func openOneFile(t *testing.T, text string) (e *Engine, abs string) {
	t.Helper()
	root := t.TempDir()
	abs = filepath.Join(root, "a.ts")
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Open(context.Background(), Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: func(string) string { return "" }, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, abs
}
