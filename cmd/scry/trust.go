package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/config"
)

func newTrustCmd() *cobra.Command {
	var root string
	var revoke bool
	cmd := &cobra.Command{
		Use:   "trust [--root DIR] [--revoke]",
		Short: "Let a workspace's .scry.toml name programs, URLs and models, and use its own TypeScript",
		Long: `A repository being indexed is not trusted: settings in its .scry.toml that run a
program (tsgo), load a library or model (onnxRuntimeLib, dir) or choose where
code and API keys are sent (provider, url) are ignored, and TypeScript
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
			userDir := config.UserDir(os.Getenv)
			if revoke {
				had, err := config.RevokeTrust(userDir, root)
				if err != nil {
					return fmt.Errorf("trust --revoke: %w", err)
				}
				canon, _ := config.CanonicalRoot(root)
				if !had {
					fmt.Fprintf(out, "%s was not trusted\n", canon)
					return nil
				}
				fmt.Fprintf(out, "%s is no longer trusted\n", canon)
				return nil
			}
			rec, err := config.TrustWorkspace(userDir, root, time.Now())
			if err != nil {
				return fmt.Errorf("trust: %w", err)
			}
			fmt.Fprintf(out, "trusted %s\n", rec.Root)
			cfg, err := config.Load(rec.Root, os.Getenv)
			if err != nil {
				fmt.Fprintf(out, "  its configuration does not load: %v\n", err)
				return nil
			}
			writeSensitive(out, cfg.Origin, "  ")
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

// writeSensitive lists where each setting that runs or sends something
// came from, for doctor and trust.
func writeSensitive(out io.Writer, o config.Origin, indent string) {
	for _, s := range config.Sensitive {
		fmt.Fprintf(out, "%s%-25s %s\n", indent, s.Key, o.Source(s.Key))
	}
	for _, ig := range o.Ignored {
		fmt.Fprintf(out, "%s%-25s IGNORED %q from the untrusted workspace\n", indent, ig.Key, ig.Value)
	}
}
