package benchcmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// `scry bench` has one subcommand per benchmark and the fitter.
func TestCommandHasEveryBenchmark(t *testing.T) {
	cmd := Command()
	have := map[string]bool{}
	for _, c := range cmd.Commands() {
		have[c.Name()] = true
	}
	for _, want := range []string{"quality", "speed", "localize", "queries", "fit"} {
		if !have[want] {
			t.Errorf("scry bench lacks %q (has %v)", want, have)
		}
	}
}

// The fitter needs dumps to fit on: without any it refuses before
// reading anything.
func TestFitWantsDumps(t *testing.T) {
	cmd := Command()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"fit"})
	if err := cmd.Execute(); err == nil {
		t.Fatalf("scry bench fit without dumps ran:\n%s", out.String())
	}
}

// --out (where the fitted model is written) is one of the fitter's flags:
// given a dump that does not exist, the fit fails on the dump, not on the
// flag.
func TestFitTakesOut(t *testing.T) {
	cmd := Command()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	cmd.SetArgs([]string{"fit", "--out", filepath.Join(t.TempDir(), "model.json"), missing})
	err := cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Fatalf("scry bench fit --out with a missing dump: err %v, want the dump named\n%s", err, out.String())
	}
}

func TestNoneAsNegative(t *testing.T) {
	tests := []struct{ in, want float64 }{{0, -1}, {0.5, 0.5}, {1, 1}}
	for _, tc := range tests {
		if got := noneAsNegative(tc.in); got != tc.want {
			t.Errorf("noneAsNegative(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// The localize and queries benchmarks refuse --dump-hybrid without an
// embedder before they create the dump; otherwise the dump is created and
// written through the run, and a model file that cannot be read is
// refused under the subcommand's name.
func TestRankedOpen(t *testing.T) {
	t.Setenv("SCRY_EMBEDDER", "none")
	dir := t.TempDir()
	dump := filepath.Join(dir, "dump.jsonl")
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	tests := []struct {
		name string
		f    rankedFlags
		want string // the error's start
	}{
		{"dump-hybrid without an embedder", rankedFlags{name: "queries", dump: dump, dumpHybrid: true}, "bench queries: --dump-hybrid needs an embedder"},
		{"unreadable model", rankedFlags{name: "localize", modelPath: filepath.Join(dir, "missing.json")}, "bench localize: "},
	}
	for _, tc := range tests {
		if _, err := tc.f.open(cmd); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q…", tc.name, err, tc.want)
		}
	}
	if _, err := os.Stat(dump); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused run left its dump behind: %v", err)
	}
	if err := (&rankedFlags{name: "queries"}).needMirrors(); err == nil || !strings.HasPrefix(err.Error(), "bench queries: no mirrors") {
		t.Errorf("without mirrors: %v", err)
	}
	f := rankedFlags{name: "localize", dump: dump, quiet: true}
	run, err := f.open(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if run.Embedder != nil || run.Model != nil || run.Log != nil {
		t.Errorf("embedder %v, model %v, log %v with none asked for", run.Embedder, run.Model, run.Log)
	}
	if _, err := io.WriteString(run.Dump, "{}\n"); err != nil {
		t.Fatal(err)
	}
	run.Close()
	if b, err := os.ReadFile(dump); err != nil || string(b) != "{}\n" {
		t.Errorf("dump holds %q (%v)", b, err)
	}
}

// --out writes the report's text into NAME.md, making the directory, and
// the report is printed too.
func TestRankedReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	f := rankedFlags{name: "queries", out: dir}
	var printed bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetOut(&printed)
	if err := f.report(cmd, textReport("# report\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "queries.md")); err != nil || string(b) != "# report\n" {
		t.Errorf("queries.md holds %q (%v)", b, err)
	}
	if printed.String() != "# report\n" {
		t.Errorf("printed %q", printed.String())
	}
}

type textReport string

func (r textReport) WriteText(w io.Writer) error {
	_, err := io.WriteString(w, string(r))
	return err
}
