package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/mcpserver"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tokens"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// Sizes an agent pays for on every turn: each tool's description, all the
// tools' schemas together (what tools/list returns) and the server's
// instructions. The limits leave some room above today's sizes, so that a
// tool that grows its description or arguments is noticed here.
const (
	maxDescriptionTokens  = 60
	maxSchemaTokens       = 1_700
	maxInstructionsTokens = 300
)

// TestToolAnnotationsAndSizes checks what clients read before calling: every
// tool is titled and annotated read-only (so a client may auto-approve it),
// idempotent and closed-world; descriptions, the whole schema and the
// instructions stay within their token limits; and it pins the listing in
// testdata/schema.txtar (go test -update rewrites it) for review.
func TestToolAnnotationsAndSizes(t *testing.T) {
	cs := inMemory(t, open(t, engine.Options{Root: testkit.Fixture(t, "project"), Getenv: noEnv}))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != len(mcpserver.DefaultTools) {
		t.Errorf("%d tools listed, want %d", len(list.Tools), len(mcpserver.DefaultTools))
	}
	var files []golden.File
	for _, tool := range list.Tools {
		a := tool.Annotations
		switch {
		case a == nil:
			t.Errorf("%s: no annotations", tool.Name)
			continue
		case !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint:
			t.Errorf("%s: annotations %+v, want read-only, idempotent, closed-world", tool.Name, *a)
		case a.Title == "":
			t.Errorf("%s: no title", tool.Name)
		}
		if n := tokens.Count(tool.Description); n > maxDescriptionTokens {
			t.Errorf("%s: description is %d tokens, over %d", tool.Name, n, maxDescriptionTokens)
		}
		schema, err := json.MarshalIndent(tool.InputSchema, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		ann, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, golden.File{Name: tool.Name, Data: "annotations: " + string(ann) +
			"\ndescription: " + tool.Description + "\ninput schema: " + string(schema)})
	}
	all, err := json.Marshal(list.Tools)
	if err != nil {
		t.Fatal(err)
	}
	schemaTokens := tokens.Count(string(all))
	if schemaTokens > maxSchemaTokens {
		t.Errorf("the tools' schemas are %d tokens together, over %d", schemaTokens, maxSchemaTokens)
	}
	instructions := cs.InitializeResult().Instructions
	instrTokens := tokens.Count(instructions)
	if instrTokens > maxInstructionsTokens {
		t.Errorf("the instructions are %d tokens, over %d", instrTokens, maxInstructionsTokens)
	}
	for _, name := range mcpserver.DefaultTools {
		if !strings.Contains(instructions, name) {
			t.Errorf("the instructions do not say when to use %s", name)
		}
	}
	// What the titles and annotations cost, for the record.
	bare := make([]mcp.Tool, len(list.Tools))
	for i, tool := range list.Tools {
		bare[i] = *tool
		bare[i].Title, bare[i].Annotations = "", nil
	}
	bareJSON, err := json.Marshal(bare)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tools: schemas %d tokens (%d without titles and annotations), instructions %d tokens",
		len(list.Tools), schemaTokens, tokens.Count(string(bareJSON)), instrTokens)
	files = append(files, golden.File{Name: "instructions", Data: instructions})
	golden.Check(t, "testdata/schema.txtar", files)
}

// TestInstructionsFollowTools checks that the instructions name only the
// tools a server exposes.
func TestInstructionsFollowTools(t *testing.T) {
	for _, tc := range []struct {
		names         []string
		want, notWant []string
	}{
		{[]string{"codebase_search"}, []string{"codebase_search"}, []string{"find_symbol", "search_files"}},
		{[]string{"find_references", "find_files"}, []string{"find_references", "find_files"}, []string{"codebase_search"}},
	} {
		got := mcpserver.Instructions(tc.names)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("Instructions(%v) lacks %s:\n%s", tc.names, w, got)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(got, w) {
				t.Errorf("Instructions(%v) names %s:\n%s", tc.names, w, got)
			}
		}
	}
}

// TestEmptyWorkspaceAnswer checks that every tool's answer on a workspace
// with no TypeScript/JavaScript files says so and what to do, rather than
// an unexplained empty answer.
func TestEmptyWorkspaceAnswer(t *testing.T) {
	cs := inMemory(t, open(t, engine.Options{Root: t.TempDir(), Getenv: noEnv}))
	for _, c := range []toolCall{
		{"codebase_search", map[string]any{"query": "where are tokens validated"}},
		{"find_symbol", map[string]any{"name": "TokenService"}},
		{"find_files", map[string]any{"pattern": "*.ts"}},
	} {
		if text, _ := call(t, cs, c.tool, c.args); !strings.Contains(text, "The index is empty: no TypeScript or JavaScript files") || !strings.Contains(text, "--root") {
			t.Errorf("%s: answer does not say the workspace is empty:\n%s", c.tool, text)
		}
	}
}

// TestChangeImpactTool asks change_impact about an edit to add() in a git
// repository of testdata/impact: the answer names the changed symbol, its
// caller and the test that reaches it; a revision that is an option is an
// error answer.
func TestChangeImpactTool(t *testing.T) {
	root := testkit.Fixture(t, "impact")
	testkit.GitRepo(t, root)
	p := filepath.Join(root, "src", "money.ts")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), "return round(a + b);", "return round(b + a);", 1)), 0o644)
	cs := inMemory(t, open(t, engine.Options{Root: root, Getenv: noEnv}))
	text, _ := call(t, cs, "change_impact", map[string]any{})
	for _, want := range []string{"function add — src/money.ts:7", "src/cart.ts", "test/cart.test.ts"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	if text, isErr := call(t, cs, "change_impact", map[string]any{"rev": "--output=/tmp/x"}); !isErr || !strings.Contains(text, "is not a revision") {
		t.Errorf("an option as rev: error %v, %s", isErr, text)
	}
}

// TestLoadingNote starts a TypeScript 7 that never answers, as a slow
// start looks from outside, with compilerWait 0: a structure tool's answer
// comes from the index and ends with a note saying TypeScript 7 is still
// loading; a tool that needs no structure has no note. Once the start has
// failed (initialize unanswered within its timeout) the note is gone and
// the answers say why.
func TestLoadingNote(t *testing.T) {
	bin := tslstest.Silent(t)
	e := open(t, engine.Options{Root: testkit.Fixture(t, "project"), Sync: true,
		Compiler: engine.CompilerBackground, Getenv: noEnv,
		Configure: func(c *config.Config) error { c.TSGo = bin; c.CompilerWait = 0; return nil }})
	cs := inMemory(t, e)
	refs, _ := call(t, cs, "find_references", map[string]any{"symbol": "TokenService"})
	if !strings.Contains(refs, "Note: TypeScript 7 is still loading the project (") {
		t.Errorf("find_references while loading:\n%s", refs)
	}
	if files, _ := call(t, cs, "find_files", map[string]any{"pattern": "*.ts"}); strings.Contains(files, "still loading") {
		t.Errorf("find_files carries the note:\n%s", files)
	}
	for e.CompilerStatus().Phase == engine.CompilerLoading {
		time.Sleep(100 * time.Millisecond)
	}
	refs, _ = call(t, cs, "find_references", map[string]any{"symbol": "TokenService"})
	if strings.Contains(refs, "Note: TypeScript 7 is still loading") || !strings.Contains(refs, "did not start") {
		t.Errorf("after the failed start:\n%s", refs)
	}
}
