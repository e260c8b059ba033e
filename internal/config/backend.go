package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Backends.
const (
	BackendSQLite   = "sqlite"
	BackendWeaviate = "weaviate"
)

// Weaviate is the shared index's settings ([weaviate] in .scry.toml). The
// API key comes only from the environment (SCRY_WEAVIATE_KEY).
type Weaviate struct {
	// URL is the cluster's REST endpoint (SCRY_WEAVIATE_URL).
	URL string `toml:"url"`
	// Repos are the repositories (tenants) searched; indexing writes the
	// first (SCRY_REPO, comma-separated; --repo).
	Repos []string `toml:"repos"`
	// Replicas is the replication factor of the collections when scry
	// creates them (SCRY_WEAVIATE_REPLICAS; 0: 1).
	Replicas int `toml:"replicas"`
	// Key is the API key, from SCRY_WEAVIATE_KEY only.
	Key string `toml:"-"`
}

func (w *Weaviate) applyEnv(getenv func(string) string) error {
	if v := getenv("SCRY_WEAVIATE_URL"); v != "" {
		w.URL = v
	}
	if v := getenv("SCRY_REPO"); v != "" {
		w.Repos = splitList(v)
	}
	if v := getenv("SCRY_WEAVIATE_REPLICAS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("config: SCRY_WEAVIATE_REPLICAS=%q: not an integer", v)
		}
		w.Replicas = n
	}
	w.Key = getenv("SCRY_WEAVIATE_KEY")
	return nil
}

var repoName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func (c Config) validateBackend() error {
	switch strings.ToLower(c.Backend) {
	case "", BackendSQLite:
		return nil
	case BackendWeaviate:
	default:
		return fmt.Errorf("backend %q: want %s or %s", c.Backend, BackendSQLite, BackendWeaviate)
	}
	if c.Weaviate.URL == "" {
		return fmt.Errorf("backend weaviate needs weaviate.url (SCRY_WEAVIATE_URL or --weaviate-url)")
	}
	if c.Weaviate.Replicas < 0 {
		return fmt.Errorf("weaviate.replicas %d: want 1 or more", c.Weaviate.Replicas)
	}
	for _, r := range c.Weaviate.Repos {
		if !repoName.MatchString(r) {
			return fmt.Errorf("repository name %q: use 1 to 64 letters, digits, '-' or '_'", r)
		}
	}
	return nil
}

// SharedIndex reports whether the index lives on a Weaviate cluster.
func (c Config) SharedIndex() bool { return strings.EqualFold(c.Backend, BackendWeaviate) }
