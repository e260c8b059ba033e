package mcpserver_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestToolOutputGolden pins the whole text agents receive from each tool
// (testdata/tools.txtar; go test -update rewrites it), served in process
// over the SDK's in-memory transport, on the test project without the
// compiler and without ranking (symbol lookups only), so that the text
// changes only when rendering or structure does. The real MCP client over
// stdio and HTTP is TestStdioWithRealClient's job.
func TestToolOutputGolden(t *testing.T) {
	ctx := context.Background()
	cs := inMemory(t, open(t, engine.Options{Root: testkit.Fixture(t, "project"), Getenv: noEnv}))

	calls := []toolCall{
		{"codebase_search", map[string]any{"query": "symbol = TokenService > issueToken"}},
		{"codebase_search", map[string]any{"query": "symbol = noSuchSymbol"}},
		{"find_symbol", map[string]any{"name": "TokenService"}},
		{"find_symbol", map[string]any{"name": "valid", "mode": "prefix"}},
		{"find_symbol", map[string]any{"name": "tknsrv", "mode": "fuzzy"}},
		{"list_symbols", map[string]any{"path": "src/auth"}},
		{"get_symbol_info", map[string]any{"symbol": "TokenService > validateToken"}},
		{"get_symbol_info", map[string]any{"symbol": "AuthConfig"}},
		{"get_symbol_info", map[string]any{"symbol": "noSuchSymbol"}},
		{"find_definition", map[string]any{"symbol": "getSecret"}},
		{"find_definition", map[string]any{"file": "src/middleware/auth.ts", "line": 15, "column": 30}},
		{"find_references", map[string]any{"symbol": "TokenService"}},
		{"find_references", map[string]any{"symbol": "hmac", "limit": 2}},
		{"find_implementations", map[string]any{"symbol": "BaseValidator"}},
		{"find_importers", map[string]any{"module": "src/auth/tokenService.ts"}},
		{"find_importers", map[string]any{"module": "node:crypto"}},
		{"find_importers", map[string]any{"module": "left-pad"}},
		{"search_files", map[string]any{"pattern": "JWT_SECRET"}},
		{"search_files", map[string]any{"pattern": "valid\\w+Token", "regex": true, "path": []string{"src/middleware"}}},
		{"find_files", map[string]any{"pattern": "*.ts", "path": "src/auth"}},
		{"list_symbols", map[string]any{"path": "/etc/passwd"}},
	}
	var got []golden.File
	for _, c := range calls {
		args := argsJSON(c.args)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, args, err)
		}
		var parts []string
		for _, content := range res.Content {
			tc, ok := content.(*mcp.TextContent)
			if !ok {
				t.Fatalf("%s %s: %T content", c.tool, args, content)
			}
			head := "text"
			if res.IsError {
				head = "error"
			}
			if a := tc.Annotations; a != nil {
				head += " audience=" + strings.Join(rolesOf(a.Audience), ",")
				if a.Priority != 0 {
					head += " priority=" + strconv.FormatFloat(a.Priority, 'f', -1, 64)
				}
			}
			parts = append(parts, "["+head+"]\n"+strings.TrimRight(tc.Text, "\n"))
		}
		got = append(got, golden.File{Name: c.tool + " " + args, Data: strings.Join(parts, "\n")})
	}
	golden.Check(t, "testdata/tools.txtar", got)
}

func rolesOf(rs []mcp.Role) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// argsJSON is the arguments as an agent would send them (keys sorted,
// ">" not escaped), to name the call in the archive.
func argsJSON(args map[string]any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		panic(err)
	}
	return strings.TrimSpace(b.String())
}
