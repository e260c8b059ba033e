package benchcmd

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/bench"
)

// defaultQuestions is where the agent questions live in a checkout that
// has the shared benchmark directory beside it.
const defaultQuestions = "../shared/bench/queries"

func newBenchQuestionsCmd() *cobra.Command {
	var dir string
	var repos []string
	var foreign bool
	f := rankedFlags{name: "queries"}
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
'scry bench fit', which reports leave-one-repository-out figures.
--foreign also asks each repository the questions of two others (the next
and the fifth next), whose answers are not there, and reports how many of
those answers still carried code; they count in no other figure and are
not dumped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.needMirrors(); err != nil {
				return err
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
			if foreign {
				ins = append(ins, bench.ForeignQuestions(all, sel, ins)...)
			}
			return runRanked(&f, cmd, func(run *rankedRun) ([]bench.QuestionResult, error) {
				return bench.RunQuestions(cmd.Context(), bench.QuestionOptions{RunOptions: run.options(&f, ins), Repos: sel})
			}, bench.NewQuestionReport)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&dir, "queries", defaultQuestions, "questions directory (repos.json and <name>.json files)")
	cmd.Flags().StringSliceVar(&repos, "repo", nil, "only these repositories (owner/name or the set's name)")
	cmd.Flags().BoolVar(&foreign, "foreign", false, "also ask each repository two other repositories' questions and report what those answers hold")
	return cmd
}
