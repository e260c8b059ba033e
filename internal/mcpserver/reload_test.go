package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/engine"
)

// TestServeReloadsConfig is issue 29 B.14: a long-running server follows
// its workspace's .scry.toml. An exclude added to hide a directory holds
// from the next call, without a restart; a file that no longer loads is an
// error answer (the last configuration stays), and fixing it is enough.
func TestServeReloadsConfig(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"src/app.ts":         "export function start(): string {\n  return 'started';\n}\n",
		"secrets/keys.ts":    "export const paymentKey = 'sk_live_hidden_value';\n",
		"secrets/handler.ts": "export function chargePaymentCard(): string {\n  return 'charged';\n}\n",
	}
	for rel, src := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	e, err := engine.Open(context.Background(), engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: func(string) string { return "" }, Sync: true, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, e)
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return resultText(res), res.IsError
	}
	seen := func() []string {
		t.Helper()
		var found []string
		if out, _ := call("search_files", map[string]any{"pattern": "sk_live"}); strings.Contains(out, "secrets/keys.ts") {
			found = append(found, "search_files")
		}
		if out, _ := call("codebase_search", map[string]any{"query": "symbol = chargePaymentCard"}); strings.Contains(out, "secrets/handler.ts") {
			found = append(found, "codebase_search")
		}
		if out, _ := call("find_files", map[string]any{"pattern": "secrets/**"}); strings.Contains(out, "keys.ts") {
			found = append(found, "find_files")
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
	if out, isErr := call("codebase_search", map[string]any{"query": "start"}); !isErr || !strings.Contains(out, ".scry.toml") {
		t.Errorf("a configuration that does not load: error %v, %q", isErr, out)
	}
	write("exclude = [\"secrets/**\"]\nmaxTokenBudget = 2000\n")
	if out, isErr := call("codebase_search", map[string]any{"query": "start"}); isErr || !strings.Contains(out, "/2,000 tokens") {
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
