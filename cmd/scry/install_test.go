package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallCommand runs `scry install` and `scry uninstall` against a
// home directory of its own: --print writes nothing, install adds the entry
// beside the user's servers and keeps a backup, uninstall removes it, and a
// malformed file is refused and left as it was.
func TestInstallCommand(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	path := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	orig := "{\n  \"mcpServers\": {\n    \"context7\": { \"command\": \"npx\", \"args\": [\"-y\", \"@upstash/context7-mcp\"] }\n  }\n}\n"
	os.WriteFile(path, []byte(orig), 0o644)

	out, err := runScry(t, "install", "cursor", "--print")
	if err != nil || !strings.Contains(out, "Cursor: would add scry to "+path) || !strings.Contains(out, `"serve"`) {
		t.Fatalf("install --print: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(path); string(b) != orig {
		t.Fatal("--print wrote the file")
	}
	out, err = runScry(t, "install", "cursor")
	if err != nil || !strings.Contains(out, "added scry to") || !strings.Contains(out, ".scry-backup") {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"scry"`) || !strings.Contains(string(b), `"context7"`) {
		t.Errorf("after install:\n%s", b)
	}
	if out, err = runScry(t, "uninstall", "cursor"); err != nil || !strings.Contains(out, "removed scry from") {
		t.Fatalf("uninstall: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(path); string(b) != orig {
		t.Errorf("after uninstall:\n%s", b)
	}
	broken := "{\n  \"mcpServers\": {\n    \"a\": 1\n    \"b\": 2\n  }\n}\n"
	os.WriteFile(path, []byte(broken), 0o644)
	if _, err := runScry(t, "install", "cursor"); err == nil || !strings.Contains(err.Error(), "malformed configuration file") || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("install over a malformed file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != broken {
		t.Error("the malformed file was changed")
	}
	if _, err := runScry(t, "install", "nosuchagent"); err == nil || !strings.Contains(err.Error(), "known: amazonq, claude-code") {
		t.Errorf("unknown agent: %v", err)
	}
}
