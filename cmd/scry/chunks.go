package main

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
)

func newChunksCmd() *cobra.Command {
	var asJSON, stats bool
	var root string
	cmd := &cobra.Command{
		Use:   "chunks [--json] [--stats] [--root DIR] FILE|DIR...",
		Short: "Parse files and print their symbol-level chunks",
		Long: `chunks parses TypeScript/JavaScript files (directories are walked, skipping
node_modules and .git) and prints their chunks: a readable outline by default,
one JSON object per line with --json. --stats checks the chunks of every file
against the ten validation rules (coverage, no overlap, source fidelity,
hierarchy, token limit, collapsed children, breadcrumbs, deterministic ids,
root isolation, relevant imports) and prints the validation summary.

Like every path argument, each FILE or DIR must lie inside the workspace root
(--root, default the current directory); files are read through it, so a
link out of the root is refused.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := engine.FindSources(root, args)
			if err != nil {
				return err
			}
			if stats {
				return printStats(cmd, files)
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			defer w.Flush()
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false)
			for _, rel := range files.Files {
				chunks, err := files.Chunks(rel)
				if err != nil {
					return err
				}
				for _, c := range chunks {
					if asJSON {
						if err := enc.Encode(c); err != nil {
							return err
						}
						continue
					}
					fmt.Fprintf(w, "%s%s %s [%d-%d]\n", indent(c.Depth), c.NodeKind, c.Breadcrumb, c.StartLine, c.EndLine)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON chunk per line")
	cmd.Flags().BoolVar(&stats, "stats", false, "validate the chunks and print the Parser Validation Summary")
	cmd.Flags().StringVar(&root, "root", ".", "workspace root the paths must lie in")
	return cmd
}

func indent(n int) string {
	b := make([]byte, 2*n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

// printStats validates every file's chunks (twice, for deterministic ids)
// and prints the Parser Validation Summary (docs/architecture.md, rule 2); it fails when any
// rule is violated.
func printStats(cmd *cobra.Command, files *engine.SourceFiles) error {
	results, sum, err := files.Check("Files")
	if err != nil {
		return err
	}
	for _, res := range results {
		for i, v := range res.Violations {
			if i == 3 {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d more violations\n", res.Path, len(res.Violations)-3)
				break
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", res.Path, v)
		}
	}
	fmt.Fprint(cmd.OutOrStdout(), sum.String())
	if !sum.OK() {
		return fmt.Errorf("chunks: validation failed")
	}
	return nil
}
