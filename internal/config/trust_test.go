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
maxFileSize = -1
backend = "weaviate"
[weaviate]
url = "http://127.0.0.1:9/collect"
repos = ["victim"]
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
		{"weaviate.repos", strings.Join(c.Weaviate.Repos, ",")},
		{"maxFileSize", Sensitive[len(Sensitive)-2].Value(&c)},
	}
	for _, tt := range tests {
		if tt.got != "" {
			t.Errorf("%s = %q taken from an untrusted workspace", tt.key, tt.got)
		}
		if src := c.Origin.Source(tt.key); src != "default" {
			t.Errorf("%s: source %q, want default", tt.key, src)
		}
	}
	// All but maxTokenBudget = 3000, which lowers a limit.
	if len(c.Origin.Ignored) != len(Sensitive)-1 {
		t.Errorf("ignored %v, want all %d sensitive settings but the budget listed", c.Origin.Ignored, len(Sensitive)-1)
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

// TestWorkspaceLimits is issue 29 B.3: a workspace may lower the limits
// that protect the machine (maxFileSize, maxTokenBudget) but not raise
// them unless trusted; the user's own settings and the environment may.
func TestWorkspaceLimits(t *testing.T) {
	tests := []struct {
		name, file string
		trusted    bool
		userFile   string
		env        map[string]string
		wantSize   int64
		wantBudget int
		ignored    []string
	}{
		{name: "lowered", file: "maxFileSize = 1000\nmaxTokenBudget = 2000\n", wantSize: 1000, wantBudget: 2000},
		{name: "default spelled out", file: "maxFileSize = 0\nmaxTokenBudget = 8000\n", wantSize: 0, wantBudget: 8000},
		{name: "no size limit", file: "maxFileSize = -1\n", wantSize: 0, wantBudget: 8000, ignored: []string{"maxFileSize"}},
		{name: "raised", file: "maxFileSize = 300000000\nmaxTokenBudget = 1000000\n", wantSize: 0, wantBudget: 8000, ignored: []string{"maxFileSize", "maxTokenBudget"}},
		{name: "raised, trusted", file: "maxFileSize = -1\nmaxTokenBudget = 1000000\n", trusted: true, wantSize: -1, wantBudget: 1000000},
		{name: "below the user's", file: "maxTokenBudget = 12000\n", userFile: "maxTokenBudget = 20000\n", wantBudget: 12000},
		{name: "above the user's", file: "maxTokenBudget = 30000\n", userFile: "maxTokenBudget = 20000\n", wantBudget: 20000, ignored: []string{"maxTokenBudget"}},
		{name: "environment", file: "maxTokenBudget = 30000\n", env: map[string]string{"SCRY_BUDGET": "50000", "SCRY_MAX_FILE_SIZE": "-1"}, wantSize: -1, wantBudget: 50000, ignored: []string{"maxTokenBudget"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := write(t, tt.file)
			m, userDir := userEnv(t)
			for k, v := range tt.env {
				m[k] = v
			}
			if tt.userFile != "" {
				if err := os.MkdirAll(userDir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(userDir, UserFileName), []byte(tt.userFile), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tt.trusted {
				if _, err := TrustWorkspace(userDir, root, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Load(root, env(m))
			if err != nil {
				t.Fatal(err)
			}
			if c.MaxFileSize != tt.wantSize || c.Budget != tt.wantBudget {
				t.Errorf("maxFileSize %d, maxTokenBudget %d; want %d, %d", c.MaxFileSize, c.Budget, tt.wantSize, tt.wantBudget)
			}
			var ignored []string
			for _, ig := range c.Origin.Ignored {
				ignored = append(ignored, ig.Key)
			}
			if strings.Join(ignored, ",") != strings.Join(tt.ignored, ",") {
				t.Errorf("ignored %v, want %v", ignored, tt.ignored)
			}
		})
	}
}

// TestWorkspaceCannotChooseTenant is issue 29 B.2: which tenant a push
// writes to chooses whose code is replaced, so a workspace names it only
// when trusted.
func TestWorkspaceCannotChooseTenant(t *testing.T) {
	root := write(t, "[weaviate]\nrepos = [\"victim\"]\n")
	m, userDir := userEnv(t)
	m["SCRY_BACKEND"], m["SCRY_WEAVIATE_URL"] = "weaviate", "http://127.0.0.1:9"
	c, err := Load(root, env(m))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Weaviate.Repos) != 0 || len(c.Origin.Ignored) != 1 || c.Origin.Ignored[0].Key != "weaviate.repos" {
		t.Errorf("untrusted: repos %v, ignored %v; want none taken and the setting reported", c.Weaviate.Repos, c.Origin.Ignored)
	}
	m["SCRY_REPO"] = "mine"
	if c, err = Load(root, env(m)); err != nil || strings.Join(c.Weaviate.Repos, ",") != "mine" || c.Origin.Source("weaviate.repos") != SourceEnv {
		t.Errorf("environment: repos %v from %s, %v", c.Weaviate.Repos, c.Origin.Source("weaviate.repos"), err)
	}
	delete(m, "SCRY_REPO")
	if _, err := TrustWorkspace(userDir, root, time.Now()); err != nil {
		t.Fatal(err)
	}
	if c, err = Load(root, env(m)); err != nil || strings.Join(c.Weaviate.Repos, ",") != "victim" {
		t.Errorf("trusted: repos %v, %v; want the workspace's", c.Weaviate.Repos, err)
	}
}

// TestTrustPinsNamedPrograms is issue 29 B.7: trust covers the content of
// the programs inside the workspace that .scry.toml names, not only the
// file; a changed (or newly appearing, or re-pointed) program needs
// trusting again. A program outside the workspace is the user's, not
// pinned.
func TestTrustPinsNamedPrograms(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "tsc")
	tests := []struct {
		name   string
		config string
		setup  func(t *testing.T, root string)
		change func(t *testing.T, root string)
		stale  []string
	}{
		{name: "program edited", config: `tsgo = "tools/fake-tsc"`,
			setup:  func(t *testing.T, root string) { writeFile(t, root, "tools/fake-tsc", "#!/bin/sh\necho 1\n") },
			change: func(t *testing.T, root string) { writeFile(t, root, "tools/fake-tsc", "#!/bin/sh\necho 2\n") },
			stale:  []string{"tools/fake-tsc"}},
		{name: "program appears", config: `tsgo = "tools/fake-tsc"`,
			change: func(t *testing.T, root string) { writeFile(t, root, "tools/fake-tsc", "#!/bin/sh\n") },
			stale:  []string{"tools/fake-tsc"}},
		{name: "library edited", config: "[embedding]\nonnxRuntimeLib = \"lib/ort.so\"",
			setup:  func(t *testing.T, root string) { writeFile(t, root, "lib/ort.so", "v1") },
			change: func(t *testing.T, root string) { writeFile(t, root, "lib/ort.so", "v2") },
			stale:  []string{"lib/ort.so"}},
		{name: "link re-pointed", config: `tsgo = "tools/tsc"`,
			setup: func(t *testing.T, root string) {
				writeFile(t, root, "a", "a")
				writeFile(t, root, "b", "b")
				if err := os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "tools", "tsc")); err != nil {
					t.Fatal(err)
				}
			},
			change: func(t *testing.T, root string) {
				os.Remove(filepath.Join(root, "tools", "tsc"))
				if err := os.Symlink(filepath.Join(root, "b"), filepath.Join(root, "tools", "tsc")); err != nil {
					t.Fatal(err)
				}
			},
			stale: []string{"tools/tsc"}},
		{name: "program outside the workspace", config: "tsgo = \"" + outside + "\"",
			setup:  func(t *testing.T, root string) { os.WriteFile(outside, []byte("1"), 0o755) },
			change: func(t *testing.T, root string) { os.WriteFile(outside, []byte("2"), 0o755) }},
		{name: "model directory", config: "[embedding]\ndir = \"models/e\"",
			setup:  func(t *testing.T, root string) { writeFile(t, root, "models/e/model.onnx", "1") },
			change: func(t *testing.T, root string) { writeFile(t, root, "models/e/model.onnx", "2") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := write(t, tt.config+"\n")
			if err := os.MkdirAll(filepath.Join(root, "tools"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				tt.setup(t, root)
			}
			m, userDir := userEnv(t)
			if _, err := TrustWorkspace(userDir, root, time.Now()); err != nil {
				t.Fatal(err)
			}
			if tr, err := CheckTrust(userDir, root); err != nil || !tr.Trusted {
				t.Fatalf("just trusted: %+v, %v", tr, err)
			}
			tt.change(t, root)
			c, err := Load(root, env(m))
			if err != nil {
				t.Fatal(err)
			}
			tr := c.Origin.Trust
			if strings.Join(tr.Changed, ",") != strings.Join(tt.stale, ",") || tr.Trusted != (len(tt.stale) == 0) || tr.Stale != (len(tt.stale) > 0) {
				t.Fatalf("after the change: trusted %v, stale %v, changed %v; want changed %v", tr.Trusted, tr.Stale, tr.Changed, tt.stale)
			}
			if len(tt.stale) == 0 {
				return
			}
			if c.TSGo != "" || c.Embedding.ONNXRuntimeLib != "" {
				t.Errorf("a changed program is still used: tsgo %q, onnxRuntimeLib %q", c.TSGo, c.Embedding.ONNXRuntimeLib)
			}
			for _, said := range []string{tr.String(), strings.Join(c.Origin.Notes(), "")} {
				if !strings.Contains(said, tt.stale[0]) || !strings.Contains(said, "changed since") {
					t.Errorf("%q does not name the changed program", said)
				}
			}
			if _, err := TrustWorkspace(userDir, root, time.Now()); err != nil {
				t.Fatal(err)
			}
			if tr, err := CheckTrust(userDir, root); err != nil || !tr.Trusted {
				t.Errorf("trusted again: %+v, %v", tr, err)
			}
		})
	}
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}
