package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
)

func newIndexCmd() *cobra.Command {
	var ws workspaceFlags
	var nf neuralFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "index [--root DIR]",
		Short: "Bring the workspace's index up to date",
		Long: `index discovers the workspace's TypeScript/JavaScript files (honouring .gitignore
and the default excludes), parses and chunks new or changed files, drops removed
ones, and prints a one-line summary. A progress bar is shown on a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := ws.open(cmd, engine.Options{Models: true, Sync: true}, true, false, nf.layer(cmd))
			if err != nil {
				return err
			}
			sum := e.LastSync()
			if err := e.Close(); err != nil {
				return fmt.Errorf("close index: %w", err)
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(sum)
			}
			fmt.Fprintln(cmd.OutOrStdout(), sum.String())
			return nil
		},
	}
	ws.register(cmd)
	nf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}
