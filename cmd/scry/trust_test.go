package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// hostileRepo lays out a repository whose .scry.toml names its own
// "compiler" (by a relative path) and its own embedding server.
func hostileRepo(t *testing.T, embedURL string) (root, marker string) {
	t.Helper()
	root = t.TempDir()
	marker = filepath.Join(t.TempDir(), "ran")
	files := map[string]string{
		"src/a.ts":     "export function alpha() { return 1; }\n",
		configFileName: "tsgo = \"tools/fake-tsc\"\n[embedding]\nprovider = \"openai\"\nmodel = \"m\"\nurl = \"" + embedURL + "\"\n",
	}
	testkit.WriteTree(t, root, files)
	fakeTSGo(t, root, marker, "7.0.2")
	return root, marker
}

const configFileName = ".scry.toml"

// fakeTSGo writes the repository's own tools/fake-tsc: it leaves marker
// when it is run, and says it is TypeScript version.
func fakeTSGo(t *testing.T, root, marker, version string) {
	t.Helper()
	testkit.Script(t, filepath.Join(root, "tools", "fake-tsc"), "#!/bin/sh\n: > "+marker+"\necho 'Version "+version+"'\n")
}

// isolate gives the test its own user config, cache and PATH, with an API
// key in the environment as a developer's shell often has.
func isolate(t *testing.T) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	t.Setenv("SCRY_TSGO", "")
	for _, k := range []string{"SCRY_EMBEDDER", "SCRY_EMBED_URL", "SCRY_EMBED_KEY", "SCRY_RERANKER", "SCRY_RERANK_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("OPENAI_API_KEY", "sk-user-secret")
	t.Setenv("PATH", t.TempDir())
}

// TestWorkspaceCannotRunProgramsOrTakeKeys is issue 18 items 1 and 2 end
// to end: `scry search` in an untrusted repository neither runs the
// repository's tsgo (resolved against the current directory before) nor
// sends the user's OPENAI_API_KEY to the repository's URL; it says what it
// ignored. After `scry trust` both happen, which shows the test can see
// them.
func TestWorkspaceCannotRunProgramsOrTakeKeys(t *testing.T) {
	isolate(t)
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "no", http.StatusTeapot)
	}))
	defer srv.Close()
	root, marker := hostileRepo(t, srv.URL+"/v1")
	idx := filepath.Join(t.TempDir(), "index.db")
	wd, _ := os.Getwd()
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)

	out := mustScry(t, "search", "--root", root, "--index", idx, "alpha")
	if _, err := os.Stat(marker); err == nil {
		t.Error("the workspace's tsgo was run")
	}
	mu.Lock()
	got := append([]string(nil), keys...)
	mu.Unlock()
	if len(got) > 0 {
		t.Errorf("the workspace's embedding URL was called (Authorization %q)", got)
	}
	if !strings.Contains(out, "ignoring") || !strings.Contains(out, "embedding.url") || !strings.Contains(out, "tsgo") {
		t.Errorf("no note about the ignored settings:\n%s", out)
	}
	doc := mustScry(t, "doctor", "--root", root, "--index", idx)
	for _, want := range []string{"trust:     not trusted", "IGNORED \"tools/fake-tsc\"", "embedding.url"} {
		if !strings.Contains(doc, want) {
			t.Errorf("doctor lacks %q:\n%s", want, doc)
		}
	}

	out, err := runScry(t, "trust", "--root", root)
	if err != nil || !strings.Contains(out, "trusted ") || !strings.Contains(out, "workspace .scry.toml (trusted)") {
		t.Fatalf("trust: %v\n%s", err, out)
	}
	// The embedding server refuses, so this search fails after the call.
	runScry(t, "search", "--root", root, "--index", idx, "alpha")
	// The flag takes the model away, so the compiler is reached.
	runScry(t, "search", "--root", root, "--index", idx, "--embedder", "none", "alpha")
	if _, err := os.Stat(marker); err != nil {
		t.Error("trusted: the workspace's tsgo (relative to the root) was not used")
	}
	mu.Lock()
	got = append([]string(nil), keys...)
	mu.Unlock()
	if len(got) == 0 || got[0] != "Bearer sk-user-secret" {
		t.Errorf("trusted: the embedding server saw %q", got)
	}

	// A pull changes the program .scry.toml names, not .scry.toml (issue
	// 29 B.7): the decision no longer covers it, and doctor says why.
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	fakeTSGo(t, root, marker, "7.0.3")
	out, _ = runScry(t, "search", "--root", root, "--index", idx, "--embedder", "none", "alpha")
	if _, err := os.Stat(marker); err == nil {
		t.Error("the changed program was run under the old trust decision")
	}
	if !strings.Contains(out, "tools/fake-tsc, which .scry.toml names, changed") {
		t.Errorf("search does not say the program changed:\n%s", out)
	}
	doc, _ = runScry(t, "doctor", "--root", root, "--index", idx)
	if !strings.Contains(doc, "trust:     not trusted: tools/fake-tsc, named by .scry.toml, changed since `scry trust`") {
		t.Errorf("doctor after the program changed:\n%s", doc)
	}
	if out, err = runScry(t, "trust", "--root", root); err != nil {
		t.Fatalf("trust again: %v\n%s", err, out)
	}
	runScry(t, "search", "--root", root, "--index", idx, "--embedder", "none", "alpha")
	if _, err := os.Stat(marker); err != nil {
		t.Error("trusted again: the reviewed program was not used")
	}

	out, err = runScry(t, "trust", "--root", root, "--revoke")
	if err != nil || !strings.Contains(out, "no longer trusted") {
		t.Fatalf("trust --revoke: %v\n%s", err, out)
	}
	doc, _ = runScry(t, "doctor", "--root", root, "--index", idx)
	if !strings.Contains(doc, "trust:     not trusted") {
		t.Errorf("revoked, doctor says:\n%s", doc)
	}
}
