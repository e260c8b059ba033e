package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

func newTrustCmd() *cobra.Command {
	var root string
	var revoke bool
	cmd := &cobra.Command{
		Use:   "trust [--root DIR] [--revoke]",
		Short: "Let a workspace's .scry.toml name programs, URLs, models and repositories, raise limits, and use its own TypeScript",
		Long: `A repository being indexed is not trusted: settings in its .scry.toml that run a
program (tsgo), load a library or model (onnxRuntimeLib, dir) or choose where
code and API keys are sent (provider, url, the shared index's repos) are
ignored, limits that protect the machine (maxFileSize, maxTokenBudget) may be
lowered but not raised, and TypeScript
installed in its node_modules is not run. Take them from flags, the
environment or your own config (` + "`$XDG_CONFIG_HOME/scry/config.toml`" + `) instead,
or trust the workspace: trust records its root and the hash of its current
.scry.toml in your config directory, so a changed file needs trusting again.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if root == "" {
				wd, err := os.Getwd()
				if err != nil {
					return fmt.Errorf("trust: %w", err)
				}
				root = wd
			}
			if revoke {
				had, canon, err := engine.RevokeTrust(root)
				if err != nil {
					return err
				}
				if !had {
					fmt.Fprintf(out, "%s was not trusted\n", canon)
					return nil
				}
				fmt.Fprintf(out, "%s is no longer trusted\n", canon)
				return nil
			}
			rec, err := engine.Trust(root)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "trusted %s\n", rec.Root)
			cfg, err := engine.LoadConfig(rec.Root)
			if err != nil {
				fmt.Fprintf(out, "  its configuration does not load: %v\n", err)
				return nil
			}
			fmt.Fprint(out, render.Sensitive(cfg, "  "))
			if rec.ConfigSHA256 == "" {
				fmt.Fprintln(out, "  (no .scry.toml: if one appears, it needs trusting again)")
			} else {
				fmt.Fprintln(out, "  a change to .scry.toml needs `scry trust` again")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&root, "root", "", "workspace root (default: the current directory)")
	cmd.Flags().BoolVar(&revoke, "revoke", false, "forget the trust decision for the workspace")
	return cmd
}
