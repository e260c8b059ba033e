package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

func runHook(t *testing.T, input string) string {
	t.Helper()
	out, err := runScryWith(t, input, "hook", "claude-code")
	if err != nil {
		t.Fatalf("hook: %v", err)
	}
	return out
}

// TestClaudeCodeHook feeds the hook what Claude Code sends after a Grep:
// with a scry serve running for the project it answers with scry's best
// matches as additionalContext; without one, or for another tool, it
// prints nothing.
func TestClaudeCodeHook(t *testing.T) {
	shortCache(t)
	root := testkit.Fixture(t, "project")
	in := func(tool, pattern string) string {
		b, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": tool, "cwd": filepath.Join(root, "src"),
			"tool_input": map[string]any{"pattern": pattern}})
		return string(b)
	}
	if out := runHook(t, in("Grep", "validateToken\\(")); out != "" {
		t.Errorf("without a server: %q", out)
	}
	serveWorkspace(t, root, engine.CompilerOff)

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
