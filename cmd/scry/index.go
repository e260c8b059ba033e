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
	var bf backendFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "index [--root DIR]",
		Short: "Bring the workspace's index up to date",
		Long: `index discovers the workspace's TypeScript/JavaScript files (honouring .gitignore
and the default excludes), parses and chunks new or changed files, drops removed
ones, and prints a one-line summary. A progress bar is shown on a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := ws.openEngine(cmd, engine.Options{Models: true, Sync: true, Publish: true}, true, false, nf.layer(cmd), bf.layer(cmd))
			if err != nil {
				return err
			}
			if e.Shared() {
				return publish(cmd, e, asJSON)
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
	bf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}

// publish writes the workspace into its repository's tenant of the shared
// index (the local index, already synced by Open, is the source).
func publish(cmd *cobra.Command, e *engine.Engine, asJSON bool) error {
	defer e.Close()
	sum, err := e.Publish(cmd.Context())
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(cmd.OutOrStdout()).Encode(sum)
	}
	rate := 0.0
	if s := sum.Elapsed.Seconds(); s > 0 {
		rate = float64(sum.Chunks) / s
	}
	swept := ""
	if sum.Swept > 0 {
		swept = fmt.Sprintf("; %d leftover chunks of an interrupted sync removed", sum.Swept)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s: %d files: %d sent (%d chunks, %.0f chunks/s), %d unchanged, %d deleted, %d changed during the sync (sent next time)%s\n",
		e.Repos()[0], sum.Files, sum.Sent, sum.Chunks, rate, sum.Unchanged, sum.Deleted, sum.Skipped, swept)
	return nil
}
