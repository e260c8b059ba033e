package benchcmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/fit"
	"github.com/scry-dev/scry/internal/search"
)

// defaultInstances is where the localization instances live in a checkout
// that has the shared benchmark directory beside it.
const defaultInstances = "../shared/bench/localize-tune.jsonl"

func newBenchLocalizeCmd() *cobra.Command {
	var instances string
	var splits, repos []string
	var limit int
	f := rankedFlags{name: "localize"}
	cmd := &cobra.Command{
		Use:   "localize [--instances FILE] [--mirrors DIR] [--split tune,holdout]",
		Short: "Localization quality on real fix commits (file and symbol Hit@k, default answers)",
		Long: `localize asks each instance's query (a real fix commit's subject) of its
repository as it was before the fix, materialised from a bare git mirror
(--mirrors or SCRY_BENCH_MIRRORS: DIR/owner+name/repo or DIR/owner+name),
and scores the ranked lists of grep-style word counts over files, BM25 over
files, BM25F over chunks, the previous ranker and the fitted ranker, plus
what the default answer (gate + budget + leads) holds, per split, per
repository and for queries that name a gold symbol.

Trees and indexes are kept under --work and move forward through each
repository's history, so a second run re-syncs only what changed.
--dump FILE records every candidate's features for 'scry bench fit'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.needMirrors(); err != nil {
				return err
			}
			all, err := bench.LoadInstances(instances)
			if err != nil {
				return err
			}
			var sel []bench.Instance
			perRepo := map[string]int{}
			for _, in := range all {
				if len(splits) > 0 && !slices.Contains(splits, in.Split) {
					continue
				}
				if len(repos) > 0 && !slices.Contains(repos, in.Repo) {
					continue
				}
				if limit > 0 && perRepo[in.Repo] >= limit {
					continue
				}
				perRepo[in.Repo]++
				sel = append(sel, in)
			}
			if len(sel) == 0 {
				return fmt.Errorf("bench localize: no instance selected")
			}
			return runRanked(&f, cmd, func(run *rankedRun) ([]bench.LocResult, error) {
				return bench.RunLocalize(cmd.Context(), run.options(&f, sel))
			}, bench.NewLocReport)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&instances, "instances", defaultInstances, "JSONL file of instances")
	cmd.Flags().StringSliceVar(&splits, "split", nil, "only these splits (tune, holdout; default both)")
	cmd.Flags().StringSliceVar(&repos, "repo", nil, "only these repositories (owner/name)")
	cmd.Flags().IntVar(&limit, "limit", 0, "at most this many instances per repository (0: all)")
	return cmd
}

func newBenchFitCmd() *cobra.Command {
	var out string
	var seed uint64
	var passes int
	var ablate, fileRel bool
	var leads int
	var keepLinear, keepRanking bool
	var coverage, floor float64
	var trees, depth, minLeaf int
	var rate, jsdocShare, questionShare, sizePower float64
	var leaveOneOut bool
	var treesWithout []int
	var fitLinear []string
	var folds int
	var bag bool
	cmd := &cobra.Command{
		Use:   "fit DUMP [DUMP...] [--out internal/search/model.json] [--ablate]",
		Short: "Fit the ranker's weights and calibration on the tune split of feature dumps",
		Long: `fit reads feature dumps written by 'scry bench localize --dump' and
'scry bench quality --dump' (JSDoc questions: --set tune to fit on, --set
bench to report), fits the ranker's feature weights and file diversity
penalty by coordinate ascent on the tune instances only (objective: mean of
symbol and file NDCG@10, fix commits and JSDoc questions weighing half each
when both are given), fits the logistic calibration of the score on every tune
instance (the probability that a result lies in a file that answers the
question, each kind weighing its share), and reports the fitted model on the holdout instances, with an
ablation of each feature group when --ablate is given. --out writes the model
(the shipped one is internal/search/model.json).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := fit.LoadDumps(args)
			if err != nil {
				return err
			}
			free, err := fit.FeatureIndexes(fitLinear)
			if err != nil {
				return err
			}
			prm := search.DefaultParams()
			if coverage >= 0 {
				prm.Coverage = coverage
			}
			prm.Floor = floor
			r, err := fit.Fit(set, fit.Options{Params: prm, Seed: seed, Passes: passes, Ablate: ablate, FileRelevance: fileRel, Leads: leads,
				KeepLinear: keepLinear, KeepRanking: keepRanking, FitLinear: free, Trees: trees, JSDocShare: jsdocShare, QuestionShare: questionShare, LeaveOneOut: leaveOneOut, TreesWithout: treesWithout, Depth: depth, MinLeaf: minLeaf, Rate: rate,
				SizePower: noneAsNegative(sizePower), Folds: folds, Bag: bag, Log: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			if out != "" {
				command := fmt.Sprintf("scry bench localize --dump LOC; scry bench quality --set tune --dump JSDOC; scry bench queries --dump QUESTIONS; scry bench fit LOC JSDOC QUESTIONS --seed %d --passes %d --file-relevance=%v --keep-linear=%v --keep-ranking=%v --trees %d --depth %d --min-leaf %d --rate %g --jsdoc-share %g --question-share %g --size-power %g --bag=%v --folds %d --coverage %g --floor %g",
					seed, passes, fileRel, keepLinear, keepRanking, trees, depth, minLeaf, rate, jsdocShare, questionShare, sizePower, bag, folds, prm.Coverage, prm.Floor)
				if len(fitLinear) > 0 {
					command += " --fit-linear " + strings.Join(fitLinear, ",")
				}
				if err := r.WriteModel(out, command); err != nil {
					return err
				}
			}
			return r.WriteText(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "write the fitted model here")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed of the coordinate order and restarts")
	cmd.Flags().IntVar(&passes, "passes", 8, "coordinate-ascent sweeps at most")
	cmd.Flags().BoolVar(&fileRel, "file-relevance", true, "calibrate P(the result lies in a file a fix changed); false: P(it overlaps the changed code)")
	cmd.Flags().IntVar(&leads, "leads", 0, "leads per simulated default answer (0: the default, 5)")
	cmd.Flags().BoolVar(&ablate, "ablate", false, "refit with each feature group off and report holdout figures")
	cmd.Flags().BoolVar(&keepRanking, "keep-ranking", false, "keep the starting model's weights, penalty and trees (fit only the calibration)")
	cmd.Flags().Float64Var(&coverage, "coverage", -1, "answerCoverage (-1: the default) of the simulated default answers")
	cmd.Flags().Float64Var(&floor, "floor", 0, "plausibility floor of the simulated default answers (0: the default)")
	cmd.Flags().BoolVar(&keepLinear, "keep-linear", false, "keep the shipped model's linear weights (fit only the trees and the calibration)")
	cmd.Flags().IntVar(&trees, "trees", 0, "boost up to this many regression trees on the linear score (0: linear only)")
	cmd.Flags().IntVar(&depth, "depth", 3, "levels per tree")
	cmd.Flags().IntVar(&minLeaf, "min-leaf", 100, "fewest candidates per leaf")
	cmd.Flags().Float64Var(&rate, "rate", 0.1, "shrinkage of each tree")
	cmd.Flags().StringSliceVar(&fitLinear, "fit-linear", nil, "with --keep-linear, fit these features' linear weights all the same (feature names, as in model.json)")
	cmd.Flags().IntSliceVar(&treesWithout, "trees-without", nil, "feature indexes the trees may not use (an ablation)")
	cmd.Flags().Float64Var(&sizePower, "size-power", fit.DefaultSizePower, "power of the size discount of a symbol hit in the objective (0: none)")
	cmd.Flags().IntVar(&folds, "folds", 0, "also report the fit cross-validated on tune over this many folds of repositories (and the number of bags with --bag)")
	cmd.Flags().BoolVar(&bag, "bag", false, "fit the trees as the mean of --folds ensembles, each stopped on the fold it left out")
	cmd.Flags().Float64Var(&questionShare, "question-share", fit.DefaultQuestionShare, "the agent questions' share of the objective (scry bench queries --dump); the rest is divided by --jsdoc-share")
	cmd.Flags().BoolVar(&leaveOneOut, "leave-one-out", true, "report the agent questions of each repository scored by a model fitted without that repository")
	cmd.Flags().Float64Var(&jsdocShare, "jsdoc-share", fit.DefaultJSDocShare, "the JSDoc questions' share of the objective when fix commits are given too")
	return cmd
}

// noneAsNegative maps the flag's 0 (no size discount) to fit.Options' way
// of saying it, where 0 means the default.
func noneAsNegative(power float64) float64 {
	if power == 0 {
		return -1
	}
	return power
}
