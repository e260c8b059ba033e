package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// dumpTables is every row of every table of the index (the full-text
// index's shadow tables included), as text.
func dumpTables(t *testing.T, s *Store) string {
	t.Helper()
	tables, err := s.queryStrings(`SELECT name FROM sqlite_master WHERE type = 'table'
		AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, table := range tables {
		cols, err := s.queryStrings(`SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = "quote(" + quoteIdent(c) + ")"
		}
		lines, err := s.queryStrings(`SELECT ` + strings.Join(quoted, ` || ' ' || `) + ` FROM ` + quoteIdent(table) + ` ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range lines {
			fmt.Fprintf(&out, "%s: %s\n", table, line)
		}
	}
	return out.String()
}

// TestBulkInsertsMatch: an index written with the bulk inserts (the C
// build) holds, table for table and byte for byte, what database/sql's
// statements write.
func TestBulkInsertsMatch(t *testing.T) {
	write := func(bulk bool) string {
		useBulk = bulk
		defer func() { useBulk = true }()
		s, err := Open(filepath.Join(t.TempDir(), "index.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		files := map[string][]chunk.Chunk{
			"big.ts":   chunkFile(t, "big.ts", bigClass("Big", 300)),
			"small.ts": chunkFile(t, "small.ts", "export const a = 1;\n\n/** Doc. */\nexport function f(x: number) {\n  return x + a;\n}\n"),
			"empty.ts": nil,
		}
		b, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"big.ts", "empty.ts", "small.ts"} {
			if _, err := b.ReplaceFile(chunkindex.FileRecord{Path: p, Language: "typescript", ContentHash: "h", IndexedAt: 1}, files[p], nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		// A replacement too: deletes through the trigger, then inserts.
		if _, err := s.ReplaceFile(chunkindex.FileRecord{Path: "small.ts", Language: "typescript", ContentHash: "h2", IndexedAt: 2},
			chunkFile(t, "small.ts", "export function g() {\n  return 2;\n}\n")); err != nil {
			t.Fatal(err)
		}
		return dumpTables(t, s)
	}
	withBulk, withSQL := write(true), write(false)
	if withBulk != withSQL {
		a, b := strings.Split(withBulk, "\n"), strings.Split(withSQL, "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("first difference, row %d:\nbulk %.300s\nsql  %.300s", i, a[i], b[i])
			}
		}
		t.Fatalf("bulk wrote %d rows, database/sql %d", len(a), len(b))
	}
	if !strings.Contains(withBulk, "chunks_fts_data") || !strings.Contains(withBulk, "sources:") {
		t.Fatalf("dump misses tables:\n%.500s", withBulk)
	}
}
