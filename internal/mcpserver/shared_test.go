package mcpserver_test

import (
	"context"
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
	testkit.WriteTree(t, root, testkit.Signer())
	getenv := func(k string) string { return env[k] }
	if _, err := open(t, engine.Options{Root: root, Getenv: getenv, Sync: true, Publish: true}).Publish(context.Background()); err != nil {
		t.Fatal(err)
	}

	// A server of the shared index, on an empty folder of its own.
	serve := func() *mcp.ClientSession {
		return inMemory(t, open(t, engine.Options{Root: t.TempDir(), Getenv: getenv, Sync: true, Compiler: engine.CompilerWait, CacheDir: t.TempDir()}))
	}
	if got := toolNames(t, serve()); !slices.Equal(got, []string{"codebase_search"}) {
		t.Errorf("without a checkout the server offers %v, want codebase_search alone", got)
	}

	env["SCRY_CHECKOUTS"] = repo + "=" + root
	cs := serve()
	if got := toolNames(t, cs); !slices.Contains(got, "find_references") || !slices.Contains(got, "codebase_search") {
		t.Fatalf("with a checkout the server offers %v, want the structure tools too", got)
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
		isError    bool
	}{
		{"find_references hmac on the checkout", "find_references", map[string]any{"symbol": "hmac"}, "src/token.ts", false},
		{"codebase_search on the shared index", "codebase_search", map[string]any{"query": "sign a token"}, "sign", false},
		// The served set is a boundary (issue 29 B.18): a client cannot
		// widen it with the repos argument.
		{"codebase_search with a repository outside the served set", "codebase_search", map[string]any{"query": "sign a token", "repos": []string{"someone_else"}}, "not served", true},
	}
	for _, tt := range tests {
		if text, isErr := call(t, cs, tt.tool, tt.args); isErr != tt.isError || !strings.Contains(text, tt.want) {
			t.Errorf("%s: error %v:\n%s", tt.name, isErr, text)
		}
	}
}
