package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// structureCmd builds a command that answers one structural question (its
// use: info, refs, calls, callers, impls, def) per declaration a symbol
// path names (every match of an ambiguous name).
func structureCmd(use, short string, withDepth bool) *cobra.Command {
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
			ctx, out := cmd.Context(), cmd.OutOrStdout()
			l, err := e.Local(ctx)
			if err != nil {
				return err
			}
			syms, err := l.Symbols(symbol)
			if err != nil {
				return err
			}
			if len(syms) == 0 {
				if asJSON {
					fmt.Fprintln(out, "[]")
					return nil
				}
				near, err := l.Near(symbol)
				if err != nil {
					return err
				}
				fmt.Fprintln(out, render.NoSymbol(symbol, near))
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
			if use == "impls" {
				syms = l.Extensible(syms)
			}
			for _, s := range syms {
				switch use {
				case "info":
					if asJSON {
						md, merr := l.Metadata(ctx, s, depth)
						err = printAnswer(out, true, md, md, merr, nil)
					} else {
						info, ierr := l.Info(ctx, s, depth)
						if err = printAnswer(out, false, info, info, ierr, render.Info); err == nil {
							fmt.Fprintln(out)
						}
					}
				case "refs":
					refs, rerr := l.References(ctx, s, 0)
					err = printAnswer(out, asJSON, refs, refs, rerr, render.References)
				case "calls":
					t, terr := l.Callees(ctx, s, depth)
					err = printAnswer(out, asJSON, t, t.Outgoing, terr, render.CallTree)
				case "callers":
					t, terr := l.Callers(ctx, s, depth)
					err = printAnswer(out, asJSON, t, t.Callers, terr, render.CallTree)
				case "impls":
					impls, ierr := l.Implementations(ctx, s)
					err = printAnswer(out, asJSON, impls, impls, ierr, render.Implementations)
				case "def":
					err = printAnswer(out, asJSON, s.Declaration, s.Declaration, nil, render.Declaration)
				}
				if err != nil {
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

// printAnswer prints a question's answer: asJSON, what JSON shows of it
// (j), else render's text of it (text).
func printAnswer[T, J any](out io.Writer, asJSON bool, v T, j J, err error, text func(T) string) error {
	if err != nil {
		return err
	}
	if asJSON {
		return render.JSON(out, j)
	}
	fmt.Fprint(out, text(v))
	return nil
}

// newStructureCmds builds the commands that each answer one structural
// question about a symbol; those that draw a call tree take --depth.
func newStructureCmds() []*cobra.Command {
	return []*cobra.Command{
		structureCmd("info", "Show a symbol's signature, modifiers, type hierarchy, calls, callers, references, type flows and members", true),
		structureCmd("refs", "List every use of a symbol, grouped by file, tagged call, new, import, type, write or read", false),
		structureCmd("calls", "Show the calls a symbol makes, as a tree", true),
		structureCmd("callers", "Show what calls a symbol, as a tree", true),
		structureCmd("impls", "List the classes and interfaces that extend or implement a symbol", false),
		structureCmd("def", "Show where a symbol is declared, with its signature", false),
	}
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
			l, err := e.Local(cmd.Context())
			if err != nil {
				return err
			}
			imps, err := l.Importers(cmd.Context(), ws.fromCwd(args[0]))
			if err != nil {
				return err
			}
			if asJSON {
				return render.JSON(cmd.OutOrStdout(), nonNil(imps))
			}
			fmt.Fprintln(cmd.OutOrStdout(), strings.TrimSuffix(render.Importers(args[0], imps), "\n"))
			return nil
		},
	}
	ws.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// nonNil is s, or an empty list for none (JSON [], not null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
