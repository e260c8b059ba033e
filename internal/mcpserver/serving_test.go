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

// TestServeReloadsConfig is issue 29 B.14: a long-running server follows
// its workspace's .scry.toml. An exclude added to hide a directory holds
// from the next call, without a restart; a file that no longer loads is an
// error answer (the last configuration stays), and fixing it is enough.
func TestServeReloadsConfig(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{
		"src/app.ts":         "export function start(): string {\n  return 'started';\n}\n",
		"secrets/keys.ts":    "export const paymentKey = 'sk_live_hidden_value';\n",
		"secrets/handler.ts": "export function chargePaymentCard(): string {\n  return 'charged';\n}\n",
	})
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cs := inMemory(t, open(t, engine.Options{Root: root, Getenv: noEnv, Sync: true, Watch: true}))
	// Each tool's way to the secrets, and what its answer shows when it
	// finds them.
	probes := []struct {
		tool  string
		args  map[string]any
		shows string
	}{
		{"search_files", map[string]any{"pattern": "sk_live"}, "secrets/keys.ts"},
		{"codebase_search", map[string]any{"query": "symbol = chargePaymentCard"}, "secrets/handler.ts"},
		{"find_files", map[string]any{"pattern": "secrets/**"}, "keys.ts"},
	}
	seen := func() []string {
		t.Helper()
		var found []string
		for _, p := range probes {
			if out, _ := call(t, cs, p.tool, p.args); strings.Contains(out, p.shows) {
				found = append(found, p.tool)
			}
		}
		return found
	}
	if got := seen(); len(got) != 3 {
		t.Fatalf("before the exclude, the secrets are found by %v; want every tool", got)
	}

	write := func(s string) {
		if err := os.WriteFile(filepath.Join(root, ".scry.toml"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("exclude = [\"secrets/**\"]\n")
	if got := seen(); len(got) != 0 {
		t.Errorf("after the exclude, the secrets are still found by %v", got)
	}

	write("exclude = [\"secrets/**\"\n") // broken
	if out, isErr := call(t, cs, "codebase_search", map[string]any{"query": "start"}); !isErr || !strings.Contains(out, ".scry.toml") {
		t.Errorf("a configuration that does not load: error %v, %q", isErr, out)
	}
	write("exclude = [\"secrets/**\"]\nmaxTokenBudget = 2000\n")
	if out, isErr := call(t, cs, "codebase_search", map[string]any{"query": "start"}); isErr || !strings.Contains(out, "/2,000 tokens") {
		t.Errorf("fixed: error %v, budget not taken:\n%s", isErr, out)
	}
	if got := seen(); len(got) != 0 {
		t.Errorf("after the fix, the secrets are found by %v", got)
	}
	os.Remove(filepath.Join(root, ".scry.toml"))
	if got := seen(); len(got) != 3 {
		t.Errorf("without the file again, the secrets are found by %v; want every tool", got)
	}
}

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
