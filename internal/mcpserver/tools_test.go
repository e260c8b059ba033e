package mcpserver_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/mcpserver"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestToolAnswers calls every tool in process, on the test project
// without the compiler: each is registered from the one table and answers
// with the rendered text, approximate where the compiler would know better.
func TestToolAnswers(t *testing.T) {
	cs, _ := inProcess(t, 0)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
	}
	if names, want := slices.Sorted(slices.Values(toolNames(t, cs))), slices.Sorted(slices.Values(mcpserver.DefaultTools)); !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	tests := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"codebase_search", map[string]any{"query": "symbol = TokenService > issueToken"}, []string{`Search: "symbol = TokenService > issueToken" | 1 result`, "// src/auth/tokenService.ts"}},
		{"find_symbol", map[string]any{"name": "tknsrv", "mode": "fuzzy"}, []string{"symbol(s) matching", "class TokenService — src/auth/tokenService.ts:7 (lines 7-34)"}},
		{"find_symbol", map[string]any{"name": "nothingLikeThis"}, []string{`No symbol matches "nothingLikeThis".`}},
		{"list_symbols", map[string]any{"path": "src/auth/tokenService.ts"}, []string{"src/auth/tokenService.ts\n  class TokenService [", "    method validateToken"}},
		{"get_symbol_info", map[string]any{"symbol": "TokenService > validateToken"}, []string{"TokenService.validateToken — src/auth/tokenService.ts", "Signature: validateToken(token: string)", "approximate"}},
		{"get_symbol_info", map[string]any{"symbol": "noSuchSymbol"}, []string{`No symbol "noSuchSymbol" in the workspace.`}},
		// A typo in a member's name: the nearest member is named.
		{"get_symbol_info", map[string]any{"symbol": "TokenService > validateTokn"}, []string{`No symbol "TokenService > validateTokn" in the workspace. Nearest symbols:`, "- method TokenService.validateToken — src/auth/tokenService.ts:17"}},
		{"codebase_search", map[string]any{"query": "symbol = TokenServce > validateToken"}, []string{`No symbol "TokenServce > validateToken" in this index. Nearest symbols:`, "- method TokenService.validateToken  src/auth/tokenService.ts:16"}},
		{"find_definition", map[string]any{"symbol": "AuthConfig"}, []string{"class AuthConfig — src/config/auth.ts:"}},
		{"find_definition", map[string]any{"file": "src/middleware/auth.ts", "line": 15, "column": 30}, []string{"method TokenService.validateToken — src/auth/tokenService.ts:17", "(approximate: from the index"}},
		{"find_references", map[string]any{"symbol": "TokenService"}, []string{"TokenService — src/auth/tokenService.ts:7:", "src/middleware/auth.ts\n  1 [import]", "(approximate: from the index"}},
		{"find_implementations", map[string]any{"symbol": "BaseValidator"}, []string{"BaseValidator — src/auth/base.ts: 1 implementation(s)", "  class TokenService — src/auth/tokenService.ts:7"}},
		{"find_importers", map[string]any{"module": "node:crypto"}, []string{"1 import(s) of node:crypto:\nsrc/auth/crypto.ts:1: import"}},
		{"search_files", map[string]any{"pattern": "JWT_SECRET"}, []string{"src/config/auth.ts:", "match(es) in"}},
		{"find_files", map[string]any{"pattern": "*.ts", "path": "src/auth"}, []string{"src/auth/crypto.ts"}},
	}
	for _, tt := range tests {
		got, isErr := call(t, cs, tt.tool, tt.args)
		if isErr {
			t.Errorf("%s %v: tool error: %s", tt.tool, tt.args, got)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s %v: want %q in:\n%s", tt.tool, tt.args, w, got)
			}
		}
	}
}

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
