package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
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
	field  func(*Config) *string
	// harmless accepts values a workspace may set without trust (choosing
	// no model at all).
	harmless func(string) bool
}

func (s Setting) path() []string { return strings.Split(s.Key, ".") }

// Value is the setting's value in c.
func (s Setting) Value(c *Config) string { return *s.field(c) }

// absolute resolves a relative path value against dir (where the file that
// set it lives).
func (s Setting) absolute(c *Config, dir, file string) error {
	p := s.field(c)
	if !s.IsPath || *p == "" || filepath.IsAbs(*p) {
		return nil
	}
	if strings.HasPrefix(*p, "~") {
		return fmt.Errorf("config %s: %s = %q: give an absolute path or one relative to the file", file, s.Key, *p)
	}
	*p = filepath.Join(dir, *p)
	return nil
}

func noModel(v string) bool {
	switch strings.ToLower(v) {
	case "", "none", "builtin":
		return true
	}
	return false
}

// Sensitive lists the settings a workspace may set only when trusted.
var Sensitive = []Setting{
	{Key: "tsgo", Env: "SCRY_TSGO", IsPath: true, field: func(c *Config) *string { return &c.TSGo }},
	{Key: "embedding.provider", Env: "SCRY_EMBEDDER", field: func(c *Config) *string { return &c.Embedding.Provider }, harmless: noModel},
	{Key: "embedding.url", Env: "SCRY_EMBED_URL", field: func(c *Config) *string { return &c.Embedding.URL }},
	{Key: "embedding.dir", Env: "SCRY_EMBED_DIR", IsPath: true, field: func(c *Config) *string { return &c.Embedding.Dir }},
	{Key: "embedding.onnxRuntimeLib", Env: "SCRY_ONNXRUNTIME_LIB", IsPath: true, field: func(c *Config) *string { return &c.Embedding.ONNXRuntimeLib }},
	{Key: "reranker.provider", Env: "SCRY_RERANKER", field: func(c *Config) *string { return &c.Reranking.Provider }, harmless: noModel},
	{Key: "reranker.url", Env: "SCRY_RERANK_URL", field: func(c *Config) *string { return &c.Reranking.URL }},
	{Key: "reranker.dir", Env: "SCRY_RERANK_DIR", IsPath: true, field: func(c *Config) *string { return &c.Reranking.Dir }},
	{Key: "backend", Env: "SCRY_BACKEND", field: func(c *Config) *string { return &c.Backend }, harmless: localBackend},
	{Key: "weaviate.url", Env: "SCRY_WEAVIATE_URL", field: func(c *Config) *string { return &c.Weaviate.URL }},
}

// localBackend: a workspace may always keep its index local.
func localBackend(v string) bool { return v == "" || strings.EqualFold(v, BackendSQLite) }

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
	if o.Trust.Stale {
		why = ".scry.toml changed since it was trusted"
	}
	return []string{fmt.Sprintf("ignoring %s in %s: %s; review the file and run `scry trust --root %s` to use them",
		strings.Join(keys, ", "), o.WorkspaceFile, why, o.Trust.Root)}
}
