package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// structureCmd builds a command that answers one structural question per
// declaration a symbol path names (every match of an ambiguous name).
func structureCmd(use, short string, withDepth bool, run func(cmd *cobra.Command, e *engine.Engine, s engine.Symbol, depth int, asJSON bool, out io.Writer) error) *cobra.Command {
	var ws workspaceFlags
	var asJSON bool
	var depth int
	cmd := &cobra.Command{
		Use:   use + " SYMBOL",
		Short: short,
		Long: short + `.

SYMBOL is "[file >] [Parent >] name" (file and parent optional; Parent.name
works too). An ambiguous name answers for every match. Answers come from the
TypeScript 7 compiler when scry can find it (scry setup installs it);
otherwise from the index, marked approximate.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := ws.findRoot(cmd); err != nil {
				return err
			}
			// A file in the symbol path may be typed relative to the
			// current directory.
			symbol := ws.symbolFromCwd(strings.Join(args, " "))
			if ok, err := ws.viaServer(cmd, func() []string { return []string{symbol} }); ok {
				return err
			}
			e, done, err := ws.open(cmd, engine.Options{Sync: true, Compiler: engine.CompilerWait}, true, false)
			if err != nil {
				return err
			}
			defer done()
			syms, err := e.Symbols(symbol)
			if err != nil {
				return err
			}
			if len(syms) == 0 {
				if asJSON {
					fmt.Fprintln(cmd.OutOrStdout(), "[]")
					return nil
				}
				fmt.Fprintln(cmd.OutOrStdout(), render.NoSymbol(symbol))
				return nil
			}
			asked := depth
			if !cmd.Flags().Changed("depth") {
				asked = 0 // the configured depth
			}
			depth, err := e.Config().CallDepthFor(asked)
			if err != nil {
				return err
			}
			for _, s := range syms {
				if err := run(cmd, e, s, depth, asJSON, cmd.OutOrStdout()); err != nil {
					return err
				}
			}
			return nil
		},
	}
	ws.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	if withDepth {
		cmd.Flags().IntVar(&depth, "depth", 1, "call-tree depth: 1, N, or -1 for transitive")
	}
	return cmd
}

func newInfoCmd() *cobra.Command {
	return structureCmd("info", "Show a symbol's signature, modifiers, type hierarchy, calls, callers, references, type flows and members", true,
		func(cmd *cobra.Command, e *engine.Engine, s engine.Symbol, depth int, asJSON bool, out io.Writer) error {
			if asJSON {
				md, err := e.Metadata(cmd.Context(), s, depth)
				if err != nil {
					return err
				}
				return render.JSON(out, md)
			}
			info, err := e.Info(cmd.Context(), s, depth)
			if err != nil {
				return err
			}
			fmt.Fprintln(out, render.Info(info))
			return nil
		})
}

func newRefsCmd() *cobra.Command {
	return structureCmd("refs", "List every use of a symbol, grouped by file, tagged call, new, import, type, write or read", false,
		func(cmd *cobra.Command, e *engine.Engine, s engine.Symbol, _ int, asJSON bool, out io.Writer) error {
			refs, err := e.References(cmd.Context(), s, 0)
			if err != nil {
				return err
			}
			if asJSON {
				return render.JSON(out, refs)
			}
			fmt.Fprint(out, render.References(refs))
			return nil
		})
}

func newCallsCmd() *cobra.Command {
	return structureCmd("calls", "Show the calls a symbol makes, as a tree", true,
		func(cmd *cobra.Command, e *engine.Engine, s engine.Symbol, depth int, asJSON bool, out io.Writer) error {
			t, err := e.Callees(cmd.Context(), s, depth)
			if err != nil {
				return err
			}
			if asJSON {
				return render.JSON(out, t.Outgoing)
			}
			fmt.Fprint(out, render.CallTree(t))
			return nil
		})
}

func newCallersCmd() *cobra.Command {
	return structureCmd("callers", "Show what calls a symbol, as a tree", true,
		func(cmd *cobra.Command, e *engine.Engine, s engine.Symbol, depth int, asJSON bool, out io.Writer) error {
			t, err := e.Callers(cmd.Context(), s, depth)
			if err != nil {
				return err
			}
			if asJSON {
				return render.JSON(out, t.Callers)
			}
			fmt.Fprint(out, render.CallTree(t))
			return nil
		})
}

func newImplsCmd() *cobra.Command {
	return structureCmd("impls", "List the classes and interfaces that extend or implement a symbol", false,
		func(cmd *cobra.Command, e *engine.Engine, s engine.Symbol, _ int, asJSON bool, out io.Writer) error {
			impls, err := e.Implementations(cmd.Context(), s)
			if err != nil {
				return err
			}
			if asJSON {
				return render.JSON(out, impls)
			}
			fmt.Fprint(out, render.Implementations(impls))
			return nil
		})
}

func newDefCmd() *cobra.Command {
	return structureCmd("def", "Show where a symbol is declared, with its signature", false,
		func(cmd *cobra.Command, e *engine.Engine, s engine.Symbol, _ int, asJSON bool, out io.Writer) error {
			if asJSON {
				return render.JSON(out, s.Declaration)
			}
			fmt.Fprint(out, render.Declaration(s.Declaration))
			return nil
		})
}

func newImportersCmd() *cobra.Command {
	var ws workspaceFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "importers MODULE|FILE|SYMBOL",
		Short: "List the files that import a workspace file, a package, or a named export",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if ok, err := ws.viaServer(cmd, func() []string { return []string{ws.fromCwd(args[0])} }); ok {
				return err
			}
			e, done, err := ws.open(cmd, engine.Options{Sync: true}, true, false)
			if err != nil {
				return err
			}
			defer done()
			imps, err := e.Importers(cmd.Context(), ws.fromCwd(args[0]))
			if err != nil {
				return err
			}
			if asJSON {
				if imps == nil {
					imps = []engine.Importer{}
				}
				return render.JSON(cmd.OutOrStdout(), imps)
			}
			fmt.Fprintln(cmd.OutOrStdout(), strings.TrimSuffix(render.Importers(args[0], imps), "\n"))
			return nil
		},
	}
	ws.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
