package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/golden"
)

// fixtures are real-shaped configuration files of each agent (with other
// servers, settings, comments and trailing commas where the format allows
// them), by agent ID.
var fixtures = map[string]string{
	"claude-code": "claude-code.json", "cursor": "cursor.json", "vscode": "vscode.jsonc", "codex": "codex.toml",
	"gemini": "gemini.json", "windsurf": "windsurf.json", "zed": "zed.jsonc", "kiro": "kiro.json", "opencode": "opencode.json",
	"claude-desktop": "claude-desktop.json", "cline": "cline.json", "roo-code": "roo-code.json", "amazonq": "amazonq.json",
}

func testEnv(t *testing.T) Env {
	home := t.TempDir()
	return Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}
}

const bin = "/home/me/.local/bin/scry"

// place copies testdata/fixture to path, making its folder, and returns
// its bytes.
func place(t *testing.T, fixture, path string, perm os.FileMode) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(fixture)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, perm); err != nil {
		t.Fatal(err)
	}
	return b
}

// add plans the entry's install with plan, which must add it, applies it,
// and returns the backup Apply kept of the file.
func add(t *testing.T, plan func(Request) (Change, error), req Request) string {
	t.Helper()
	c, err := plan(req)
	if err != nil || c.Action != "add" {
		t.Fatalf("plan: %v, action %s, want add", err, c.Action)
	}
	backup, err := Apply(c)
	if err != nil {
		t.Fatal(err)
	}
	return backup
}

// reinstallAndRemove checks, for an entry plan has just installed at
// path, that installing again changes nothing, that removing it is
// planned and applied, and that removing again finds nothing; it returns
// the file as the removal left it.
func reinstallAndRemove(t *testing.T, plan func(Request) (Change, error), req Request, path string) []byte {
	t.Helper()
	if again, err := plan(req); err != nil || again.Action != "unchanged" {
		t.Errorf("second install: %v, action %s, want unchanged", err, again.Action)
	}
	req.Remove = true
	rm, err := plan(req)
	if err != nil || rm.Action != "remove" {
		t.Fatalf("uninstall: %v, action %s", err, rm.Action)
	}
	if _, err := Apply(rm); err != nil {
		t.Fatal(err)
	}
	back, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := plan(req); err != nil || again.Action != "absent" {
		t.Errorf("second uninstall: %v, action %s, want absent", err, again.Action)
	}
	return back
}

// TestInstallIntoRealConfigs installs scry into each agent's user file,
// starting from a real-shaped file: the entry lands in the agent's format,
// every other setting and server is kept, a backup holds the old file, a
// second install changes nothing, and uninstalling gives the file back
// (byte for byte for JSON). The resulting files are pinned in
// testdata/installed.txtar (go test -update rewrites it) for review.
func TestInstallIntoRealConfigs(t *testing.T) {
	var got []golden.File
	for _, a := range Agents {
		t.Run(a.ID, func(t *testing.T) {
			env := testEnv(t)
			path, err := a.Path(ScopeUser, "", env)
			if err != nil {
				t.Fatal(err)
			}
			orig := place(t, "configs/"+fixtures[a.ID], path, 0o600)
			req := Request{Agent: a, Scope: ScopeUser, Bin: bin, Env: env}
			backup := add(t, Plan, req)
			if b, _ := os.ReadFile(backup); !bytes.Equal(b, orig) {
				t.Errorf("backup %s does not hold the original", backup)
			}
			after, _ := os.ReadFile(path)
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %o, want the original 0600", fi.Mode().Perm())
			}
			checkKept(t, a, orig, after)
			got = append(got, golden.File{Name: a.ID + " " + fixtures[a.ID], Data: strings.TrimRight(string(after), "\n")})

			back := reinstallAndRemove(t, Plan, req, path)
			if a.format == formatJSON && !bytes.Equal(back, orig) {
				t.Errorf("uninstall did not give the file back:\n%s\nwant:\n%s", back, orig)
			}
			if a.format == formatTOML {
				d1, _ := decodeTOML(orig)
				d2, err := decodeTOML(back)
				if err != nil || !sameValue(d1, d2) {
					t.Errorf("uninstall: %v\n%s", err, back)
				}
			}
		})
	}
	golden.Check(t, "testdata/installed.txtar", got)
}

// checkKept compares everything but scry's entry before and after.
func checkKept(t *testing.T, a Agent, before, after []byte) {
	t.Helper()
	if a.format == formatTOML {
		b, _ := decodeTOML(before)
		d, err := decodeTOML(after)
		if err != nil {
			t.Fatalf("result does not decode: %v", err)
		}
		servers := d["mcp_servers"].(map[string]any)
		entry := servers[ServerName].(map[string]any)
		if entry["command"] != bin {
			t.Errorf("entry %v", entry)
		}
		delete(servers, ServerName)
		if !sameValue(b, d) {
			t.Errorf("other settings changed:\n%s", after)
		}
		return
	}
	b, d := decodeJSONC(t, before), decodeJSONC(t, after)
	servers := d[a.container].(map[string]any)
	entry := servers[ServerName].(map[string]any)
	if !strings.Contains(mustJSON(entry), bin) || !strings.Contains(mustJSON(entry), `"serve"`) {
		t.Errorf("entry %v", entry)
	}
	delete(servers, ServerName)
	if !sameValue(b, d) {
		t.Errorf("other settings changed:\n%s", after)
	}
}

// decodeJSONC decodes a file with comments and trailing commas by blanking
// the comments with the same scanner and dropping the trailing commas.
func decodeJSONC(t *testing.T, src []byte) map[string]any {
	t.Helper()
	clean := stripJSONC(src)
	var m map[string]any
	if err := json.Unmarshal(clean, &m); err != nil {
		t.Fatalf("decode: %v\n%s", err, clean)
	}
	return m
}

func stripJSONC(src []byte) []byte {
	var out []byte
	inStr := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inStr:
			out = append(out, c)
			if c == '\\' && i+1 < len(src) {
				i++
				out = append(out, src[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			i += end + 3
		case c == ',':
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\n' || src[j] == '\t' || src[j] == '\r') {
				j++
			}
			if j < len(src) && (src[j] == '}' || src[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

func sameValue(a, b any) bool { return mustJSON(a) == mustJSON(b) }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestProjectScope registers scry in a project's files: the server is
// given the project as its root (VS Code through its own variable at user
// scope only), a missing file and its directory are created, and an agent
// without a project file says so.
func TestProjectScope(t *testing.T) {
	env := testEnv(t)
	root := t.TempDir()
	for _, tc := range []struct {
		agent, file, want string
	}{
		{"claude-code", ".mcp.json", `"args": [` + "\n" + `        "serve",` + "\n" + `        "--root",` + "\n" + `        "` + root + `"`},
		{"cursor", ".cursor/mcp.json", `"--root",`},
		{"vscode", ".vscode/mcp.json", `"type": "stdio"`},
		{"codex", ".codex/config.toml", `args = ["serve", "--root", "` + root + `"]`},
		{"opencode", "opencode.json", `"command": [` + "\n" + `        "` + bin + `",`},
	} {
		a, _ := Find(tc.agent)
		c, err := Plan(Request{Agent: a, Scope: ScopeProject, Root: root, Bin: bin, Env: env})
		if err != nil {
			t.Fatalf("%s: %v", tc.agent, err)
		}
		if _, err := Apply(c); err != nil {
			t.Fatalf("%s: %v", tc.agent, err)
		}
		b, err := os.ReadFile(filepath.Join(root, tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.agent, err)
		}
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %s lacks %q:\n%s", tc.agent, tc.file, tc.want, b)
		}
	}
	w, _ := Find("windsurf")
	if _, err := Plan(Request{Agent: w, Scope: ScopeProject, Root: root, Bin: bin, Env: env}); err == nil || !strings.Contains(err.Error(), "no project configuration file") {
		t.Errorf("windsurf at project scope: %v", err)
	}
	v, _ := Find("vscode")
	c, err := Plan(Request{Agent: v, Scope: ScopeUser, Bin: bin, Env: env})
	if err != nil || !strings.Contains(string(c.After), `"${workspaceFolder}"`) || !strings.HasSuffix(c.Path, filepath.Join(".config", "Code", "User", "mcp.json")) {
		t.Errorf("vscode user: %v %s\n%s", err, c.Path, c.After)
	}
}

// TestMalformedConfigs: a file scry cannot read is refused with its
// position and left exactly as it was; so is a Codex entry in a form scry
// does not edit.
func TestMalformedConfigs(t *testing.T) {
	for _, tc := range []struct {
		agent, file, want string
	}{
		{"cursor", "missing-comma.json", "line 4, column 5: expected , or } in an object"},
		{"claude-code", "unterminated.json", "line 3"},
		{"gemini", "array.json", "the top level is not an object"},
		{"kiro", "servers-not-object.json", `"mcpServers" is not an object`},
		{"codex", "broken.toml", "malformed configuration file"},
		{"codex", "dotted.toml", "edit it by hand"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			env := testEnv(t)
			a, _ := Find(tc.agent)
			path, _ := a.Path(ScopeUser, "", env)
			orig := place(t, "malformed/"+tc.file, path, 0o644)
			for _, remove := range []bool{false, true} {
				_, err := Plan(Request{Agent: a, Scope: ScopeUser, Bin: bin, Env: env, Remove: remove})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("remove=%v: error %v, want one saying %q", remove, err, tc.want)
				}
				if remove == false && tc.file != "dotted.toml" && tc.file != "servers-not-object.json" && !errors.Is(err, ErrMalformed) {
					t.Errorf("error %v is not ErrMalformed", err)
				}
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
				t.Error("the file was changed")
			}
			if _, err := os.Stat(path + BackupSuffix); err == nil {
				t.Error("a backup was written for a refused file")
			}
		})
	}
}

// TestApplyRefusesAChangedFile: a file edited between Plan and Apply is
// not overwritten; a symbolic link is written through.
func TestApplyRefusesAChangedFile(t *testing.T) {
	env := testEnv(t)
	a, _ := Find("cursor")
	path, _ := a.Path(ScopeUser, "", env)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"mcpServers": {}}`), 0o644)
	c, err := Plan(Request{Agent: a, Scope: ScopeUser, Bin: bin, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(`{"mcpServers": {"x": {"command": "y"}}}`), 0o644)
	if _, err := Apply(c); err == nil || !strings.Contains(err.Error(), "changed while") {
		t.Errorf("Apply over a changed file: %v", err)
	}

	dots := filepath.Join(env.Home, "dotfiles", "mcp.json")
	os.MkdirAll(filepath.Dir(dots), 0o755)
	os.WriteFile(dots, []byte("{}\n"), 0o644)
	os.Remove(path)
	if err := os.Symlink(dots, path); err != nil {
		t.Fatal(err)
	}
	c, err = Plan(Request{Agent: a, Scope: ScopeUser, Bin: bin, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(c); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(path); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(dots); !strings.Contains(string(b), `"scry"`) {
		t.Errorf("the link's target was not written:\n%s", b)
	}
}
