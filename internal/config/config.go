// Package config loads scry's settings from the workspace's .scry.toml and
// the environment; the CLI applies its flags last. Flags win over the
// environment, which wins over the file, which wins over the defaults.
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
)

// FileName is the config file looked for at the workspace root.
const FileName = ".scry.toml"

// Config holds every tunable. TOML keys use the blueprint's names.
type Config struct {
	RerankWeight float64 `toml:"rerankWeight"`
	VectorWeight float64 `toml:"vectorWeight"`
	Threshold    float64 `toml:"minimumRelevanceThreshold"`
	Budget       int     `toml:"maxTokenBudget"`
	Candidates   int     `toml:"maxVectorCandidates"`
	CallDepth    int     `toml:"callDepth"`

	Include     []string `toml:"include"`
	Exclude     []string `toml:"exclude"`
	MaxFileSize int64    `toml:"maxFileSize"`

	// Tools limits the MCP tools exposed (empty: the default set).
	Tools []string `toml:"tools"`
	// TSGo is the TypeScript 7 compiler to use ("" finds one).
	TSGo string `toml:"tsgo"`

	Embedding Embedding `toml:"embedding"`
	Reranking Reranking `toml:"reranker"`
}

// Default returns the blueprint's defaults.
func Default() Config {
	return Config{RerankWeight: 0.65, VectorWeight: 0.35, Threshold: 0.5, Budget: 8000, Candidates: 40, CallDepth: 1}
}

// Load reads <root>/.scry.toml (absent is fine) over the defaults, then the
// SCRY_* environment variables from getenv.
func Load(root string, getenv func(string) string) (Config, error) {
	c := Default()
	path := filepath.Join(root, FileName)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return c, fmt.Errorf("config %s: %w", path, err)
	default:
		md, err := toml.Decode(string(data), &c)
		if err != nil {
			return c, fmt.Errorf("config %s: %w", path, err)
		}
		if un := md.Undecoded(); len(un) > 0 {
			keys := make([]string, len(un))
			for i, k := range un {
				keys[i] = k.String()
			}
			return c, fmt.Errorf("config %s: unknown keys: %s", path, strings.Join(keys, ", "))
		}
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	if err := c.applyEnv(getenv); err != nil {
		return c, err
	}
	return c, c.Validate()
}

func (c *Config) applyEnv(getenv func(string) string) error {
	floats := map[string]*float64{
		"SCRY_RERANK_WEIGHT": &c.RerankWeight,
		"SCRY_VECTOR_WEIGHT": &c.VectorWeight,
		"SCRY_THRESHOLD":     &c.Threshold,
	}
	for k, p := range floats {
		if v := getenv(k); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("config: %s=%q: not a number", k, v)
			}
			*p = f
		}
	}
	ints := map[string]*int{
		"SCRY_BUDGET":     &c.Budget,
		"SCRY_CANDIDATES": &c.Candidates,
		"SCRY_CALL_DEPTH": &c.CallDepth,
	}
	for k, p := range ints {
		if v := getenv(k); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("config: %s=%q: not an integer", k, v)
			}
			*p = n
		}
	}
	if v := getenv("SCRY_MAX_FILE_SIZE"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("config: SCRY_MAX_FILE_SIZE=%q: not an integer", v)
		}
		c.MaxFileSize = n
	}
	if v := getenv("SCRY_TOOLS"); v != "" {
		c.Tools = splitList(v)
	}
	if v := getenv("SCRY_TSGO"); v != "" {
		c.TSGo = v
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
	check(c.Budget > 0 && c.Budget <= 1_000_000, "maxTokenBudget %d: want 1..1000000", c.Budget)
	check(c.Candidates > 0 && c.Candidates <= 10_000, "maxVectorCandidates %d: want 1..10000", c.Candidates)
	check(c.CallDepth == -1 || c.CallDepth >= 0 && c.CallDepth <= 32, "callDepth %d: want -1 (transitive) or 0..32", c.CallDepth)
	errs = append(errs, c.Embedding.Validate(), c.Reranking.Validate())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}
