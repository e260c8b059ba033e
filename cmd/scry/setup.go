package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/mcpserver"
	"github.com/scry-dev/scry/internal/render"
)

func newSetupCmd() *cobra.Command {
	var onnx bool
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Install TypeScript 7 (the tsgo language server) into scry's cache",
		Long: fmt.Sprintf(`setup installs typescript@%s with the npm client into scry's cache directory
($SCRY_CACHE_DIR, or the user cache directory), where scry finds it when the
workspace has no TypeScript 7 of its own. Structure answers (callers, callees,
references, type hierarchy) then come from the compiler instead of syntax.`, engine.TypeScriptVersion),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := engine.CacheDir()
			if err != nil {
				return err
			}
			if onnx {
				fmt.Fprintf(cmd.ErrOrStderr(), "fetching onnxruntime-node@%s with npm pack (no install scripts run)\n", engine.ONNXRuntimeVersion)
				path, version, err := engine.SetupONNX(cmd.Context(), dir)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "ONNX Runtime %s ready: %s\n", version, path)
				return nil
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "installing typescript@%s into %s\n", engine.TypeScriptVersion, filepath.Join(dir, "tsgo"))
			path, source, err := engine.SetupTypeScript(cmd.Context(), dir, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "TypeScript 7 ready: %s (%s)\n", path, source)
			return nil
		},
	}
	cmd.Flags().BoolVar(&onnx, "onnx", false, "instead, unpack ONNX Runtime (from npm's onnxruntime-node@1.30.0) for local embedding and reranking models")
	return cmd
}

func newDoctorCmd() *cobra.Command {
	var ws workspaceFlags
	var compiler bool
	var bf backendFlags
	cmd := &cobra.Command{
		Use:   "doctor [--root DIR]",
		Short: "Report what scry found and what is missing",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// With a `scry serve` running for the workspace, it answers:
			// its compiler's state is the one agents' answers report.
			if ok, err := ws.viaServer(cmd, func() []string { return nil }); ok {
				return err
			}
			opt := engine.Options{KeepBrokenConfig: true}
			if compiler {
				// Loading the project needs the indexed file list.
				opt.Compiler = engine.CompilerWait
			}
			e, done, err := ws.open(cmd, opt, compiler, false, bf.layer(cmd))
			if err != nil {
				return err
			}
			defer done()
			dir, _ := engine.CacheDir()
			d, err := e.Diagnose(cmd.Context(), dir)
			if err != nil {
				return err
			}
			d.Served = served(cmd.Context()) != nil
			tools := len(d.Config.Tools)
			if tools == 0 {
				tools = len(mcpserver.DefaultTools)
			}
			fmt.Fprint(cmd.OutOrStdout(), render.Diagnosis(d, tools))
			return nil
		},
	}
	ws.register(cmd)
	bf.register(cmd)
	cmd.Flags().BoolVar(&compiler, "compiler", false, "also start TypeScript 7 on the workspace (indexing it first) and report its memory")
	return cmd
}
