package config

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/workspace"
)

// Where a sensitive setting came from (Origin.Sources).
const (
	SourceFlag      = "flag"
	SourceEnv       = "environment"
	SourceUser      = "user config"
	SourceWorkspace = "workspace .scry.toml (trusted)"
)

// Setting is a setting that runs a program, loads a library or a model
// from a path, or chooses where code and API keys are sent. A repository
// being indexed is not trusted: its .scry.toml could otherwise run its own
// "compiler", load its own shared library, or send the user's
// OPENAI_API_KEY to a server of its choosing.
type Setting struct {
	// Key is the TOML key, dotted for tables ("embedding.url").
	Key string
	// Env is the environment variable that sets it.
	Env string
	// IsPath: relative values are resolved against the directory of the
	// file that gave them, never against the current directory.
	IsPath bool
	// Limit: the setting bounds what scry spends on the user's machine
	// (memory, tokens); a workspace may lower it without trust, not raise
	// it.
	Limit bool
	// get and set read and write the value as text.
	get func(*Config) string
	set func(*Config, string)
	// harmless accepts values a workspace may set without trust (choosing
	// no model at all, lowering a limit); before is the value in force
	// before the workspace's file was read.
	harmless func(v, before string) bool
}

func (s Setting) path() []string { return strings.Split(s.Key, ".") }

// Value is the setting's value in c.
func (s Setting) Value(c *Config) string { return s.get(c) }

// absolute resolves a relative path value against dir (where the file that
// set it lives).
func (s Setting) absolute(c *Config, dir, file string) error {
	p := s.get(c)
	if !s.IsPath || p == "" || filepath.IsAbs(p) {
		return nil
	}
	if strings.HasPrefix(p, "~") {
		return fmt.Errorf("config %s: %s = %q: give an absolute path or one relative to the file", file, s.Key, p)
	}
	s.set(c, filepath.Join(dir, p))
	return nil
}

// text is a Setting's accessors for a string field.
func text(field func(*Config) *string) (func(*Config) string, func(*Config, string)) {
	return func(c *Config) string { return *field(c) }, func(c *Config, v string) { *field(c) = v }
}

func noModel(v, _ string) bool {
	switch strings.ToLower(v) {
	case "", "none", "builtin":
		return true
	}
	return false
}

// Sensitive lists the settings a workspace may set only when trusted.
var Sensitive = []Setting{
	pathSetting("tsgo", "SCRY_TSGO", func(c *Config) *string { return &c.TSGo }),
	textSetting("embedding.provider", "SCRY_EMBEDDER", func(c *Config) *string { return &c.Embedding.Provider }, noModel),
	textSetting("embedding.url", "SCRY_EMBED_URL", func(c *Config) *string { return &c.Embedding.URL }, nil),
	pathSetting("embedding.dir", "SCRY_EMBED_DIR", func(c *Config) *string { return &c.Embedding.Dir }),
	pathSetting("embedding.onnxRuntimeLib", "SCRY_ONNXRUNTIME_LIB", func(c *Config) *string { return &c.Embedding.ONNXRuntimeLib }),
	textSetting("reranker.provider", "SCRY_RERANKER", func(c *Config) *string { return &c.Reranking.Provider }, noModel),
	textSetting("reranker.url", "SCRY_RERANK_URL", func(c *Config) *string { return &c.Reranking.URL }, nil),
	pathSetting("reranker.dir", "SCRY_RERANK_DIR", func(c *Config) *string { return &c.Reranking.Dir }),
	textSetting("backend", "SCRY_BACKEND", func(c *Config) *string { return &c.Backend }, localBackend),
	textSetting("weaviate.url", "SCRY_WEAVIATE_URL", func(c *Config) *string { return &c.Weaviate.URL }, nil),
	// The tenant a push writes to chooses whose code is replaced: a
	// repository naming another's tenant would overwrite it.
	{Key: "weaviate.repos", Env: "SCRY_REPO",
		get: func(c *Config) string { return strings.Join(c.Weaviate.Repos, ",") },
		set: func(c *Config, v string) { c.Weaviate.Repos = splitList(v) }},
	// Limits that protect the machine: a file of hundreds of megabytes
	// costs tens of times its size in memory to index, and a large budget
	// makes answers of hundreds of thousands of tokens.
	{Key: "maxFileSize", Env: "SCRY_MAX_FILE_SIZE", Limit: true,
		get: func(c *Config) string {
			if c.MaxFileSize == 0 {
				return ""
			}
			return strconv.FormatInt(c.MaxFileSize, 10)
		},
		set:      func(c *Config, v string) { c.MaxFileSize, _ = strconv.ParseInt(v, 10, 64) },
		harmless: lower(workspace.DefaultMaxFileSize)},
	{Key: "maxTokenBudget", Env: "SCRY_BUDGET", Limit: true,
		get:      func(c *Config) string { return strconv.Itoa(c.Budget) },
		set:      func(c *Config, v string) { c.Budget, _ = strconv.Atoi(v) },
		harmless: lower(int64(Default().Budget))},
}

func textSetting(key, env string, field func(*Config) *string, harmless func(v, before string) bool) Setting {
	get, set := text(field)
	return Setting{Key: key, Env: env, get: get, set: set, harmless: harmless}
}

func pathSetting(key, env string, field func(*Config) *string) Setting {
	s := textSetting(key, env, field, nil)
	s.IsPath = true
	return s
}

// lower accepts a limit no higher than the one in force before; "" or 0
// is the default def, and a negative value is no limit at all.
func lower(def int64) func(v, before string) bool {
	eff := func(v string) (int64, bool) {
		if v == "" {
			return def, true
		}
		n, err := strconv.ParseInt(v, 10, 64)
		switch {
		case err != nil:
			return 0, false
		case n == 0:
			return def, true
		case n < 0:
			return math.MaxInt64, true
		}
		return n, true
	}
	return func(v, before string) bool {
		n, ok := eff(v)
		b, okb := eff(before)
		return ok && okb && n <= b
	}
}

// localBackend: a workspace may always keep its index local.
func localBackend(v, _ string) bool { return v == "" || strings.EqualFold(v, BackendSQLite) }

// Ignored is a sensitive setting an untrusted workspace tried to make.
type Ignored struct {
	Key, Value string
}

// Origin records where the sensitive settings came from.
type Origin struct {
	// UserFile and WorkspaceFile are the config files read ("" if none).
	UserFile      string
	WorkspaceFile string
	// Trust is the workspace's trust state.
	Trust Trust
	// Sources maps a Sensitive key to where its value came from; keys at
	// their default are absent.
	Sources map[string]string
	// Ignored lists what the workspace's file set but was not trusted to.
	Ignored []Ignored
}

// SetSource records that key was set by source (flags are applied after
// Load, by the front end).
func (o *Origin) SetSource(key, source string) {
	if o.Sources == nil {
		o.Sources = map[string]string{}
	}
	o.Sources[key] = source
}

// Source is where key's value came from: a Source* constant, or "default".
func (o Origin) Source(key string) string {
	if s, ok := o.Sources[key]; ok {
		return s
	}
	return "default"
}

// Notes are the lines to tell the user about ignored settings: never
// silently dropped, since the user may wonder why the repository's
// compiler or model is not used.
func (o Origin) Notes() []string {
	if len(o.Ignored) == 0 {
		return nil
	}
	keys := make([]string, len(o.Ignored))
	for i, ig := range o.Ignored {
		keys[i] = fmt.Sprintf("%s = %q", ig.Key, ig.Value)
	}
	sort.Strings(keys)
	why := "the workspace is not trusted"
	switch {
	case o.Trust.Stale && len(o.Trust.Changed) > 0:
		why = strings.Join(o.Trust.Changed, ", ") + ", which .scry.toml names, changed since the workspace was trusted"
	case o.Trust.Stale:
		why = ".scry.toml changed since it was trusted"
	}
	return []string{fmt.Sprintf("ignoring %s in %s: %s; review the file and run `scry trust --root %s` to use them",
		strings.Join(keys, ", "), o.WorkspaceFile, why, o.Trust.Root)}
}
