package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/mcpserver"
	"github.com/scry-dev/scry/internal/tokens"
)

// buildScry compiles the real binary once per test run.
func buildScry(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "scry")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/scry-dev/scry/cmd/scry")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build scry: %v\n%s", err, out)
	}
	return bin
}

func mcpClientDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SCRY_MCP_CLIENT")
	if dir == "" {
		if os.Getenv("SCRY_REQUIRE_MCP") == "1" {
			t.Fatal("SCRY_MCP_CLIENT is not set but SCRY_REQUIRE_MCP=1 (run scripts/testdeps.sh)")
		}
		t.Skip("SCRY_MCP_CLIENT not set (run scripts/testdeps.sh and source .cache/testdeps/env)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is required for the MCP end-to-end tests")
	}
	return dir
}

// copyTree copies the test project so the test can edit it.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

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
	clientDir := mcpClientDir(t)
	bin := buildScry(t)
	root := filepath.Join(t.TempDir(), "project")
	copyTree(t, "../../testdata/project", root)
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
	want := append([]string{}, mcpserver.DefaultTools...)
	sort.Strings(want)
	if strings.Join(f.Tools, ",") != strings.Join(want, ",") {
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
