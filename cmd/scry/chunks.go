package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
)

func newChunksCmd() *cobra.Command {
	var asJSON, stats bool
	cmd := &cobra.Command{
		Use:   "chunks [--json] [--stats] FILE|DIR...",
		Short: "Parse files and print their symbol-level chunks",
		Long: `chunks parses TypeScript/JavaScript files (directories are walked, skipping
node_modules and .git) and prints their chunks: a readable outline by default,
one JSON object per line with --json. --stats checks the chunks of every file
against the ten validation rules (coverage, no overlap, source fidelity,
hierarchy, token limit, collapsed children, breadcrumbs, deterministic ids,
root isolation, relevant imports) and prints the validation summary.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := expandArgs(args)
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
			for _, path := range files {
				chunks, err := engine.ChunkFile(path)
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
	return cmd
}

func indent(n int) string {
	b := make([]byte, 2*n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

// expandArgs turns file and directory arguments into a sorted list of
// supported source files.
func expandArgs(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("chunks: %w", err)
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") && p != a {
				return filepath.SkipDir
			}
			if !d.IsDir() && engine.IsSource(p) {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("chunks: walk %s: %w", a, err)
		}
	}
	sort.Strings(files)
	return files, nil
}

// printStats validates every file's chunks (twice, for deterministic ids)
// and prints the Parser Validation Summary (docs/architecture.md, rule 2); it fails when any
// rule is violated.
func printStats(cmd *cobra.Command, files []string) error {
	results, sum, err := engine.CheckChunks(files, "Files")
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
