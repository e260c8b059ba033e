package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
)

// backendFlags choose where the index lives, for the commands that can use
// a shared index (index, search, serve, doctor).
type backendFlags struct {
	backend, url string
	repos        []string
	replicas     int
}

// sharedOK marks a command that can run on the weaviate backend.
const sharedOK = "scry/shared-index"

func (b *backendFlags) register(cmd *cobra.Command) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[sharedOK] = "yes"
	cmd.Flags().StringVar(&b.backend, "backend", "", "where the index lives: sqlite (default) or weaviate (env SCRY_BACKEND)")
	cmd.Flags().StringVar(&b.url, "weaviate-url", "", "the Weaviate cluster's URL, http(s)://host:port (env SCRY_WEAVIATE_URL; key from SCRY_WEAVIATE_KEY)")
	cmd.Flags().StringSliceVar(&b.repos, "repo", nil, "repository name in the shared index: the one to index, or those to search (repeat or comma-separate; env SCRY_REPO)")
	cmd.Flags().IntVar(&b.replicas, "replicas", 0, "replication factor of the shared index's collections when scry creates them (env SCRY_WEAVIATE_REPLICAS)")
}

func (b *backendFlags) layer(cmd *cobra.Command) func(*engine.Config) error {
	return func(cfg *engine.Config) error {
		f := cmd.Flags()
		if f.Changed("backend") {
			cfg.Backend = b.backend
		}
		if f.Changed("weaviate-url") {
			cfg.Weaviate.URL = b.url
		}
		if f.Changed("repo") {
			cfg.Weaviate.Repos = b.repos
		}
		if f.Changed("replicas") {
			cfg.Weaviate.Replicas = b.replicas
		}
		return nil
	}
}

// refuseShared stops a command that needs a local index from running on
// a stateless shared-index engine.
func refuseShared(cmd *cobra.Command, e *engine.Engine) error {
	if !e.Shared() || cmd.Annotations[sharedOK] != "" {
		return nil
	}
	e.Close()
	return fmt.Errorf("%s needs a local index; the weaviate backend serves index, search, serve and doctor (use --backend sqlite or unset SCRY_BACKEND)", cmd.Name())
}
