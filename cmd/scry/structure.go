package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/structure"
)

// structureCmd builds a command that answers one structural question per
// declaration a symbol path names (every match of an ambiguous name).
func structureCmd(use, short string, withDepth bool, run func(cmd *cobra.Command, e *engine.Engine, c chunk.Chunk, depth int, asJSON bool, out io.Writer) error) *cobra.Command {
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
			e, err := ws.open(cmd, engine.Options{Sync: true, Compiler: engine.CompilerWait}, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			symbol := strings.Join(args, " ")
			cs, err := e.Resolve(symbol)
			if err != nil {
				return err
			}
			if len(cs) == 0 {
				if asJSON {
					fmt.Fprintln(cmd.OutOrStdout(), "[]")
					return nil
				}
				fmt.Fprintf(cmd.OutOrStdout(), "No symbol %q in the workspace.\n", symbol)
				return nil
			}
			if !cmd.Flags().Changed("depth") {
				depth = e.Config().CallDepth
			}
			for _, c := range cs {
				if err := run(cmd, e, c, depth, asJSON, cmd.OutOrStdout()); err != nil {
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

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newInfoCmd() *cobra.Command {
	return structureCmd("info", "Show a symbol's signature, modifiers, type hierarchy, calls, callers, references, type flows and members", true,
		func(cmd *cobra.Command, e *engine.Engine, c chunk.Chunk, depth int, asJSON bool, out io.Writer) error {
			if asJSON {
				md, err := e.Metadata(cmd.Context(), c, structure.Options{CallDepth: depth})
				if err != nil {
					return err
				}
				return printJSON(out, md)
			}
			text, err := e.Info(cmd.Context(), c, depth)
			if err != nil {
				return err
			}
			fmt.Fprintln(out, text)
			return nil
		})
}

func newRefsCmd() *cobra.Command {
	return structureCmd("refs", "List every use of a symbol, grouped by file, tagged call, new, import, type, write or read", false,
		func(cmd *cobra.Command, e *engine.Engine, c chunk.Chunk, _ int, asJSON bool, out io.Writer) error {
			if asJSON {
				md, err := e.Metadata(cmd.Context(), c, structure.Options{Sections: structure.SecReferences})
				if err != nil {
					return err
				}
				return printJSON(out, md.References)
			}
			text, err := e.ReferencesText(cmd.Context(), c, 0)
			if err != nil {
				return err
			}
			fmt.Fprint(out, text)
			return nil
		})
}

func callTree(out io.Writer, name string, md *structure.SymbolMetadata, incoming bool) {
	fmt.Fprintf(out, "%s — %s:%d", name, md.File, md.Line)
	if md.Approximate {
		fmt.Fprint(out, " (approximate: from the index)")
	}
	fmt.Fprintln(out)
	var walkOut func([]structure.OutgoingCall, int)
	walkOut = func(calls []structure.OutgoingCall, depth int) {
		for _, c := range calls {
			fmt.Fprintf(out, "%s→ %s (%s:%d)%s\n", strings.Repeat("  ", depth), callName(c.SymbolRef), callFile(c.SymbolRef), c.Line, marks(c.CallInfo))
			walkOut(c.OutgoingCalls, depth+1)
		}
	}
	var walkIn func([]structure.IncomingCaller, int)
	walkIn = func(calls []structure.IncomingCaller, depth int) {
		for _, c := range calls {
			fmt.Fprintf(out, "%s← %s (%s:%d)%s\n", strings.Repeat("  ", depth), callName(c.SymbolRef), callFile(c.SymbolRef), c.Line, marks(c.CallInfo))
			walkIn(c.IncomingCallers, depth+1)
		}
	}
	if incoming {
		walkIn(md.IncomingCallers, 1)
	} else {
		walkOut(md.OutgoingCalls, 1)
	}
}

func callName(r structure.SymbolRef) string {
	if r.Container != "" {
		return r.Container + "." + r.Name
	}
	return r.Name
}

func callFile(r structure.SymbolRef) string {
	if r.External && r.Package != "" {
		return r.Package
	}
	return r.File
}

func marks(c structure.CallInfo) string {
	var m []string
	if c.ViaNew {
		m = append(m, "[new]")
	}
	if c.Cyclic {
		m = append(m, "[cycle]")
	}
	if c.DepthLimited {
		m = append(m, "[depth limit]")
	}
	if c.ViaReferences {
		m = append(m, "[via references]")
	}
	if len(m) == 0 {
		return ""
	}
	return " " + strings.Join(m, " ")
}

func newCallsCmd() *cobra.Command {
	return structureCmd("calls", "Show the calls a symbol makes, as a tree", true,
		func(cmd *cobra.Command, e *engine.Engine, c chunk.Chunk, depth int, asJSON bool, out io.Writer) error {
			md, err := e.Metadata(cmd.Context(), c, structure.Options{CallDepth: depth, Sections: structure.SecOutgoing})
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(out, md.OutgoingCalls)
			}
			callTree(out, engine.DisplayName(c), md, false)
			return nil
		})
}

func newCallersCmd() *cobra.Command {
	return structureCmd("callers", "Show what calls a symbol, as a tree", true,
		func(cmd *cobra.Command, e *engine.Engine, c chunk.Chunk, depth int, asJSON bool, out io.Writer) error {
			md, err := e.Metadata(cmd.Context(), c, structure.Options{CallDepth: depth, Sections: structure.SecIncoming})
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(out, md.IncomingCallers)
			}
			if md.Approximate {
				fmt.Fprintf(out, "%s: callers need the TypeScript server (scry setup); see `scry refs` for text matches\n", engine.DisplayName(c))
				return nil
			}
			callTree(out, engine.DisplayName(c), md, true)
			return nil
		})
}

func newImplsCmd() *cobra.Command {
	return structureCmd("impls", "List the classes and interfaces that extend or implement a symbol", false,
		func(cmd *cobra.Command, e *engine.Engine, c chunk.Chunk, _ int, asJSON bool, out io.Writer) error {
			if asJSON {
				md, err := e.Metadata(cmd.Context(), c, structure.Options{Sections: structure.SecHierarchy})
				if err != nil {
					return err
				}
				return printJSON(out, md.TypeHierarchy)
			}
			text, err := e.ImplementationsText(cmd.Context(), c)
			if err != nil {
				return err
			}
			fmt.Fprint(out, text)
			return nil
		})
}

func newDefCmd() *cobra.Command {
	return structureCmd("def", "Show where a symbol is declared, with its signature", false,
		func(cmd *cobra.Command, e *engine.Engine, c chunk.Chunk, _ int, asJSON bool, out io.Writer) error {
			if asJSON {
				return printJSON(out, map[string]any{"name": engine.DisplayName(c), "kind": c.NodeKind, "file": c.RelativePath,
					"line": engine.NameLine(c), "start_line": c.StartLine, "end_line": c.EndLine, "signature": c.Signature})
			}
			fmt.Fprintf(out, "%s %s — %s:%d (lines %d-%d)\n", c.NodeKind, engine.DisplayName(c), c.RelativePath, engine.NameLine(c), c.StartLine, c.EndLine)
			if c.Signature != "" {
				fmt.Fprintf(out, "    %s\n", c.Signature)
			}
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
			e, err := ws.open(cmd, engine.Options{Sync: true}, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			imps, err := e.Importers(args[0])
			if err != nil {
				return err
			}
			if asJSON {
				if imps == nil {
					imps = []engine.Importer{}
				}
				return printJSON(cmd.OutOrStdout(), imps)
			}
			if len(imps) == 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "Nothing imports %q.\n", args[0])
			}
			for _, im := range imps {
				fmt.Fprintf(cmd.OutOrStdout(), "%s:%d: %s\n", im.File, im.Line, im.Statement)
			}
			return nil
		},
	}
	ws.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
