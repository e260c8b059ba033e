package mcpserver_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

// TestSharedIndexTools: a server of the shared index offers
// codebase_search alone, unless the machine has the repository checked
// out; then the structure tools answer from the checkout.
func TestSharedIndexTools(t *testing.T) {
	env := weaviatetest.Env(t, "")
	repo := weaviatetest.Tenant(t, env, "mcp")
	env["SCRY_REPO"], env["SCRY_TSGO"] = repo, tslstest.Binary(t)
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{
		"src/crypto.ts": "export function hmac(data: string): string {\n  return data.split('').reverse().join('');\n}\n",
		"src/token.ts":  "import { hmac } from './crypto';\n\n/** Signs a token. */\nexport function sign(token: string): string {\n  return hmac(token);\n}\n",
	})
	getenv := func(k string) string { return env[k] }
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: getenv, Sync: true, Publish: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	e.Close()

	tools := func(cs *mcp.ClientSession) []string {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		return names
	}
	open := func() *engine.Engine {
		s, err := engine.Open(ctx, engine.Options{Root: t.TempDir(), Getenv: getenv, Sync: true, Compiler: engine.CompilerWait, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := tools(inMemory(t, open())); !slices.Equal(got, []string{"codebase_search"}) {
		t.Errorf("without a checkout the server offers %v, want codebase_search alone", got)
	}

	env["SCRY_CHECKOUTS"] = repo + "=" + root
	cs := inMemory(t, open())
	if got := tools(cs); !slices.Contains(got, "find_references") || !slices.Contains(got, "codebase_search") {
		t.Fatalf("with a checkout the server offers %v, want the structure tools too", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_references", Arguments: map[string]any{"symbol": "hmac"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(res); res.IsError || !strings.Contains(text, "src/token.ts") {
		t.Errorf("find_references hmac on the checkout:\n%s", text)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "codebase_search", Arguments: map[string]any{"query": "sign a token"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(res); res.IsError || !strings.Contains(text, "sign") {
		t.Errorf("codebase_search on the shared index:\n%s", text)
	}
	// The served set is a boundary (issue 29 B.18): a client cannot
	// widen it with the repos argument.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "codebase_search", Arguments: map[string]any{"query": "sign a token", "repos": []string{"someone_else"}}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(res); !res.IsError || !strings.Contains(text, "not served") {
		t.Errorf("codebase_search with a repository outside the served set:\n%s", text)
	}
}
