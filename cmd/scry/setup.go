package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/mcpserver"
	"github.com/scry-dev/scry/internal/tsls"
)

func newSetupCmd() *cobra.Command {
	var onnx bool
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Install TypeScript 7 (the tsgo language server) into scry's cache",
		Long: fmt.Sprintf(`setup installs typescript@%s with the npm client into scry's cache directory
($SCRY_CACHE_DIR, or the user cache directory), where scry finds it when the
workspace has no TypeScript 7 of its own. Structure answers (callers, callees,
references, type hierarchy) then come from the compiler instead of syntax.`, tsls.PinnedVersion),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := engine.CacheDir()
			if err != nil {
				return err
			}
			if onnx {
				return setupONNX(cmd.Context(), dir, cmd.ErrOrStderr())
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "installing typescript@%s into %s\n", tsls.PinnedVersion, filepath.Join(dir, "tsgo"))
			if err := tsls.Setup(cmd.Context(), dir, cmd.ErrOrStderr()); err != nil {
				return err
			}
			path, source, err := tsls.Find(tsls.FindOptions{CacheDir: dir})
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
	cmd := &cobra.Command{
		Use:   "doctor [--root DIR]",
		Short: "Report what scry found and what is missing",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			e, err := ws.open(cmd, engine.Options{KeepBrokenConfig: true}, false, false)
			if err != nil {
				return err
			}
			defer e.Close()
			fmt.Fprintf(out, "workspace: %s\n", e.Dir())
			files, chunks, err := e.Store().Stats()
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "index:     %s (%d files, %d chunks)\n", e.Store().Path(), files, chunks)
			if files == 0 {
				fmt.Fprintln(out, "           not built yet: `scry index` (any search builds it too)")
			}
			cfg := e.Config()
			if err := e.ConfigErr(); err != nil {
				fmt.Fprintf(out, "config:    ERROR %v\n", err)
			} else {
				fmt.Fprintf(out, "config:    threshold %.2f, budget %d, rerank/vector weights %.2f/%.2f, candidates %d, call depth %d\n",
					cfg.Threshold, cfg.Budget, cfg.RerankWeight, cfg.VectorWeight, cfg.Candidates, cfg.CallDepth)
			}
			fmt.Fprintf(out, "trust:     %s\n", cfg.Origin.Trust)
			fmt.Fprintln(out, "settings that run or send something, and where each came from:")
			writeSensitive(out, cfg.Origin, "           ")
			doctorNeural(cmd.Context(), out, e.Store(), cfg.Embedding, cfg.Reranking)
			dir, _ := engine.CacheDir()
			rep := tsls.DiagnoseWith(tsls.FindOptions{Root: e.Dir(), CacheDir: dir, Flag: cfg.TSGo, TrustWorkspace: cfg.Origin.Trust.Trusted})
			fmt.Fprintf(out, "typescript 7:\n%s\n", indentLines(rep.String(), "  "))
			if recs, err := e.Store().AllFiles(); err == nil && len(recs) > 0 {
				paths := make([]string, len(recs))
				for i, r := range recs {
					paths[i] = filepath.Join(e.Dir(), filepath.FromSlash(r.Path))
				}
				governed, ungoverned := tsls.ProgramSplit(paths)
				fmt.Fprintf(out, "projects:  %d files under a tsconfig.json or jsconfig.json, %d without one (given to TypeScript 7 as one program)\n", governed, ungoverned)
				if ungoverned > manyUngoverned {
					fmt.Fprintln(out, "           that program is large: a tsconfig.json or jsconfig.json whose include names the sources keeps TypeScript's memory down")
				}
			}
			tools := cfg.Tools
			if len(tools) == 0 {
				tools = mcpserver.DefaultTools
			}
			fmt.Fprintf(out, "mcp tools: %d exposed\n", len(tools))
			return nil
		},
	}
	ws.register(cmd)
	return cmd
}

// manyUngoverned is where doctor suggests a tsconfig.json: on the published
// date-fns package (5,016 such files) the server grew to 0.9–1.2 GB.
const manyUngoverned = 2000

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix)
}
