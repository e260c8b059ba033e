package install

import (
	"os"
	"strings"
	"testing"
)

// TestClaudeHook adds the optional hook to a real-shaped Claude Code
// settings.json holding the user's own hooks: scry's entry joins
// hooks.PostToolUse after theirs, everything else is kept, a second
// install changes nothing, and uninstalling leaves the user's hooks as
// they were.
func TestClaudeHook(t *testing.T) {
	env := testEnv(t)
	path, _ := HookPath(ScopeUser, "", env)
	orig := place(t, "configs/claude-settings.json", path, 0o644)
	req := Request{Scope: ScopeUser, Bin: "/opt/my tools/scry", Env: env}
	add(t, PlanHook, req)
	after, _ := os.ReadFile(path)
	d := decodeJSONC(t, after)
	post := d["hooks"].(map[string]any)["PostToolUse"].([]any)
	if len(post) != 2 || !strings.Contains(mustJSON(post[1]), `"command":"'/opt/my tools/scry' hook claude-code"`) || !strings.Contains(mustJSON(post[1]), `"matcher":"Grep|Glob"`) {
		t.Errorf("PostToolUse = %s", mustJSON(post))
	}
	b := decodeJSONC(t, orig)
	d["hooks"].(map[string]any)["PostToolUse"] = post[:1]
	if !sameValue(b, d) {
		t.Errorf("other settings changed:\n%s", after)
	}
	if back := reinstallAndRemove(t, PlanHook, req, path); !sameValue(decodeJSONC(t, back), decodeJSONC(t, orig)) {
		t.Errorf("after uninstall:\n%s", back)
	}

	// A settings file without hooks, and none at all.
	os.WriteFile(path, []byte(`{"model": "opus"}`), 0o644)
	c, err := PlanHook(req)
	if err != nil || !strings.Contains(string(c.After), `"PostToolUse": [`) {
		t.Errorf("no hooks yet: %v\n%s", err, c.After)
	}
	os.Remove(path)
	if c, err = PlanHook(req); err != nil || c.Action != "add" {
		t.Errorf("no file: %v %s", err, c.Action)
	}
}
