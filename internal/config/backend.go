package config

import (
	"fmt"
	"regexp"
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
	// Checkouts map repositories to directories where this machine has
	// them checked out (SCRY_CHECKOUTS "name=dir,..." or --checkout;
	// never from a workspace's file, since it chooses what is read):
	// structure for their results comes from TypeScript 7 there.
	Checkouts map[string]string `toml:"-"`
}

func (w *Weaviate) applyEnv(getenv func(string) string) error {
	if v := getenv("SCRY_WEAVIATE_URL"); v != "" {
		w.URL = v
	}
	if v := getenv("SCRY_REPO"); v != "" {
		w.Repos = splitList(v)
	}
	if err := applyInts(map[string]*int{"SCRY_WEAVIATE_REPLICAS": &w.Replicas}, getenv); err != nil {
		return err
	}
	w.Key = getenv("SCRY_WEAVIATE_KEY")
	if v := getenv("SCRY_CHECKOUTS"); v != "" {
		m, err := ParseCheckouts(splitList(v))
		if err != nil {
			return fmt.Errorf("config: SCRY_CHECKOUTS: %w", err)
		}
		w.Checkouts = m
	}
	return nil
}

// ParseCheckouts reads "name=dir" pairs.
func ParseCheckouts(pairs []string) (map[string]string, error) {
	m := map[string]string{}
	for _, p := range pairs {
		name, dir, ok := strings.Cut(p, "=")
		name, dir = strings.TrimSpace(name), strings.TrimSpace(dir)
		if !ok || dir == "" || !repoName.MatchString(name) {
			return nil, fmt.Errorf("checkout %q: want NAME=DIR with a repository name of letters, digits, '-' or '_'", p)
		}
		m[name] = dir
	}
	return m, nil
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
