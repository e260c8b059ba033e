package engine_test

import (
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
// "database disk image is malformed". Open must notice, rebuild, and say so.
func TestDamagedIndexIsRebuilt(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 120; i++ {
		src := fmt.Sprintf("/** Computes checksum number %d of a ledger. */\nexport function ledgerChecksum%d(values: number[]): number {\n  return values.reduce((a, b) => a + b * %d, 0);\n}\n", i, i, i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("m%03d.ts", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx := filepath.Join(t.TempDir(), "index.db")
	tests := []struct {
		name   string
		damage func(t *testing.T, data []byte) []byte
	}{
		{"zeroed pages", func(t *testing.T, data []byte) []byte {
			const page = 4096
			if len(data) < 8*page {
				t.Fatalf("index of %d bytes: too small to damage in the middle", len(data))
			}
			for off := 2 * page; off < len(data); off += 2 * page {
				copy(data[off:off+page], make([]byte, page))
			}
			return data
		}},
		{"not a database", func(t *testing.T, data []byte) []byte {
			copy(data, make([]byte, 100))
			return data
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			open := func(warn func(error)) (*engine.Engine, error) {
				return engine.Open(context.Background(), engine.Options{Root: root, IndexPath: idx, Sync: true,
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
			if err := os.WriteFile(idx, tt.damage(t, data), 0o644); err != nil {
				t.Fatal(err)
			}

			var warnings []string
			e, err = open(func(err error) { warnings = append(warnings, err.Error()) })
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
