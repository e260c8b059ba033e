package engine

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSearchDuringEditsAnswers: a file that changes between the sync and
// the snapshot failed the search — deleted or swapped for something that
// is not a file (a stat or read error), or edited again after every
// re-sync (three stale snapshots in a row). An answer during edits is the
// old version or the new one, never an error: when the file cannot give
// the indexed version's lines, the snapshot comes from the index.
func TestSearchDuringEditsAnswers(t *testing.T) {
	indexed := "export function validateToken(token: string): boolean {\n  return token.length > 0\n}\n"
	e, abs := openOneFile(t, indexed)
	ctx := context.Background()
	mtime := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	restore := func(t *testing.T) {
		t.Helper()
		os.Remove(abs)
		if err := os.WriteFile(abs, []byte(indexed), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		edit func(t *testing.T)
	}{
		{"deleted", func(t *testing.T) {
			if err := os.Remove(abs); err != nil {
				t.Fatal(err)
			}
		}},
		{"a directory now", func(t *testing.T) {
			if err := os.Remove(abs); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(abs, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		// Same size and modification time: every re-sync takes the file
		// for unchanged, so every snapshot of it is stale, as when each
		// re-sync is overtaken by the next edit.
		{"edited after every sync", func(t *testing.T) {
			if err := os.WriteFile(abs, []byte(strings.Replace(indexed, "> 0", "< 9", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(abs, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}},
	}
	noThreshold := 0.0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, q := range []string{"symbol = validateToken", "validate token"} {
				restore(t)
				tt.edit(t)
				ans, err := e.Search(ctx, Query{Text: q, Limit: 1, Threshold: &noThreshold})
				if err != nil {
					t.Fatalf("%q during an edit: %v", q, err)
				}
				if len(ans.Snapshots) != 1 || !strings.Contains(ans.Snapshots[0].Text, "return token.length > 0\n}") {
					t.Fatalf("%q: snapshots during an edit: %+v", q, ans.Snapshots)
				}
			}
			os.Remove(abs)
		})
	}
}
