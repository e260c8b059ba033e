package benchcmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/search"
)

// rankedFlags are the flags of the benchmarks that rank repositories'
// questions at revisions taken from bare git mirrors (localize, queries).
type rankedFlags struct {
	name                                string // the subcommand, "localize" or "queries"
	mirrors, work, dump, out, modelPath string
	dumpHybrid, asJSON, quiet           bool
}

func (f *rankedFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.mirrors, "mirrors", os.Getenv("SCRY_BENCH_MIRRORS"), "directory of bare git mirrors (env SCRY_BENCH_MIRRORS)")
	cmd.Flags().StringVar(&f.work, "work", filepath.Join(os.TempDir(), "scry-"+f.name), "trees and indexes are kept here")
	cmd.Flags().StringVar(&f.dump, "dump", "", "write every candidate's features and gold labels to this JSONL file")
	cmd.Flags().BoolVar(&f.dumpHybrid, "dump-hybrid", false, "dump the hybrid pipeline's candidates (needs SCRY_EMBEDDER) instead of the lexical ones")
	cmd.Flags().StringVar(&f.modelPath, "model", "", "rank with this model file instead of the shipped one")
	cmd.Flags().StringVar(&f.out, "out", "", "also write "+f.name+".md into this directory")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "no progress lines on stderr")
}

// needMirrors refuses a run without mirrors before anything is read.
func (f *rankedFlags) needMirrors() error {
	if f.mirrors == "" {
		return fmt.Errorf("bench %s: no mirrors: set --mirrors or SCRY_BENCH_MIRRORS to a directory of bare git mirrors", f.name)
	}
	return nil
}

// report writes r into NAME.md under --out when it is given, then prints
// it as --json asks.
func (f *rankedFlags) report(cmd *cobra.Command, r printable) error {
	if f.out != "" {
		if err := writeReportFile("bench "+f.name, f.out, f.name+".md", r); err != nil {
			return err
		}
	}
	return printReport(cmd.OutOrStdout(), f.asJSON, r)
}

// runRanked opens what the benchmark takes from the environment and the
// flags, has runBench run on it, closes it, and reports the results as
// newReport summarises them.
func runRanked[R any, P printable](f *rankedFlags, cmd *cobra.Command, runBench func(run *rankedRun) (R, error), newReport func(R) P) error {
	run, err := f.open(cmd)
	if err != nil {
		return err
	}
	defer run.Close()
	results, err := runBench(run)
	if err != nil {
		return err
	}
	return f.report(cmd, newReport(results))
}

// rankedRun is what a rankedFlags benchmark takes from the environment and
// its flags beyond its own selection: the progress log, the embedder, the
// ranking model and the feature dump.
type rankedRun struct {
	Log      io.Writer      // nil: --quiet
	Embedder embed.Embedder // nil: none configured
	Model    *search.Model  // nil: the shipped one
	Dump     io.Writer      // nil: no --dump
	closers  []io.Closer
}

// open opens what a rankedRun holds; the caller closes it. Only the
// environment configures the embedder (SCRY_EMBEDDER=builtin adds the
// vector systems): a benchmark's repositories are not workspaces with a
// .scry.toml of their own.
func (f *rankedFlags) open(cmd *cobra.Command) (*rankedRun, error) {
	name := "bench " + f.name
	r := &rankedRun{}
	if !f.quiet {
		r.Log = cmd.ErrOrStderr()
	}
	emb, err := engine.EmbedderFromEnv(cmd.Context())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if emb != nil {
		r.Embedder = emb
		r.closers = append(r.closers, emb)
	}
	// Checked before the dump file is created, so a refused run leaves no
	// empty dump behind.
	if f.dumpHybrid && r.Embedder == nil {
		r.Close()
		return nil, fmt.Errorf("%s: --dump-hybrid needs an embedder (SCRY_EMBEDDER)", name)
	}
	if f.modelPath != "" {
		if r.Model, err = bench.ReadModel(f.modelPath); err != nil {
			r.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if f.dump != "" {
		file, err := os.Create(f.dump)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r.Dump = file
		r.closers = append(r.closers, file)
	}
	return r, nil
}

// options are the run's options for these instances, as the flags and
// the environment give them.
func (r *rankedRun) options(f *rankedFlags, instances []bench.Instance) bench.RunOptions {
	return bench.RunOptions{Instances: instances, Mirrors: f.mirrors, Work: f.work, Log: r.Log,
		Embedder: r.Embedder, Model: r.Model, Dump: r.Dump, DumpHybrid: f.dumpHybrid}
}

// Close closes the dump file and the embedder.
func (r *rankedRun) Close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i].Close()
	}
}

// writeReportFile writes r's text into file in dir (made if missing), as
// --out asks of the localize and queries benchmarks.
func writeReportFile(name, dir, file string, r printable) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	f, err := os.Create(filepath.Join(dir, file))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	err = r.WriteText(f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%s: %w", name, cerr)
	}
	return err
}
