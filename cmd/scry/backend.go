package main

import (
	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
)

// backendFlags choose where the index lives, for the commands that can use
// a shared index (index, search, serve, doctor).
type backendFlags struct {
	backend, url string
	repos        []string
	replicas     int
	checkouts    []string
}

func (b *backendFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&b.backend, "backend", "", "where the index lives: sqlite (default) or weaviate (env SCRY_BACKEND)")
	cmd.Flags().StringVar(&b.url, "weaviate-url", "", "the Weaviate cluster's URL, http(s)://host:port (env SCRY_WEAVIATE_URL; key from SCRY_WEAVIATE_KEY)")
	cmd.Flags().StringSliceVar(&b.repos, "repo", nil, "repository name in the shared index: the one to index, or those to search (repeat or comma-separate; env SCRY_REPO)")
	cmd.Flags().StringSliceVar(&b.checkouts, "checkout", nil, "NAME=DIR: this machine has repository NAME checked out at DIR; its results' structure comes from TypeScript 7 there (repeat; env SCRY_CHECKOUTS)")
	cmd.Flags().IntVar(&b.replicas, "replicas", 0, "replication factor of the shared index's collections when scry creates them (env SCRY_WEAVIATE_REPLICAS)")
}

func (b *backendFlags) layer(cmd *cobra.Command) func(*engine.Config) error {
	return func(cfg *engine.Config) error {
		setIfChanged(cmd, "backend", &cfg.Backend, b.backend)
		setIfChanged(cmd, "weaviate-url", &cfg.Weaviate.URL, b.url)
		setIfChanged(cmd, "repo", &cfg.Weaviate.Repos, b.repos)
		setIfChanged(cmd, "replicas", &cfg.Weaviate.Replicas, b.replicas)
		if cmd.Flags().Changed("checkout") {
			m, err := engine.ParseCheckouts(b.checkouts)
			if err != nil {
				return err
			}
			cfg.Weaviate.Checkouts = m
		}
		return nil
	}
}
