package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestDamagedIndexIsRebuilt is issue 18 item 11: an index whose pages were
// zeroed opened and synced as healthy, then every search failed with
// "database disk image is malformed". Open must notice, rebuild, and say
// so — but never delete a file named with --index that may not be scry's.
func TestDamagedIndexIsRebuilt(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, testkit.Ledger(120))
	// The default index path, in scry's cache, and a path named with --index.
	cached := cachedIndexPath(t, root)
	named := filepath.Join(t.TempDir(), "index.db")

	zeroPages := func(t *testing.T, data []byte) []byte {
		const page = 4096
		if len(data) < 8*page {
			t.Fatalf("index of %d bytes: too small to damage in the middle", len(data))
		}
		for off := 2 * page; off < len(data); off += 2 * page {
			copy(data[off:off+page], make([]byte, page))
		}
		return data
	}
	notSQLite := func(t *testing.T, data []byte) []byte {
		copy(data, make([]byte, 100))
		return data
	}
	tests := []struct {
		name    string
		flag    string // --index, "" for the default path
		damage  func(t *testing.T, data []byte) []byte
		rebuilt bool // else refused, the file kept
	}{
		{"zeroed pages, named index", named, zeroPages, true},
		{"zeroed pages, cached index", "", zeroPages, true},
		{"not SQLite, cached index", "", notSQLite, true},
		// A named file that is not SQLite may be anything of the user's.
		{"not SQLite, named index", named, notSQLite, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx := tt.flag
			if idx == "" {
				idx = cached
			}
			open := func(warn func(error)) (*engine.Engine, error) {
				return engine.Open(context.Background(), engine.Options{Root: root, IndexPath: tt.flag, Sync: true,
					Getenv: func(string) string { return "" }, Warn: warn})
			}
			syncIndex(t, root, tt.flag)
			data, err := os.ReadFile(idx)
			if err != nil {
				t.Fatal(err)
			}
			damaged := tt.damage(t, data)
			if err := os.WriteFile(idx, damaged, 0o644); err != nil {
				t.Fatal(err)
			}

			var warnings []string
			e, err := open(func(err error) { warnings = append(warnings, err.Error()) })
			if !tt.rebuilt {
				if err == nil || !strings.Contains(err.Error(), "not deleting") {
					t.Errorf("open of a damaged file named with --index: %v, want a refusal", err)
				}
				if kept, _ := os.ReadFile(idx); !bytes.Equal(kept, damaged) {
					t.Error("a file named with --index was changed")
				}
				if e != nil {
					e.Close()
				}
				return
			}
			if err != nil {
				t.Fatalf("open of a damaged index: %v", err)
			}
			defer e.Close()
			if !strings.Contains(strings.Join(warnings, "\n"), "rebuilt") {
				t.Errorf("no word of the rebuild: %q", warnings)
			}
			ans, err := e.Search(context.Background(), engine.Query{Text: "symbol = ledgerChecksum77", CallDepth: 1})
			if err != nil {
				t.Fatalf("search after reopening: %v", err)
			}
			if len(ans.Response.Results) != 1 {
				t.Errorf("search found %d results, want ledgerChecksum77", len(ans.Response.Results))
			}
			if files, _, _ := e.Store().Stats(); files != 120 {
				t.Errorf("rebuilt index has %d files, want 120", files)
			}
		})
	}
}

// TestInconsistentIndexIsRebuilt: an index whose rows disagree with each
// other — here a file row renumbered, so that its chunks belong to no file
// — passes SQLite's quick check (and its full integrity check: each table
// and index is sound alone). The next sync of that file inserted its
// chunks again beside the orphans and failed, "UNIQUE constraint failed",
// on every command for good. A unique-constraint failure while syncing is
// taken for such damage: the index is rebuilt, with a note.
func TestInconsistentIndexIsRebuilt(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx := filepath.Join(t.TempDir(), "index.db")
	open := func(warn func(error)) (*engine.Engine, error) {
		return engine.Open(context.Background(), engine.Options{Root: root, IndexPath: idx, Sync: true,
			Getenv: func(string) string { return "" }, Warn: warn})
	}
	write("a.ts", "export function alpha(): number {\n  return 1;\n}\n")
	write("b.ts", "export function beta(): number {\n  return 2;\n}\n")
	syncIndex(t, root, idx)

	db, err := sqlitedb.Open(idx, sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE files SET id = 99 WHERE path = 'a.ts'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	st, err := store.Open(idx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.QuickCheck(context.Background()); err != nil {
		t.Fatalf("the damage should pass the quick check: %v", err)
	}
	st.Close()

	write("a.ts", "export function alpha(): number {\n  return 10;\n}\n")
	for i := range 2 { // the second open finds a healthy index
		var warnings []string
		e, err := open(func(err error) { warnings = append(warnings, err.Error()) })
		if err != nil {
			t.Fatalf("open %d after the damage: %v", i+1, err)
		}
		ans, err := e.Search(context.Background(), engine.Query{Text: "symbol = alpha", CallDepth: 1})
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		if len(ans.Response.Results) != 1 || !strings.Contains(ans.Response.Results[0].Chunk.FullSource, "return 10") {
			t.Errorf("search for alpha: %d results, want the edited one", len(ans.Response.Results))
		}
		if files, _, _ := e.Store().Stats(); files != 2 {
			t.Errorf("index has %d files, want 2", files)
		}
		e.Close()
		note := strings.Join(warnings, "\n")
		if rebuilt := strings.Contains(note, "rebuilt"); rebuilt != (i == 0) {
			t.Errorf("open %d: warnings %q", i+1, warnings)
		}
	}
}

// TestDefaultIndexFoldersArePrivate: the folders scry keeps a workspace's
// index in are closed to other users, also when an older scry made them
// 0755, and so is the index itself.
func TestDefaultIndexFoldersArePrivate(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte("export const secret = 'sk-live';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	idx := cachedIndexPath(t, root)
	if err := os.MkdirAll(filepath.Dir(idx), 0o755); err != nil {
		t.Fatal(err)
	}
	syncIndex(t, root, "")
	for p, want := range map[string]os.FileMode{filepath.Dir(idx): 0o700, filepath.Dir(filepath.Dir(idx)): 0o700, idx: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
	}
}

// syncIndex opens the workspace at root with its index at path ("" for
// the default one) and no environment, syncs it and closes it: the index a
// later open finds.
func syncIndex(t *testing.T, root, path string) {
	t.Helper()
	e, err := engine.Open(context.Background(), engine.Options{Root: root, IndexPath: path, Sync: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
}

// cachedIndexPath is root's default index path, in a cache directory of
// the test's own (SCRY_CACHE_DIR).
func cachedIndexPath(t *testing.T, root string) string {
	t.Helper()
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := engine.DefaultIndexPath(real)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}
