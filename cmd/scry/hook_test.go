package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
)

func runHook(t *testing.T, input string) string {
	t.Helper()
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetIn(strings.NewReader(input))
	cmd.SetArgs([]string{"hook", "claude-code"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("hook: %v", err)
	}
	return out.String()
}

// TestClaudeCodeHook feeds the hook what Claude Code sends after a Grep:
// with a scry serve running for the project it answers with scry's best
// matches as additionalContext; without one, or for another tool, it
// prints nothing.
func TestClaudeCodeHook(t *testing.T) {
	cache, err := os.MkdirTemp("", "scryh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	t.Setenv("SCRY_CACHE_DIR", cache)
	root := copyProject(t)
	in := func(tool, pattern string) string {
		b, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": tool, "cwd": filepath.Join(root, "src"),
			"tool_input": map[string]any{"pattern": pattern}})
		return string(b)
	}
	if out := runHook(t, in("Grep", "validateToken\\(")); out != "" {
		t.Errorf("without a server: %q", out)
	}
	e, err := engine.Open(context.Background(), engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "server.db"), Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := serveLocal(ctx, &cobra.Command{}, e)
	defer func() { cancel(); <-stopped }()

	out := runHook(t, in("Grep", "validateToken\\("))
	var got struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if got.HookSpecificOutput.HookEventName != "PostToolUse" || !strings.Contains(got.HookSpecificOutput.AdditionalContext, "validateToken  src/auth/tokenService.ts:") {
		t.Errorf("context: %+v", got)
	}
	if out := runHook(t, in("Read", "x")); out != "" {
		t.Errorf("another tool: %q", out)
	}
	if out := runHook(t, "not json"); out != "" {
		t.Errorf("bad input: %q", out)
	}
}
