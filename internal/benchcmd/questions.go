package benchcmd

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/engine"
)

// defaultQuestions is where the agent questions live in a checkout that
// has the shared benchmark directory beside it.
const defaultQuestions = "../shared/bench/queries"

func newBenchQuestionsCmd() *cobra.Command {
	var dir, mirrors, work, dump, out, modelPath string
	var repos []string
	var dumpHybrid, asJSON, quiet bool
	cmd := &cobra.Command{
		Use:     "queries [--queries DIR] [--mirrors DIR] [--dump FILE]",
		Aliases: []string{"questions"},
		Short:   "Ranking and default answers on agent-style questions (NDCG@10 per repository and category)",
		Long: `queries reads a questions directory (repos.json and one <name>.json per
repository: questions of the kinds agents ask, each labelled with the files
that answer it), materialises each repository at its pinned revision from a
bare git mirror (--mirrors or SCRY_BENCH_MIRRORS), indexes its benchmark
root, and reports NDCG@10 of grep-style file counts, BM25F over chunks with
no ranking and scry's ranked list, per repository, per category and overall
(the mean of the repository means), then what the default answer (gate,
budget, leads) holds. --dump FILE records every candidate's features for
'scry bench fit', which reports leave-one-repository-out figures.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if mirrors == "" {
				return fmt.Errorf("bench queries: no mirrors: set --mirrors or SCRY_BENCH_MIRRORS to a directory of bare git mirrors")
			}
			all, ins, err := bench.LoadQuestions(dir)
			if err != nil {
				return err
			}
			var sel []bench.QuestionRepo
			for _, r := range all {
				if len(repos) == 0 || slices.Contains(repos, r.Repo) || slices.Contains(repos, r.Name) {
					sel = append(sel, r)
				}
			}
			if len(sel) == 0 {
				return fmt.Errorf("bench queries: no repository selected")
			}
			opt := bench.QuestionOptions{Repos: sel, Instances: ins, Mirrors: mirrors, Work: work, DumpHybrid: dumpHybrid}
			if !quiet {
				opt.Log = cmd.ErrOrStderr()
			}
			emb, err := engine.EmbedderFromEnv(cmd.Context())
			if err != nil {
				return fmt.Errorf("bench queries: %w", err)
			}
			if emb != nil {
				defer emb.Close()
				opt.Embedder = emb
			}
			if dumpHybrid && opt.Embedder == nil {
				return fmt.Errorf("bench queries: --dump-hybrid needs an embedder (SCRY_EMBEDDER)")
			}
			if modelPath != "" {
				if opt.Model, err = bench.ReadModel(modelPath); err != nil {
					return fmt.Errorf("bench queries: %w", err)
				}
			}
			if dump != "" {
				f, err := os.Create(dump)
				if err != nil {
					return fmt.Errorf("bench queries: %w", err)
				}
				defer f.Close()
				opt.Dump = f
			}
			results, err := bench.RunQuestions(cmd.Context(), opt)
			if err != nil {
				return err
			}
			r := bench.NewQuestionReport(results)
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return fmt.Errorf("bench queries: %w", err)
				}
				f, err := os.Create(filepath.Join(out, "queries.md"))
				if err != nil {
					return fmt.Errorf("bench queries: %w", err)
				}
				err = r.WriteText(f)
				f.Close()
				if err != nil {
					return err
				}
			}
			return printReport(cmd.OutOrStdout(), asJSON, r)
		},
	}
	cmd.Flags().StringVar(&dir, "queries", defaultQuestions, "questions directory (repos.json and <name>.json files)")
	cmd.Flags().StringVar(&mirrors, "mirrors", os.Getenv("SCRY_BENCH_MIRRORS"), "directory of bare git mirrors (env SCRY_BENCH_MIRRORS)")
	cmd.Flags().StringVar(&work, "work", filepath.Join(os.TempDir(), "scry-queries"), "trees and indexes are kept here")
	cmd.Flags().StringSliceVar(&repos, "repo", nil, "only these repositories (owner/name or the set's name)")
	cmd.Flags().StringVar(&dump, "dump", "", "write every candidate's features and gold labels to this JSONL file")
	cmd.Flags().BoolVar(&dumpHybrid, "dump-hybrid", false, "dump the hybrid pipeline's candidates (needs SCRY_EMBEDDER) instead of the lexical ones")
	cmd.Flags().StringVar(&modelPath, "model", "", "rank with this model file instead of the shipped one")
	cmd.Flags().StringVar(&out, "out", "", "also write queries.md into this directory")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress lines on stderr")
	return cmd
}
