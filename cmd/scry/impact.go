package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

func newImpactCmd() *cobra.Command {
	var ws workspaceFlags
	var asJSON bool
	var depth, budget int
	cmd := &cobra.Command{
		Use:   "impact [REV | A..B]",
		Short: "Show what a change affects: changed symbols, their callers, references, importers and the tests reaching them",
		Long: `impact reads a change with git (the working tree and untracked files
against HEAD; against REV; or the commits A..B) and answers what it affects:
the declarations around the changed lines; for each, its callers to --depth
(transitive) and references, from TypeScript 7 when found (else from the
index, marked approximate); the files importing a changed export; and the
test files that use a changed symbol or import their way to one within
--depth steps. The answer fits --budget tokens: the lists are cut from the
far end and say how many were left out.

scry runs only git itself, with fixed arguments (REV must be a revision or
range; no external diff or textconv programs, no fsmonitor hook).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rev := ""
			if len(args) == 1 {
				rev = args[0]
			}
			if ok, err := ws.viaServer(cmd, func() []string { return args }); ok {
				return err
			}
			e, done, err := ws.open(cmd, engine.Options{Sync: true, Compiler: engine.CompilerWait}, true, true)
			if err != nil {
				return err
			}
			defer done()
			if !cmd.Flags().Changed("budget") {
				budget = e.Config().Budget
			}
			l, err := e.Local(cmd.Context())
			if err != nil {
				return err
			}
			imp, err := l.Impact(cmd.Context(), rev, depth)
			if err != nil {
				return err
			}
			if asJSON {
				return render.JSON(cmd.OutOrStdout(), imp)
			}
			fmt.Fprint(cmd.OutOrStdout(), render.Impact(imp, budget))
			return nil
		},
	}
	ws.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (everything, no budget)")
	// 0 is the questions' default (3), which the help names.
	cmd.Flags().IntVar(&depth, "depth", 0, "how far callers and importers are followed (default 3)")
	cmd.Flags().IntVar(&budget, "budget", 0, "token budget for the answer (default: maxTokenBudget, 8000)")
	return cmd
}
