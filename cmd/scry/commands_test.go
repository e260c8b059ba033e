package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// Each command opens the workspace through engine.Open and prints the
// rendered answer; without TypeScript 7 structure is marked approximate.
func TestCommandsAnswer(t *testing.T) {
	t.Setenv("SCRY_TSGO", "")
	t.Setenv("PATH", "/nonexistent")
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	root := testkit.Fixture(t, "project")
	idx := filepath.Join(t.TempDir(), "index.db")
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"index"}, []string{"9 files:"}},
		{[]string{"search", "symbol = TokenService > issueToken"}, []string{`Search: "symbol = TokenService > issueToken" | 1 result`, "// src/auth/tokenService.ts"}},
		{[]string{"info", "TokenService > validateToken"}, []string{"TokenService.validateToken — src/auth/tokenService.ts", "(structure approximate: TypeScript server unavailable)"}},
		{[]string{"def", "AuthConfig"}, []string{"class AuthConfig — src/config/auth.ts:"}},
		{[]string{"refs", "TokenService"}, []string{"TokenService — src/auth/tokenService.ts:7:", "(approximate: from the index"}},
		{[]string{"impls", "BaseValidator"}, []string{"  class TokenService — src/auth/tokenService.ts:7"}},
		{[]string{"calls", "TokenService > validateToken"}, []string{"TokenService.validateToken — src/auth/tokenService.ts:17 (approximate: from the index)", "→ BaseValidator.recordFailure"}},
		{[]string{"callers", "recordFailure"}, []string{"BaseValidator.recordFailure — src/auth/base.ts:4 (approximate: from the index)", "← TokenService.validateToken (src/auth/tokenService.ts:17)"}},
		{[]string{"importers", "node:crypto"}, []string{"1 import(s) of node:crypto:\nsrc/auth/crypto.ts:1:"}},
		{[]string{"info", "noSuchThing"}, []string{`No symbol "noSuchThing" in the workspace.`}},
		{[]string{"callers", "AuthConfig > getSecrt"}, []string{`No symbol "AuthConfig > getSecrt" in the workspace. Nearest symbols:`, "- method AuthConfig.getSecret — src/config/auth.ts:"}},
	}
	for _, tt := range tests {
		out, err := runScry(t, append(tt.args, "--root", root, "--index", idx)...)
		if err != nil {
			t.Errorf("%v: %v\n%s", tt.args, err, out)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: want %q in:\n%s", tt.args, w, out)
			}
		}
	}
}

// doctor reports a broken configuration instead of failing on it, and
// still reports everything else.
func TestDoctorReportsBrokenConfig(t *testing.T) {
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	root := testkit.Fixture(t, "project")
	if err := os.WriteFile(filepath.Join(root, ".scry.toml"), []byte("maxTokenBudget = \"lots\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustScry(t, "doctor", "--root", root, "--index", filepath.Join(t.TempDir(), "index.db"))
	for _, w := range []string{"workspace: ", "config:    ERROR ", "maxTokenBudget", "ranker model: built-in builtin/", "embedder:     builtin", "reranker:     builtin", "typescript 7:", "mcp tools: 11 exposed"} {
		if !strings.Contains(out, w) {
			t.Errorf("want %q in:\n%s", w, out)
		}
	}
}

// doctor names the built-in model, its size and how many chunks it has
// embedded once a search has synced the workspace with it.
func TestDoctorShowsBuiltinModel(t *testing.T) {
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	t.Setenv("SCRY_EMBEDDER", "builtin")
	root := testkit.Fixture(t, "project")
	index := filepath.Join(t.TempDir(), "index.db")
	mustScry(t, "search", "--root", root, "--index", index, "token")
	out := mustScry(t, "doctor", "--root", root, "--index", index)
	re := regexp.MustCompile(`embedder:     builtin\n\s+model builtin/[0-9a-f]{12}/\d+, \d+ dimensions, [\d.]+ MB compiled in\n\s+(\d+) of (\d+) chunks embedded, 0 pending`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no built-in model report in:\n%s", out)
	}
	if m[1] != m[2] || m[1] == "0" {
		t.Errorf("%s of %s chunks embedded", m[1], m[2])
	}
	// The built-in model keeps no embedding cache, and doctor does not
	// create one by looking.
	if strings.Contains(out, "embed-cache") {
		t.Errorf("doctor reports an embedding cache for the built-in model:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(index), "embed-cache.db")); err == nil {
		t.Error("doctor created an embedding cache for the built-in model")
	}
}
