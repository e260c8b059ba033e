package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/mcpserver"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tokens"
)

type facts struct {
	Tools          []string       `json:"tools"`
	SchemaJSON     string         `json:"schemaJSON"`
	SearchItems    int            `json:"searchItems"`
	ProgressEvents int            `json:"progressEvents"`
	Calls          map[string]int `json:"calls"`
	Errors         int            `json:"errors"`
	Refused        bool           `json:"refused"`
	DeepRefused    bool           `json:"deepRefused"`
	Failures       []string       `json:"failures"`
}

func runClient(t *testing.T, mode string) facts {
	t.Helper()
	clientDir := testkit.Need(t, "SCRY_MCP_CLIENT", "SCRY_REQUIRE_MCP")
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is required for the MCP end-to-end tests")
	}
	bin := testkit.BuildScry(t)
	root := testkit.Fixture(t, "project")
	cmd := exec.Command("node", "testdata/client.mjs", mode)
	cmd.Env = append(os.Environ(),
		"SCRY_BIN="+bin,
		"SCRY_ROOT="+root,
		"SCRY_INDEX="+filepath.Join(t.TempDir(), "index.db"),
		"SCRY_MCP_CLIENT="+clientDir,
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var f facts
	line := strings.TrimSpace(stdout.String())
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	if jerr := json.Unmarshal([]byte(line), &f); jerr != nil {
		t.Fatalf("client output is not JSON (%v): %s\nstderr: %s", jerr, stdout.String(), stderr.String())
	}
	for _, msg := range f.Failures {
		t.Error(msg)
	}
	if err != nil && len(f.Failures) == 0 {
		t.Fatalf("client failed: %v\n%s", err, stderr.String())
	}
	if want := slices.Sorted(slices.Values(mcpserver.DefaultTools)); !slices.Equal(f.Tools, want) {
		t.Errorf("tools = %v, want %v", f.Tools, want)
	}
	if f.Errors < 10 || f.Calls["find_symbol"] < 4 || f.SearchItems < 2 || !f.DeepRefused {
		t.Errorf("client did not exercise everything: %+v", f)
	}
	t.Logf("%s: %d tools, schema %d tokens, %d progress events", mode, len(f.Tools), tokens.Count(f.SchemaJSON), f.ProgressEvents)
	return f
}

// TestStdioWithRealClient drives `scry serve` over stdio with the official
// MCP TypeScript client: every tool, the multi-content shape, an edit
// between calls, and tool errors on bad input.
func TestStdioWithRealClient(t *testing.T) {
	f := runClient(t, "stdio")
	if f.ProgressEvents == 0 {
		t.Error("the first call on an unindexed workspace reported no progress")
	}
}

// TestHTTPWithRealClient does the same over streamable HTTP, after checking
// that requests without the token (or from a foreign origin) are refused.
func TestHTTPWithRealClient(t *testing.T) {
	f := runClient(t, "http")
	if !f.Refused {
		t.Error("unauthenticated requests were not checked")
	}
}
