package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
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
			// On a shared index, publishing the repository's tenant is
			// what indexing means (Engine.Index).
			r, err := e.Index(cmd.Context())
			if cerr := e.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("close index: %w", cerr)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(r)
			}
			fmt.Fprintln(cmd.OutOrStdout(), render.Indexed(r))
			return nil
		},
	}
	ws.register(cmd)
	nf.register(cmd)
	bf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}
