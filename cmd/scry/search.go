package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// tuningFlags override the config file and environment.
type tuningFlags struct {
	threshold, rerankWeight, vectorWeight float64
	budget, candidates, callDepth         int
}

func (t *tuningFlags) register(cmd *cobra.Command) {
	d := engine.DefaultConfig()
	cmd.Flags().Float64Var(&t.threshold, "threshold", d.Threshold, "minimum relevance score (0..1) a result needs; given here it is the whole gate, answerCoverage off (env SCRY_THRESHOLD)")
	cmd.Flags().IntVar(&t.budget, "budget", d.Budget, "token budget for the returned source (env SCRY_BUDGET)")
	cmd.Flags().Float64Var(&t.rerankWeight, "rerank-weight", d.RerankWeight, "weight of the reranker score (env SCRY_RERANK_WEIGHT)")
	cmd.Flags().Float64Var(&t.vectorWeight, "vector-weight", d.VectorWeight, "weight of the first-stage score (env SCRY_VECTOR_WEIGHT)")
	cmd.Flags().IntVar(&t.candidates, "candidates", d.Candidates, "first-stage candidates to rerank (env SCRY_CANDIDATES)")
	cmd.Flags().IntVar(&t.callDepth, "call-depth", d.CallDepth, "call-tree depth: 1, N, or -1 for transitive (env SCRY_CALL_DEPTH)")
}

// layer lays the flags the user set over the configuration.
func (t *tuningFlags) layer(cmd *cobra.Command) func(*engine.Config) error {
	return func(cfg *engine.Config) error {
		if cmd.Flags().Changed("threshold") {
			// A threshold given for the question is the whole gate, as the
			// MCP argument is: nothing below it joins for coverage.
			cfg.Threshold, cfg.Coverage = t.threshold, 0
		}
		setIfChanged(cmd, "budget", &cfg.Budget, t.budget)
		setIfChanged(cmd, "rerank-weight", &cfg.RerankWeight, t.rerankWeight)
		setIfChanged(cmd, "vector-weight", &cfg.VectorWeight, t.vectorWeight)
		setIfChanged(cmd, "candidates", &cfg.Candidates, t.candidates)
		setIfChanged(cmd, "call-depth", &cfg.CallDepth, t.callDepth)
		return nil
	}
}

func newSearchCmd() *cobra.Command {
	var ws workspaceFlags
	var tf tuningFlags
	var nf neuralFlags
	var bf backendFlags
	var asJSON bool
	var k int
	var paths, langs []string
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY",
		Short: "Find the symbols that answer a question or a symbol path",
		Long: `search brings the index up to date, then answers QUERY: plain words run the
ranked pipeline (BM25F candidates, reranking, blend, relevance gate and token
budget); "symbol = [file >] [Parent >] name" looks a symbol up exactly.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if ok, err := ws.viaServer(cmd, func() []string { return args }); ok {
				return err
			}
			e, done, err := ws.open(cmd, engine.Options{Models: true, Sync: true, Compiler: engine.CompilerWait}, true, true, tf.layer(cmd), nf.layer(cmd), bf.layer(cmd))
			if err != nil {
				return err
			}
			defer done()
			for i, p := range paths {
				paths[i] = ws.fromCwd(p)
			}
			paths, err := e.ConfinePaths(paths)
			if err != nil {
				return fmt.Errorf("--path: %w", err)
			}
			ans, err := e.Search(cmd.Context(), engine.Query{Text: strings.Join(args, " "), Paths: paths, Languages: langs, Limit: k})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return render.SearchJSON(out, ans)
			}
			fmt.Fprintln(out, render.Search(ans))
			return nil
		},
	}
	ws.register(cmd)
	tf.register(cmd)
	nf.register(cmd)
	bf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: {query, results: [{file, start_line, end_line, name, breadcrumb, kind, score}], leads: [...], graph, snapshots}")
	cmd.Flags().IntVarP(&k, "k", "k", 0, "at most this many results (default: as many as pass the gate and fit the budget)")
	cmd.Flags().StringArrayVar(&paths, "path", nil, "only files under this path or matching this glob (repeatable)")
	cmd.Flags().StringArrayVar(&langs, "lang", nil, "only this language: typescript, tsx, javascript (repeatable)")
	return cmd
}
