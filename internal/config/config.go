// Package config loads scry's settings from the user's config file, the
// workspace's .scry.toml and the environment; the CLI applies its flags
// last. Flags win over the environment, which wins over the workspace's
// file, which wins over the user's, which wins over the defaults — except
// that settings which run a program or send data somewhere (Sensitive) are
// taken from the workspace only when the user has trusted it.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/scry-dev/scry/internal/workspace"
)

// FileName is the config file looked for at the workspace root.
const FileName = ".scry.toml"

// Config holds every tunable. TOML keys use the names of docs/architecture.md, rule 3.
type Config struct {
	RerankWeight float64 `toml:"rerankWeight"`
	VectorWeight float64 `toml:"vectorWeight"`
	Threshold    float64 `toml:"minimumRelevanceThreshold"`
	// Coverage is answerCoverage: below the threshold, the likeliest
	// results still join an answer while it is less likely than this to
	// hold the file that answers the question (search.Params.Coverage).
	Coverage   float64 `toml:"answerCoverage"`
	Budget     int     `toml:"maxTokenBudget"`
	Candidates int     `toml:"maxVectorCandidates"`
	CallDepth  int     `toml:"callDepth"`
	// CompilerWait is how many seconds a question that needs exact
	// structure waits for TypeScript 7 while it is still loading, before
	// it is answered from the index and says so (0: not at all).
	CompilerWait int `toml:"compilerWait"`

	Include     []string `toml:"include"`
	Exclude     []string `toml:"exclude"`
	MaxFileSize int64    `toml:"maxFileSize"`

	// Tools limits the MCP tools exposed (empty: the default set).
	Tools []string `toml:"tools"`
	// TSGo is the TypeScript 7 compiler to use ("" finds one).
	TSGo string `toml:"tsgo"`

	Embedding Embedding `toml:"embedding"`
	Reranking Reranking `toml:"reranker"`

	// Backend is where the index lives: "sqlite" (the default, a file
	// beside each workspace) or "weaviate" (a shared index on a cluster).
	Backend  string   `toml:"backend"`
	Weaviate Weaviate `toml:"weaviate"`

	// Origin says where the sensitive settings came from and which the
	// workspace tried to set without being trusted.
	Origin Origin `toml:"-"`
}

// Default returns the defaults of docs/architecture.md, rule 3.
func Default() Config {
	return Config{RerankWeight: 0.65, VectorWeight: 0.35, Threshold: 0.5, Coverage: 0.95, Budget: 8000, Candidates: 40, CallDepth: 1, CompilerWait: 20}
}

// Load reads the user's config (UserDir()/config.toml), then
// <root>/.scry.toml (absent is fine), over the defaults, then the SCRY_*
// environment variables from getenv. Settings that name a program, a URL,
// a model location or a provider that sends code off the machine
// (Sensitive) are taken from the workspace's file only when the user
// trusts the workspace (CheckTrust); otherwise they are ignored and listed
// in Origin.Ignored. Origin says where each of them came from.
func Load(root string, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := Default()
	c.Origin.Sources = map[string]string{}
	userDir := UserDir(getenv)
	if userDir != "" {
		path := filepath.Join(userDir, UserFileName)
		set, err := layFile(path, &c, &c.Origin.UserFile)
		if err != nil {
			return c, err
		}
		for _, s := range set {
			c.Origin.Sources[s.Key] = SourceUser
			if err := s.absolute(&c, userDir, path); err != nil {
				return c, err
			}
		}
	}

	trust, err := CheckTrust(userDir, root)
	if err != nil {
		return c, err
	}
	c.Origin.Trust = trust
	path := filepath.Join(root, FileName)
	set, err := layFile(path, &c, &c.Origin.WorkspaceFile)
	if err != nil {
		return c, err
	}
	for _, s := range set {
		v := s.get(&c)
		switch {
		case trust.Trusted:
			c.Origin.Sources[s.Key] = SourceWorkspace
			if err := s.absolute(&c, trust.Root, path); err != nil {
				return c, err
			}
		case s.harmless != nil && s.harmless(v, s.before):
		default:
			s.set(&c, s.before)
			c.Origin.Ignored = append(c.Origin.Ignored, Ignored{Key: s.Key, Value: v})
		}
	}

	if err := c.applyEnv(getenv); err != nil {
		return c, err
	}
	for _, s := range Sensitive {
		if v := getenv(s.Env); v != "" {
			if s.IsPath && !filepath.IsAbs(v) {
				// The current directory may well be the repository being
				// indexed: a relative program path would run its file.
				return c, fmt.Errorf("config: %s=%q: give an absolute path (a relative one is not resolved against the current directory)", s.Env, v)
			}
			c.Origin.Sources[s.Key] = SourceEnv
		}
	}
	return c, c.Validate()
}

// maxConfigFile bounds the read of a configuration file.
const maxConfigFile = 1 << 20

// laidSetting is a Sensitive setting that a configuration file set, with
// the value in force before the file was read.
type laidSetting struct {
	Setting
	before string
}

// layFile lays the TOML file at path over c and returns the Sensitive
// settings it sets, in Sensitive's order; when the file exists, origin
// (unless nil) is set to path.
func layFile(path string, c *Config, origin *string) ([]laidSetting, error) {
	before := make([]string, len(Sensitive))
	for i, s := range Sensitive {
		before[i] = s.get(c)
	}
	md, found, err := decodeFile(path, c)
	if err != nil || !found {
		return nil, err
	}
	if origin != nil {
		*origin = path
	}
	var set []laidSetting
	for i, s := range Sensitive {
		if md.IsDefined(s.path()...) {
			set = append(set, laidSetting{s, before[i]})
		}
	}
	return set, nil
}

// decodeFile lays the TOML file at path over c; found is false when there
// is no such file.
func decodeFile(path string, c *Config) (toml.MetaData, bool, error) {
	// The workspace's file is the repository's to make: a FIFO or a
	// device under its name is refused, not read (which would block or
	// never end).
	data, err := workspace.ReadRegular(path, maxConfigFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return toml.MetaData{}, false, nil
	case err != nil:
		return toml.MetaData{}, false, fmt.Errorf("config %s: %w", path, err)
	}
	md, err := toml.Decode(string(data), c)
	if err != nil {
		return md, true, fmt.Errorf("config %s: %w", path, err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		keys := make([]string, len(un))
		for i, k := range un {
			keys[i] = k.String()
		}
		return md, true, fmt.Errorf("config %s: unknown keys: %s", path, strings.Join(keys, ", "))
	}
	return md, true, nil
}

func (c *Config) applyEnv(getenv func(string) string) error {
	floats := map[string]*float64{
		"SCRY_RERANK_WEIGHT": &c.RerankWeight,
		"SCRY_VECTOR_WEIGHT": &c.VectorWeight,
		"SCRY_THRESHOLD":     &c.Threshold,
		"SCRY_COVERAGE":      &c.Coverage,
	}
	parseFloat := func(v string) (float64, error) { return strconv.ParseFloat(v, 64) }
	if err := applyVars(floats, getenv, parseFloat, "a number"); err != nil {
		return err
	}
	ints := map[string]*int{
		"SCRY_BUDGET":        &c.Budget,
		"SCRY_CANDIDATES":    &c.Candidates,
		"SCRY_CALL_DEPTH":    &c.CallDepth,
		"SCRY_COMPILER_WAIT": &c.CompilerWait,
	}
	if err := applyInts(ints, getenv); err != nil {
		return err
	}
	parseInt64 := func(v string) (int64, error) { return strconv.ParseInt(v, 10, 64) }
	if err := applyVars(map[string]*int64{"SCRY_MAX_FILE_SIZE": &c.MaxFileSize}, getenv, parseInt64, "an integer"); err != nil {
		return err
	}
	if v := getenv("SCRY_TOOLS"); v != "" {
		c.Tools = splitList(v)
	}
	if v := getenv("SCRY_TSGO"); v != "" {
		c.TSGo = v
	}
	if err := c.Weaviate.applyEnv(getenv); err != nil {
		return err
	}
	if v := getenv("SCRY_BACKEND"); v != "" {
		c.Backend = v
	}
	if err := c.Embedding.ApplyEnv(getenv); err != nil {
		return err
	}
	return c.Reranking.ApplyEnv(getenv)
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// MaxCallDepth bounds the depth of a call tree that a question asks for
// (-1, transitive, is bounded by the compiler's own limits): every front
// end checks it here.
const MaxCallDepth = 32

// CallDepthFor is the call-tree depth of a question that asked for asked:
// the configured depth when it asked for none (0), else asked, which must
// be -1 (transitive) or 1..MaxCallDepth.
func (c Config) CallDepthFor(asked int) (int, error) {
	if asked == 0 {
		return c.CallDepth, nil
	}
	if asked < -1 || asked > MaxCallDepth {
		return 0, fmt.Errorf("call depth %d: want -1 (transitive) or 1..%d", asked, MaxCallDepth)
	}
	return asked, nil
}

// Validate rejects values that cannot mean anything.
func (c Config) Validate() error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(c.RerankWeight >= 0 && c.RerankWeight <= 1, "rerankWeight %v: want 0..1", c.RerankWeight)
	check(c.VectorWeight >= 0 && c.VectorWeight <= 1, "vectorWeight %v: want 0..1", c.VectorWeight)
	check(c.RerankWeight+c.VectorWeight > 0, "rerankWeight and vectorWeight are both 0")
	check(c.Threshold >= 0 && c.Threshold <= 1, "minimumRelevanceThreshold %v: want 0..1", c.Threshold)
	check(c.Coverage >= 0 && c.Coverage < 1, "answerCoverage %v: want 0 (the threshold alone) up to below 1", c.Coverage)
	check(c.Budget > 0 && c.Budget <= 1_000_000, "maxTokenBudget %d: want 1..1000000", c.Budget)
	check(c.Candidates > 0 && c.Candidates <= 10_000, "maxVectorCandidates %d: want 1..10000", c.Candidates)
	check(c.CallDepth == -1 || c.CallDepth >= 0 && c.CallDepth <= MaxCallDepth, "callDepth %d: want -1 (transitive) or 0..%d", c.CallDepth, MaxCallDepth)
	check(c.CompilerWait >= 0 && c.CompilerWait <= 600, "compilerWait %d: want 0..600 seconds", c.CompilerWait)
	errs = append(errs, c.Embedding.Validate(), c.Reranking.Validate(), c.validateBackend())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}
