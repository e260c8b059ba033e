package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestIndexDamagedWhileServing is issue 18 item 11 for a running server:
// pages zeroed after the index was opened (and checked) make queries fail
// with "database disk image is malformed". The call that meets it rebuilds
// the index, answers, and says so; later calls are answered as before.
func TestIndexDamagedWhileServing(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, testkit.Ledger(150))
	idx := filepath.Join(t.TempDir(), "index.db")
	cs := inMemory(t, open(t, engine.Options{Root: root, IndexPath: idx, Sync: true, Getenv: noEnv}))
	ask := func() (string, bool) {
		return call(t, cs, "codebase_search", map[string]any{"query": "symbol = ledgerChecksum77"})
	}
	if text, isErr := ask(); isErr || !strings.Contains(text, "ledgerChecksum77") {
		t.Fatalf("before the damage: %s", text)
	}

	// Zero every other page after the first few under the open server,
	// which checked the index when it opened it.
	db, err := sqlitedb.Open(idx, sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Move every page into the main file first, so that the damage is
	// not hidden behind newer copies in the write-ahead log.
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	for off := 4 * page; off+page <= len(data); off += 2 * page {
		copy(data[off:off+page], make([]byte, page))
	}
	if err := os.WriteFile(idx, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// SQLite keeps the pages it read in memory; an edit makes the next
	// call's sync write, after which every connection reads the file again.
	if err := os.WriteFile(filepath.Join(root, "m001.ts"), []byte("export const edited = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text, isErr := ask()
	if isErr || !strings.Contains(text, "ledgerChecksum77") || !strings.Contains(text, "rebuilt it") {
		t.Fatalf("after the damage: error %v:\n%s", isErr, text)
	}
	if text, isErr := ask(); isErr || !strings.Contains(text, "ledgerChecksum77") || strings.Contains(text, "rebuilt") {
		t.Fatalf("after the rebuild: error %v:\n%s", isErr, text)
	}
}
