package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestSymbolInfoWithoutCompiler is issue 18 item 12: without TypeScript 7,
// get_symbol_info over MCP answers from the index, says so, and counts
// the files that use the symbol (it once dropped the note and said
// "refs: 0 files" while other files called it).
func TestSymbolInfoWithoutCompiler(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{
		"src/ping.ts":   "/** Answers pong. */\nexport function ping(): string {\n  return 'pong';\n}\n\nexport class Pinger {\n  run(): string {\n    return ping();\n  }\n}\n",
		"src/a.ts":      "import { ping } from './ping';\nexport function callA() {\n  return ping();\n}\n",
		"src/b.ts":      "import { ping, Pinger } from './ping';\nexport const callB = () => ping() + new Pinger().run();\n",
		"src/unused.ts": "export function lonely() {\n  return 1;\n}\n",
	})
	cs := inMemory(t, open(t, engine.Options{Root: root, Getenv: noEnv, Compiler: engine.CompilerOff}))

	tests := []struct {
		symbol, refs string
	}{
		{"ping", "refs: 2 files"}, // a.ts and b.ts; the count is of other files
		{"Pinger", "refs: 1 file"},
		{"lonely", "refs: 0 files"}, // nothing uses it: zero is the truth here
	}
	for _, tt := range tests {
		text, isErr := call(t, cs, "get_symbol_info", map[string]any{"symbol": tt.symbol})
		if isErr || !strings.Contains(text, "approximate") {
			t.Errorf("%s: the answer does not say it is approximate:\n%s", tt.symbol, text)
		}
		if !strings.Contains(text, tt.refs) {
			t.Errorf("%s: want %q:\n%s", tt.symbol, tt.refs, text)
		}
	}
}
