package main

import (
	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/benchcmd"
)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "scry",
		Short: "Precise, compiler-resolved context from TypeScript/JavaScript codebases",
		Long: `scry indexes a TypeScript/JavaScript workspace into symbol-level chunks and answers
questions in plain words or by symbol path with only the symbols that matter,
complete, with their structural connections, inside a token budget.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newChunksCmd(), newIndexCmd(), newSearchCmd(), newServeCmd(), newSetupCmd(), newDoctorCmd(), newTrustCmd())
	root.AddCommand(newStructureCmds()...)
	root.AddCommand(newImportersCmd(), benchcmd.Command(), newInstallCmd(), newUninstallCmd(), newImpactCmd(), newHookCmd())
	return root
}
