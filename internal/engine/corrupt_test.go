package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
)

// TestDamagedIndexIsRebuilt is issue 18 item 11: an index whose pages were
// zeroed opened and synced as healthy, then every search failed with
// "database disk image is malformed". Open must notice, rebuild, and say
// so — but never delete a file named with --index that may not be scry's.
func TestDamagedIndexIsRebuilt(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 120; i++ {
		src := fmt.Sprintf("/** Computes checksum number %d of a ledger. */\nexport function ledgerChecksum%d(values: number[]): number {\n  return values.reduce((a, b) => a + b * %d, 0);\n}\n", i, i, i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("m%03d.ts", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The default index path, in scry's cache, and a path named with --index.
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := engine.DefaultIndexPath(real)
	if err != nil {
		t.Fatal(err)
	}
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
			e, err := open(nil)
			if err != nil {
				t.Fatal(err)
			}
			e.Close()
			data, err := os.ReadFile(idx)
			if err != nil {
				t.Fatal(err)
			}
			damaged := tt.damage(t, data)
			if err := os.WriteFile(idx, damaged, 0o644); err != nil {
				t.Fatal(err)
			}

			var warnings []string
			e, err = open(func(err error) { warnings = append(warnings, err.Error()) })
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
