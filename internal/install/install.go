// Package install registers scry's MCP server in coding agents' own
// configuration files (and removes it): each agent's documented file and
// format, at user or project scope, edited in place so that the user's other
// entries stay as they were, written atomically after a backup of the file.
package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Scopes a server can be registered at.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// ServerName is the name scry's server is registered under.
const ServerName = "scry"

// format is how an agent's file is written.
type format int

const (
	formatJSON format = iota // JSON, or JSON with comments (edited as text either way)
	formatTOML
)

// Agent is one agent whose MCP configuration scry can edit.
type Agent struct {
	ID, Name string
	format   format
	// container is the top-level key holding the servers (mcpServers,
	// servers, context_servers, mcp; mcp_servers in TOML).
	container string
	// user and project are the file for each scope ("" when the agent has
	// no such file); user is given the environment.
	user    func(env Env) string
	project string
	// entry is the server's entry in this agent's format.
	entry func(bin string, args []string) any
	// userRoot is how a server registered for the user finds the
	// workspace: nil to take it from the directory the agent starts it in,
	// or the arguments naming it (VS Code's ${workspaceFolder}).
	userRoot []string
}

// Env is where the user's files are: the home directory and the
// variables some agents read.
type Env struct {
	Home   string
	Getenv func(string) string
	GOOS   string
}

func (e Env) get(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// configDir is $XDG_CONFIG_HOME or ~/.config.
func (e Env) configDir() string {
	if d := e.get("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	return filepath.Join(e.Home, ".config")
}

// OSEnv is the running user's environment.
func OSEnv() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("home directory: %w", err)
	}
	return Env{Home: home, Getenv: os.Getenv, GOOS: runtime.GOOS}, nil
}

// ordered is a JSON object that keeps its keys' order (command first, as
// people write these entries).
type ordered []kv

type kv struct {
	k string
	v any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func stdioEntry(bin string, args []string) any {
	return ordered{{"command", bin}, {"args", args}}
}

func typedStdioEntry(bin string, args []string) any {
	return ordered{{"type", "stdio"}, {"command", bin}, {"args", args}}
}

// Agents is every agent scry installs into, by ID.
var Agents = []Agent{
	{ID: "claude-code", Name: "Claude Code", container: "mcpServers",
		user: func(e Env) string { return filepath.Join(e.Home, ".claude.json") }, project: ".mcp.json", entry: typedStdioEntry},
	{ID: "cursor", Name: "Cursor", container: "mcpServers",
		user: func(e Env) string { return filepath.Join(e.Home, ".cursor", "mcp.json") }, project: filepath.Join(".cursor", "mcp.json"), entry: stdioEntry},
	{ID: "vscode", Name: "VS Code (Copilot)", container: "servers",
		user: vscodeUser, project: filepath.Join(".vscode", "mcp.json"), entry: typedStdioEntry,
		userRoot: []string{"--root", "${workspaceFolder}"}},
	{ID: "codex", Name: "Codex CLI", format: formatTOML, container: "mcp_servers",
		user: func(e Env) string {
			if d := e.get("CODEX_HOME"); d != "" {
				return filepath.Join(d, "config.toml")
			}
			return filepath.Join(e.Home, ".codex", "config.toml")
		}, project: filepath.Join(".codex", "config.toml")},
	{ID: "gemini", Name: "Gemini CLI", container: "mcpServers",
		user: func(e Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") }, project: filepath.Join(".gemini", "settings.json"), entry: stdioEntry},
	{ID: "windsurf", Name: "Windsurf", container: "mcpServers",
		user: func(e Env) string { return filepath.Join(e.Home, ".codeium", "windsurf", "mcp_config.json") }, entry: stdioEntry},
	{ID: "zed", Name: "Zed", container: "context_servers",
		user: func(e Env) string { return filepath.Join(e.configDir(), "zed", "settings.json") }, project: filepath.Join(".zed", "settings.json"),
		entry: func(bin string, args []string) any {
			return ordered{{"command", bin}, {"args", args}, {"env", map[string]string{}}}
		}},
	{ID: "kiro", Name: "Kiro", container: "mcpServers",
		user: func(e Env) string { return filepath.Join(e.Home, ".kiro", "settings", "mcp.json") }, project: filepath.Join(".kiro", "settings", "mcp.json"), entry: stdioEntry},
	{ID: "claude-desktop", Name: "Claude Desktop", container: "mcpServers",
		user: func(e Env) string { return filepath.Join(appConfigDir(e), "Claude", "claude_desktop_config.json") }, entry: stdioEntry},
	{ID: "cline", Name: "Cline", container: "mcpServers",
		user: vscodeExtension("saoudrizwan.claude-dev", "cline_mcp_settings.json"), entry: stdioEntry},
	{ID: "roo-code", Name: "Roo Code", container: "mcpServers",
		user: vscodeExtension("rooveterinaryinc.roo-cline", "mcp_settings.json"), project: filepath.Join(".roo", "mcp.json"), entry: stdioEntry},
	{ID: "amazonq", Name: "Amazon Q Developer", container: "mcpServers",
		user: func(e Env) string { return filepath.Join(e.Home, ".aws", "amazonq", "mcp.json") }, project: filepath.Join(".amazonq", "mcp.json"), entry: stdioEntry},
	{ID: "opencode", Name: "opencode", container: "mcp",
		user: func(e Env) string { return filepath.Join(e.configDir(), "opencode", "opencode.json") }, project: "opencode.json",
		entry: func(bin string, args []string) any {
			return ordered{{"type", "local"}, {"command", append([]string{bin}, args...)}, {"enabled", true}}
		}},
}

// appConfigDir is where desktop applications keep their settings:
// ~/Library/Application Support on macOS, %APPDATA% on Windows,
// $XDG_CONFIG_HOME (~/.config) elsewhere.
func appConfigDir(e Env) string {
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	case "windows":
		if d := e.get("APPDATA"); d != "" {
			return d
		}
	}
	return e.configDir()
}

// vscodeUser is VS Code's user-profile mcp.json.
func vscodeUser(e Env) string { return filepath.Join(appConfigDir(e), "Code", "User", "mcp.json") }

// vscodeExtension is a VS Code extension's settings file in its global
// storage.
func vscodeExtension(ext, file string) func(Env) string {
	return func(e Env) string {
		return filepath.Join(appConfigDir(e), "Code", "User", "globalStorage", ext, "settings", file)
	}
}

// Find is the agent with the given ID.
func Find(id string) (Agent, error) {
	for _, a := range Agents {
		if a.ID == id {
			return a, nil
		}
	}
	ids := make([]string, len(Agents))
	for i, a := range Agents {
		ids[i] = a.ID
	}
	sort.Strings(ids)
	return Agent{}, fmt.Errorf("unknown agent %q (known: %s)", id, strings.Join(ids, ", "))
}

// Path is the agent's file for scope; root is the project for ScopeProject.
func (a Agent) Path(scope, root string, env Env) (string, error) {
	switch scope {
	case ScopeUser:
		return a.user(env), nil
	case ScopeProject:
		if a.project == "" {
			return "", fmt.Errorf("%s has no project configuration file; use --scope user", a.Name)
		}
		return filepath.Join(root, a.project), nil
	}
	return "", fmt.Errorf("scope %q: user or project", scope)
}

// Request is one install or uninstall.
type Request struct {
	Agent  Agent
	Scope  string
	Root   string // the project (absolute): the project file's directory, and the server's --root at project scope
	Bin    string // scry's absolute path
	Remove bool
	Env    Env
}

// Change is what an install or uninstall does to one file.
type Change struct {
	Path   string
	Action string // "add", "update", "remove", "unchanged", "absent"
	Before []byte // nil when the file does not exist
	After  []byte
	// Entry is the server's entry as written (for --print).
	Entry string
	// Existed is whether the file was there.
	Existed bool
}

// ErrMalformed marks a configuration file scry could not read: it is left
// untouched.
var ErrMalformed = errors.New("malformed configuration file")

// Plan reads the agent's file and computes the change, writing nothing.
func Plan(r Request) (Change, error) {
	path, err := r.Agent.Path(r.Scope, r.Root, r.Env)
	if err != nil {
		return Change{}, err
	}
	c := Change{Path: path}
	if c.Before, c.Existed, err = readConfig(path); err != nil {
		return c, err
	}
	args := []string{"serve"}
	switch {
	case r.Scope == ScopeProject:
		args = append(args, "--root", r.Root)
	case r.Agent.userRoot != nil:
		args = append(args, r.Agent.userRoot...)
	}
	malformed := func(err error) error {
		return fmt.Errorf("%w %s: %v (left untouched)", ErrMalformed, path, err)
	}
	if r.Agent.format == formatTOML {
		var server *tomlServer
		if !r.Remove {
			server = &tomlServer{Command: r.Bin, Args: args}
			c.Entry = server.text(r.Agent.container + "." + ServerName)
		}
		if _, err := decodeTOML(c.Before); err != nil {
			return c, malformed(err)
		}
		after, found, err := editTOMLServer(c.Before, r.Agent.container, ServerName, server)
		if err != nil {
			return c, fmt.Errorf("%s: %w", path, err)
		}
		c.After = after
		c.Action = action(r.Remove, found, bytes.Equal(after, c.Before))
		return c, nil
	}
	old, err := jsonLookup(c.Before, r.Agent.container, ServerName)
	if err != nil {
		return c, malformed(err)
	}
	if r.Remove {
		after, found, err := removeJSONMember(c.Before, r.Agent.container, ServerName)
		if err != nil {
			return c, malformed(err)
		}
		c.After = after
		c.Action = action(true, found, false)
		return c, nil
	}
	entry := r.Agent.entry(r.Bin, args)
	text, err := marshal(entry, "", "  ")
	if err != nil {
		return c, err
	}
	c.Entry = text
	if old != nil && sameJSON(old, entry) {
		c.After, c.Action = c.Before, "unchanged"
		return c, nil
	}
	after, err := setJSONMember(c.Before, r.Agent.container, ServerName, entry)
	if err != nil {
		return c, malformed(err)
	}
	// The edit is checked by reading the result back.
	got, err := jsonLookup(after, r.Agent.container, ServerName)
	if err != nil || got == nil || !sameJSON(got, entry) {
		return c, fmt.Errorf("%s: the edited file does not hold the intended entry; left untouched", path)
	}
	c.After = after
	c.Action = action(false, old != nil, false)
	return c, nil
}

// readConfig reads a configuration file; a missing one is empty.
func readConfig(path string) (data []byte, existed bool, err error) {
	data, err = os.ReadFile(path)
	switch {
	case err == nil:
		return data, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("read %s: %w", path, err)
}

func action(remove, found, same bool) string {
	switch {
	case remove && found:
		return "remove"
	case remove:
		return "absent"
	case same:
		return "unchanged"
	case found:
		return "update"
	}
	return "add"
}

func sameJSON(raw json.RawMessage, v any) bool {
	var a, b any
	want, err := json.Marshal(v)
	if err != nil || json.Unmarshal(raw, &a) != nil || json.Unmarshal(want, &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// BackupSuffix is appended to a configuration file's name for the copy kept
// before scry changes it.
const BackupSuffix = ".scry-backup"

// Apply writes the change: the old file is copied beside it
// (BackupSuffix), then the new text is written to a temporary file in the
// same directory and renamed over it, so the agent never reads a half-written
// file. A file that changed since Plan read it is left alone. A file that is
// a symbolic link (dotfiles kept elsewhere) is written where it leads. It
// returns the backup's path ("" when there was no file).
func Apply(c Change) (backup string, err error) {
	if c.Action == "unchanged" || c.Action == "absent" {
		return "", nil
	}
	path := c.Path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	mode := fs.FileMode(0o644)
	now, err := os.ReadFile(path)
	switch {
	case err == nil:
		if !c.Existed || !bytes.Equal(now, c.Before) {
			return "", fmt.Errorf("%s changed while scry was editing it; run the command again", c.Path)
		}
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		backup = path + BackupSuffix
		if err := writeAtomic(backup, c.Before, mode); err != nil {
			return "", fmt.Errorf("backup of %s: %w", c.Path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		if c.Existed {
			return "", fmt.Errorf("%s was removed while scry was editing it; run the command again", c.Path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", err
		}
	default:
		return "", err
	}
	if err := writeAtomic(path, c.After, mode); err != nil {
		return backup, fmt.Errorf("write %s: %w", c.Path, err)
	}
	return backup, nil
}

// writeAtomic writes data to a temporary file beside path, syncs it and
// renames it over path.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
