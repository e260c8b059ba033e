// Package benchcmd is the `scry bench` command: the benchmarks of
// internal/bench and the ranker fitter of internal/fit, as the CLI runs
// them.
package benchcmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/engine"
)

// defaultBenchCorpus is where scripts/bench-corpus.sh installs the pinned
// packages unless SCRY_BENCH_CORPUS says otherwise.
func defaultBenchCorpus() string {
	if d := os.Getenv("SCRY_BENCH_CORPUS"); d != "" {
		return d
	}
	return ".cache/bench-corpus"
}

// Command is `scry bench` with its subcommands.
func Command() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure retrieval quality and speed on pinned npm packages",
		Long: `bench runs scry's benchmarks on real npm packages at pinned versions, installed
by scripts/bench-corpus.sh (an npm prefix: --corpus DIR holds node_modules/).
They print figures; they never pass or fail on them.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newBenchQualityCmd(), newBenchSpeedCmd(), newBenchLocalizeCmd(), newBenchQuestionsCmd(), newBenchFitCmd())
	return cmd
}

// benchFlags are shared by the bench subcommands.
type benchFlags struct {
	corpus   string
	packages []string
	out      string
	work     string
	asJSON   bool
	seed     uint64
	quiet    bool
}

func (b *benchFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&b.corpus, "corpus", defaultBenchCorpus(), "npm prefix holding the pinned packages (env SCRY_BENCH_CORPUS)")
	cmd.Flags().StringSliceVar(&b.packages, "packages", nil, "only these packages (comma-separated names; default: all pinned ones)")
	cmd.Flags().StringVar(&b.out, "out", "", "also write report.json and report.md (and queries.jsonl for quality) into this directory")
	cmd.Flags().StringVar(&b.work, "work", "", "build the corpus and its index here and keep them (default: a temporary directory)")
	cmd.Flags().BoolVar(&b.asJSON, "json", false, "print the report as JSON instead of Markdown")
	cmd.Flags().Uint64Var(&b.seed, "seed", bench.DefaultSeed, "seed of the query sample")
	cmd.Flags().BoolVarP(&b.quiet, "quiet", "q", false, "no progress lines on stderr")
}

func (b *benchFlags) log(cmd *cobra.Command) io.Writer {
	if b.quiet {
		return nil
	}
	return cmd.ErrOrStderr()
}

// printable is a benchmark's report: its text is printed, or written under
// --out, and its fields are the JSON.
type printable interface{ WriteText(io.Writer) error }

func printReport(out io.Writer, asJSON bool, r printable) error {
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.WriteText(out)
}

func newBenchQualityCmd() *cobra.Command {
	var bf benchFlags
	var perPackage int
	var setName, dumpPath string
	var dumpHybrid bool
	cmd := &cobra.Command{
		Use:   "quality [--corpus DIR] [--packages a,b] [--out DIR] [--json]",
		Short: "Retrieval quality against grep and BM25, with each scry stage switched off in turn",
		Long: `quality builds a corpus from the pinned packages, takes the first sentence of
documented functions' JSDoc as queries (seeded sample, capped per package),
blanks the JSDoc of every answer in the indexed copy, and reports Hit@1/5/10
and MRR at symbol and file level for grep, BM25 over files and scry's stages,
plus what scry's default selection (gate + budget) returns.

With an embedder configured in the environment (SCRY_EMBEDDER and the
SCRY_EMBED_* variables, as for scry search), the corpus is embedded and a
hybrid system (BM25F + vectors) is reported beside the lexical ones.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			set, ok := bench.QualitySets[setName]
			if !ok {
				return fmt.Errorf("bench quality: unknown --set %q (bench or tune)", setName)
			}
			pkgs, err := bench.SelectPackages(set, bf.packages)
			if err != nil {
				return err
			}
			opt := bench.QualityOptions{
				Prefix: bf.corpus, Packages: pkgs, PerPackage: perPackage, Seed: bf.seed,
				WorkDir: bf.work, Log: bf.log(cmd),
			}
			if dumpPath != "" {
				f, err := os.Create(dumpPath)
				if err != nil {
					return fmt.Errorf("bench quality: %w", err)
				}
				defer f.Close()
				w := bufio.NewWriter(f)
				defer w.Flush()
				// The tune set is fitted on; the benchmark's own questions are
				// only reported by the fit, under their own split name.
				opt.Dump, opt.DumpSplit = w, "tune"
				if setName == "bench" {
					opt.DumpSplit = bench.JSDocHoldout
				}
			}
			// Only the environment configures the embedder: the benchmark's
			// corpus is not a workspace with a .scry.toml of its own.
			emb, err := engine.EmbedderFromEnv(cmd.Context())
			if err != nil {
				return err
			}
			if emb != nil {
				defer emb.Close()
				opt.Hybrid = bench.HybridWith(emb)
			}
			if opt.DumpHybrid = dumpHybrid; dumpHybrid && emb == nil {
				return fmt.Errorf("bench quality: --dump-hybrid needs an embedder (SCRY_EMBEDDER)")
			}
			r, err := bench.RunQuality(cmd.Context(), opt)
			if err != nil {
				return err
			}
			if bf.out != "" {
				if err := r.WriteFiles(bf.out); err != nil {
					return err
				}
			}
			return printReport(cmd.OutOrStdout(), bf.asJSON, r)
		},
	}
	bf.register(cmd)
	cmd.Flags().IntVar(&perPackage, "per-package", bench.DefaultPerPackage, "at most this many queries per package (-1: all)")
	cmd.Flags().StringVar(&setName, "set", "bench", "question set: bench (the reported packages) or tune (other packages, for fitting the ranker)")
	cmd.Flags().StringVar(&dumpPath, "dump", "", "write every question's candidates and features here (the format of bench localize --dump)")
	cmd.Flags().BoolVar(&dumpHybrid, "dump-hybrid", false, "dump the hybrid pipeline's candidates (needs SCRY_EMBEDDER) instead of the lexical ones")
	return cmd
}

func newBenchSpeedCmd() *cobra.Command {
	var bf benchFlags
	var queries, runs int
	cmd := &cobra.Command{
		Use:   "speed [--corpus DIR] [--out DIR] [--json]",
		Short: "Cold index, re-sync and query latency on a large corpus",
		Long: `speed copies the pinned packages (the typescript package's lib/ and the quality
packages' sources, over a million lines) into a plain directory, indexes it
cold, re-syncs it unchanged and after appending a function to one file, and
times lexical and full-pipeline queries.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			pkgs, err := bench.SelectPackages(bench.SpeedPackages, bf.packages)
			if err != nil {
				return err
			}
			// With SCRY_EMBEDDER set, the chunks are embedded after the
			// cold index, as the quality benchmark does.
			emb, err := engine.EmbedderFromEnv(cmd.Context())
			if err != nil {
				return err
			}
			if emb != nil {
				defer emb.Close()
			}
			r, err := bench.RunSpeed(cmd.Context(), bench.SpeedOptions{
				Prefix: bf.corpus, Packages: pkgs, Queries: queries, Runs: runs, Seed: bf.seed,
				WorkDir: bf.work, Log: bf.log(cmd), Executable: self(), Embedder: emb,
			})
			if err != nil {
				return err
			}
			if bf.out != "" {
				if err := r.WriteFiles(bf.out); err != nil {
					return err
				}
			}
			if err := printReport(cmd.OutOrStdout(), bf.asJSON, r); err != nil {
				return fmt.Errorf("bench: %w", err)
			}
			return nil
		},
	}
	bf.register(cmd)
	cmd.Flags().IntVar(&queries, "queries", 200, "number of latency queries")
	cmd.Flags().IntVar(&runs, "runs", 5, "times each re-sync is measured")
	return cmd
}

// self is this program's path, for benchmarks that time the CLI as a user
// runs it ("" when it cannot be found: that measure is then left out).
func self() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
