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

// TestSymbolInfoWithoutCompiler is issue 18 item 12: without TypeScript 7,
// get_symbol_info over MCP answers from the index, says so, and counts
// the files that use the symbol (it once dropped the note and said
// "refs: 0 files" while other files called it).
func TestSymbolInfoWithoutCompiler(t *testing.T) {
	root := t.TempDir()
	for rel, src := range map[string]string{
		"src/ping.ts":   "/** Answers pong. */\nexport function ping(): string {\n  return 'pong';\n}\n\nexport class Pinger {\n  run(): string {\n    return ping();\n  }\n}\n",
		"src/a.ts":      "import { ping } from './ping';\nexport function callA() {\n  return ping();\n}\n",
		"src/b.ts":      "import { ping, Pinger } from './ping';\nexport const callB = () => ping() + new Pinger().run();\n",
		"src/unused.ts": "export function lonely() {\n  return 1;\n}\n",
	} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"),
		Getenv: func(string) string { return "" }, Compiler: engine.CompilerOff})
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, e)

	tests := []struct {
		symbol, refs string
	}{
		{"ping", "refs: 2 files"}, // a.ts and b.ts; the count is of other files
		{"Pinger", "refs: 1 file"},
		{"lonely", "refs: 0 files"}, // nothing uses it: zero is the truth here
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_symbol_info", Arguments: map[string]any{"symbol": tt.symbol}})
		if err != nil {
			t.Fatal(err)
		}
		text := resultText(res)
		if res.IsError || !strings.Contains(text, "approximate") {
			t.Errorf("%s: the answer does not say it is approximate:\n%s", tt.symbol, text)
		}
		if !strings.Contains(text, tt.refs) {
			t.Errorf("%s: want %q:\n%s", tt.symbol, tt.refs, text)
		}
	}
}
