package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileConfig is what a repository could ship to run its own program,
// load its own library, and receive the user's API key.
const hostileConfig = `tsgo = "tools/fake-tsc"
maxTokenBudget = 3000
backend = "weaviate"
[weaviate]
url = "http://127.0.0.1:9/collect"
[embedding]
provider = "openai"
url = "http://127.0.0.1:9/steal"
model = "m"
dir = "models/e"
onnxRuntimeLib = "lib/evil.so"
[reranker]
provider = "http"
url = "http://127.0.0.1:9/rerank"
dir = "models/r"
`

// userEnv gives the user a config directory of their own (and an API key,
// as many environments have).
func userEnv(t *testing.T) (map[string]string, string) {
	t.Helper()
	home := t.TempDir()
	m := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, "config"), "OPENAI_API_KEY": "sk-user-secret"}
	return m, filepath.Join(home, "config", "scry")
}

// TestUntrustedWorkspaceCannotNameProgramsOrURLs is issue 18 items 1 and 2:
// without a trust decision every sensitive setting of the workspace's file
// is ignored (and reported), the harmless ones still apply, and the user's
// key is never paired with the workspace's URL.
func TestUntrustedWorkspaceCannotNameProgramsOrURLs(t *testing.T) {
	root := write(t, hostileConfig)
	m, _ := userEnv(t)
	c, err := Load(root, env(m))
	if err != nil {
		t.Fatal(err)
	}
	if c.Budget != 3000 {
		t.Errorf("a harmless workspace setting was dropped: budget %d", c.Budget)
	}
	if c.Origin.Trust.Trusted {
		t.Fatal("a workspace nobody trusted is reported trusted")
	}
	tests := []struct{ key, got string }{
		{"tsgo", c.TSGo},
		{"embedding.provider", c.Embedding.Provider},
		{"embedding.url", c.Embedding.URL},
		{"embedding.dir", c.Embedding.Dir},
		{"embedding.onnxRuntimeLib", c.Embedding.ONNXRuntimeLib},
		{"reranker.provider", c.Reranking.Provider},
		{"reranker.url", c.Reranking.URL},
		{"reranker.dir", c.Reranking.Dir},
		{"backend", c.Backend},
		{"weaviate.url", c.Weaviate.URL},
	}
	for _, tt := range tests {
		if tt.got != "" {
			t.Errorf("%s = %q taken from an untrusted workspace", tt.key, tt.got)
		}
		if src := c.Origin.Source(tt.key); src != "default" {
			t.Errorf("%s: source %q, want default", tt.key, src)
		}
	}
	if len(c.Origin.Ignored) != len(Sensitive) {
		t.Errorf("ignored %v, want all %d sensitive settings listed", c.Origin.Ignored, len(Sensitive))
	}
	notes := strings.Join(c.Origin.Notes(), "\n")
	for _, want := range []string{"tsgo", "embedding.url", "not trusted", "scry trust"} {
		if !strings.Contains(notes, want) {
			t.Errorf("note %q does not mention %q", notes, want)
		}
	}
	// The user's key must never go to the workspace's URL.
	ec := c.Embedding.EmbedConfig(env(m))
	if ec.Key != "" && strings.Contains(ec.URL, "steal") {
		t.Errorf("the user's key is sent to the workspace's URL %s", ec.URL)
	}
	// With the user's own choice of provider, the URL is still not theirs
	// to be redirected.
	m["SCRY_EMBEDDER"] = "openai"
	c, err = Load(root, env(m))
	if err != nil {
		t.Fatal(err)
	}
	if ec := c.Embedding.EmbedConfig(env(m)); ec.Key == "" || ec.URL != "" {
		t.Errorf("embedder config %+v: want the user's key with the default URL", ec)
	}
}

// TestTrustDecision: `scry trust` lets the workspace's file through
// (relative paths resolved against the root, never the current
// directory); a changed file needs trusting again; revoking undoes it.
func TestTrustDecision(t *testing.T) {
	root := write(t, hostileConfig)
	m, userDir := userEnv(t)
	canon, err := CanonicalRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TrustWorkspace(userDir, root, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(userDir, TrustFileName)); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Errorf("trust store: %v, mode %v; want it private to the user", err, st.Mode())
	}
	c, err := Load(root, env(m))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Origin.Trust.Trusted || len(c.Origin.Ignored) != 0 {
		t.Fatalf("trusted workspace: trust %+v, ignored %v", c.Origin.Trust, c.Origin.Ignored)
	}
	if want := filepath.Join(canon, "tools", "fake-tsc"); c.TSGo != want {
		t.Errorf("tsgo = %q, want %q (relative to the root)", c.TSGo, want)
	}
	if c.Embedding.URL != "http://127.0.0.1:9/steal" || c.Origin.Source("embedding.url") != SourceWorkspace {
		t.Errorf("embedding.url %q from %q", c.Embedding.URL, c.Origin.Source("embedding.url"))
	}

	// The repository changes its file (a pull): the old decision no
	// longer covers it.
	if err := os.WriteFile(filepath.Join(root, FileName), []byte(hostileConfig+"# changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(root, env(m))
	if err != nil {
		t.Fatal(err)
	}
	if c.Origin.Trust.Trusted || !c.Origin.Trust.Stale || c.TSGo != "" {
		t.Fatalf("changed file: trust %+v, tsgo %q; want stale and ignored", c.Origin.Trust, c.TSGo)
	}
	if n := strings.Join(c.Origin.Notes(), ""); !strings.Contains(n, "changed since") {
		t.Errorf("note %q does not say the file changed", n)
	}

	if _, err := TrustWorkspace(userDir, root, time.Now()); err != nil {
		t.Fatal(err)
	}
	if tr, _ := CheckTrust(userDir, root); !tr.Trusted {
		t.Fatalf("re-trusted: %+v", tr)
	}
	// The same directory through a symlink is the same decision.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	if tr, _ := CheckTrust(userDir, link); !tr.Trusted {
		t.Errorf("through a symlink: %+v", tr)
	}
	if had, err := RevokeTrust(userDir, root); !had || err != nil {
		t.Fatalf("revoke: %v %v", had, err)
	}
	if tr, _ := CheckTrust(userDir, root); tr.Trusted || tr.Stale {
		t.Errorf("revoked: %+v", tr)
	}
	if had, _ := RevokeTrust(userDir, root); had {
		t.Error("a second revoke found a decision")
	}
}

// TestUserConfigAndEnvironment: the user's own file may name programs and
// URLs (relative to that file), the environment wins over it, and a
// relative program path in the environment is refused rather than resolved
// against the current directory.
func TestUserConfigAndEnvironment(t *testing.T) {
	root := write(t, "[embedding]\nmodel = \"from-workspace\"\n")
	m, userDir := userEnv(t)
	if err := os.MkdirAll(userDir, 0o755); err != nil {
		t.Fatal(err)
	}
	user := "tsgo = \"bin/tsc\"\nmaxTokenBudget = 5000\n[embedding]\nprovider = \"openai\"\nurl = \"http://127.0.0.1:11434/v1\"\nmodel = \"from-user\"\n"
	if err := os.WriteFile(filepath.Join(userDir, UserFileName), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(root, env(m))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, got, want string }{
		{"tsgo", c.TSGo, filepath.Join(userDir, "bin", "tsc")},
		{"tsgo source", c.Origin.Source("tsgo"), SourceUser},
		{"embedding.url", c.Embedding.URL, "http://127.0.0.1:11434/v1"},
		{"embedding.url source", c.Origin.Source("embedding.url"), SourceUser},
		{"embedding.model (workspace wins for harmless keys)", c.Embedding.Model, "from-workspace"},
		{"reranker.url source", c.Origin.Source("reranker.url"), "default"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if c.Budget != 5000 {
		t.Errorf("budget %d from the user's file, want 5000", c.Budget)
	}

	m["SCRY_TSGO"] = "/opt/ts/tsc"
	if c, err = Load(root, env(m)); err != nil || c.TSGo != "/opt/ts/tsc" || c.Origin.Source("tsgo") != SourceEnv {
		t.Errorf("environment over the user's file: %q from %q, %v", c.TSGo, c.Origin.Source("tsgo"), err)
	}
	for _, rel := range []string{"node_modules/.bin/tsc", "./tsc"} {
		m["SCRY_TSGO"] = rel
		if _, err := Load(root, env(m)); err == nil || !strings.Contains(err.Error(), "absolute") {
			t.Errorf("SCRY_TSGO=%q: error %v, want a refusal", rel, err)
		}
	}
}

// TestHarmlessWorkspaceProviderChoice: a workspace may switch models off
// without being trusted; that sends nothing anywhere.
func TestHarmlessWorkspaceProviderChoice(t *testing.T) {
	root := write(t, "[embedding]\nprovider = \"none\"\n[reranker]\nprovider = \"builtin\"\n")
	m, _ := userEnv(t)
	c, err := Load(root, env(m))
	if err != nil {
		t.Fatal(err)
	}
	if c.Reranking.Provider != "builtin" || c.Embedding.Provider != "none" || len(c.Origin.Ignored) != 0 {
		t.Errorf("harmless choices: %+v %+v ignored %v", c.Embedding, c.Reranking, c.Origin.Ignored)
	}
}
