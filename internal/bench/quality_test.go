package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/testkit"
)

// tinyCorpus installs two fake npm packages under an npm prefix: alpha
// ships TypeScript sources (and a dist/ copy that the package spec leaves
// out), beta ships JavaScript.
func tinyCorpus(t *testing.T) (string, []Package) {
	prefix := t.TempDir()
	nm := "node_modules/"
	testkit.WriteTree(t, prefix, map[string]string{
		nm + "alpha/package.json": `{"name":"alpha","version":"1.0.0"}`,
		nm + "alpha/src/widget.ts": `import { log } from "./log";

/**
 * Frobnicates the widget checksum quickly.
 *
 * @param w - the widget
 */
export function frobnicateWidgetChecksum(w: string): number {
  log(w);
  return w.length * 31;
}

/**
 * Returns the shared duplicate summary text.
 */
export function dupOne() { return 1 }

/**
 * Returns the shared duplicate summary text.
 */
export function dupTwo() { return 2 }

/** @since 1.0.0 */
export function tagsOnly() { return 3 }

/** Does it. */
export function tooShort() { return 4 }
`,
		nm + "alpha/src/log.ts": `/**
 * Writes a message to the console with a timestamp prefix.
 */
export function log(message: string): void {
  console.log(Date.now(), message);
}

export class Ledger {
  /**
   * Appends an entry to the ledger and returns its balance.
   */
  append(entry: number): number {
    this.total += entry;
    return this.total;
  }
  total = 0;
}
`,
		nm + "alpha/dist/widget.d.ts": `/** Frobnicates the widget checksum quickly. */
export declare function frobnicateWidgetChecksum(w: string): number;
`,
		nm + "beta/package.json": `{"name":"beta","version":"2.0.0"}`,
		nm + "beta/chunk.js": `/**
 * Creates an array of elements split into groups the length of size.
 *
 * @param {Array} array The array to process.
 */
function chunk(array, size) {
  var result = [];
  for (var i = 0; i < array.length; i += size) result.push(array.slice(i, i + size));
  return result;
}
export default chunk;
`,
		nm + "beta/curry.js": `/**
 * Wraps a function so that it takes its arguments one at a time.
 */
var curry = _curry1(function curry(fn) {
  return function (a) { return function (b) { return fn(a, b); }; };
});
export default curry;
`,
	})
	pkgs := []Package{
		{Name: "alpha", Version: "1.0.0", Include: []string{"src/**/*.ts"}},
		{Name: "beta", Version: "2.0.0", Include: []string{"*.js"}},
	}
	return prefix, pkgs
}

func TestQualityEndToEnd(t *testing.T) {
	prefix, pkgs := tinyCorpus(t)
	work := t.TempDir()
	var dump bytes.Buffer
	r, err := RunQuality(context.Background(), QualityOptions{Prefix: prefix, Packages: pkgs, WorkDir: work, Dump: &dump, DumpSplit: "tune"})
	if err != nil {
		t.Fatal(err)
	}
	checkQualityDump(t, dump.Bytes(), len(r.Results))

	// The queries: every documented function with a unique, long enough
	// summary, and nothing else.
	want := map[string]string{
		"Frobnicates the widget checksum quickly.":                           "frobnicateWidgetChecksum",
		"Writes a message to the console with a timestamp prefix.":           "log",
		"Appends an entry to the ledger and returns its balance.":            "append",
		"Creates an array of elements split into groups the length of size.": "chunk",
		"Wraps a function so that it takes its arguments one at a time.":     "curry",
	}
	if r.Queries != len(want) || len(r.Results) != len(want) {
		t.Fatalf("%d queries, want %d: %+v", r.Queries, len(want), r.Results)
	}
	for _, q := range r.Results {
		if want[q.Text] != q.Name {
			t.Errorf("query %q answers %s, want %q", q.Text, q.Name, want[q.Text])
		}
	}
	if len(r.Packages) != 2 || r.Packages[0].Queries != 3 || r.Packages[1].Queries != 2 {
		t.Errorf("packages: %+v", r.Packages)
	}

	// The indexed copy has lost the answers' JSDoc, line for line, and kept
	// the code.
	stripped, err := os.ReadFile(filepath.Join(work, "corpus", "alpha", "src", "widget.ts"))
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(filepath.Join(prefix, "node_modules", "alpha", "src", "widget.ts"))
	if strings.Contains(string(stripped), "Frobnicates") || !strings.Contains(string(stripped), "Returns the shared duplicate") ||
		strings.Count(string(stripped), "\n") != strings.Count(string(orig), "\n") ||
		!strings.Contains(string(stripped), "export function frobnicateWidgetChecksum(w: string): number {") {
		t.Errorf("stripped widget.ts:\n%s", stripped)
	}
	if _, err := os.Stat(filepath.Join(work, "corpus", "alpha", "dist")); err == nil {
		t.Error("files outside the package's Include were copied")
	}

	// An obviously findable query is found first by scry, and grep finds
	// its file first.
	for _, q := range r.Results {
		if q.Name != "frobnicateWidgetChecksum" {
			continue
		}
		if q.StartLine != 8 || q.EndLine != 11 {
			t.Errorf("answer lines %d-%d, want 8-11 (the declaration, without its JSDoc)", q.StartLine, q.EndLine)
		}
		for _, sys := range []string{SysLexical, SysV1, SysFull} {
			if q.Ranks[sys].Symbol != 1 || q.Ranks[sys].File != 1 {
				t.Errorf("%s ranks the answer %+v, want 1/1", sys, q.Ranks[sys])
			}
		}
		if q.Ranks[SysGrep] != (Rank{Symbol: -1, File: 1}) || q.Ranks[SysBM25].File != 1 {
			t.Errorf("baselines rank the answer's file grep %+v, bm25 %+v", q.Ranks[SysGrep], q.Ranks[SysBM25])
		}
		if !q.AnswerSelected || q.Selected == 0 || q.SelectedTokens == 0 || q.AnswerTokens == 0 {
			t.Errorf("selection: %+v", q)
		}
	}

	// The metrics are computed from the ranks, system by system.
	if len(r.Systems) != len(systemOrder) {
		t.Fatalf("%d systems, want %d", len(r.Systems), len(systemOrder))
	}
	for i, s := range r.Systems {
		if s.Name != systemOrder[i] {
			t.Errorf("system %d is %s, want %s", i, s.Name, systemOrder[i])
		}
		if (s.Symbol == nil) != fileOnly[s.Name] {
			t.Errorf("%s: symbol metrics present = %v", s.Name, s.Symbol != nil)
		}
		var sym, file []int
		for _, q := range r.Results {
			sym = append(sym, q.Ranks[s.Name].Symbol)
			file = append(file, q.Ranks[s.Name].File)
		}
		if got, want := s.File, Summarize(file); got != want {
			t.Errorf("%s file metrics %+v, want %+v", s.Name, got, want)
		}
		if s.Symbol != nil {
			if got, want := *s.Symbol, Summarize(sym); got != want {
				t.Errorf("%s symbol metrics %+v, want %+v", s.Name, got, want)
			}
		}
		if len(s.PerPackage) != 2 || s.PerPackage[0].File.N != 3 || s.PerPackage[1].File.N != 2 {
			t.Errorf("%s per package: %+v", s.Name, s.PerPackage)
		}
	}
	full := r.Systems[len(r.Systems)-1]
	if full.Symbol.Hit1 <= 0 || full.Symbol.MRR <= 0 {
		t.Errorf("scry found nothing: %+v", full.Symbol)
	}
	if r.SelectionMismatches != 0 {
		t.Errorf("the benchmark's pipeline replica disagreed with the pipeline on %d queries", r.SelectionMismatches)
	}
	if r.Selection.N != len(want) || len(r.SelectionP) != 2 || r.Selection.MeanTokens <= 0 {
		t.Errorf("selection: %+v %+v", r.Selection, r.SelectionP)
	}
	if r.Hybrid == "" {
		t.Error("the hybrid line is missing")
	}

	// Reports render and files are written.
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| scry |", "| grep |", "hybrid: n/a", "alpha (3 queries)"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("text report lacks %q:\n%s", s, text.String())
		}
	}
	out := t.TempDir()
	if err := r.WriteFiles(out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.json", "report.md", "queries.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(out, "queries.jsonl"))
	if n := strings.Count(string(data), "\n"); n != len(want) {
		t.Errorf("queries.jsonl has %d lines, want %d", n, len(want))
	}
}

func TestQualitySamplingIsSeededAndCapped(t *testing.T) {
	prefix, pkgs := tinyCorpus(t)
	run := func(seed uint64) []string {
		r, err := RunQuality(context.Background(), QualityOptions{Prefix: prefix, Packages: pkgs, PerPackage: 1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, q := range r.Results {
			out = append(out, q.Package+":"+q.Name)
		}
		return out
	}
	a, b := run(7), run(7)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different queries: %v vs %v", a, b)
	}
	if len(a) != 2 || !strings.HasPrefix(a[0], "alpha:") || !strings.HasPrefix(a[1], "beta:") {
		t.Errorf("one query per package expected, got %v", a)
	}
}

func TestPackageVersionPinned(t *testing.T) {
	prefix, pkgs := tinyCorpus(t)
	pkgs[0].Version = "9.9.9"
	if _, err := CollectCorpus(prefix, pkgs); err == nil || !strings.Contains(err.Error(), "want 9.9.9") {
		t.Errorf("a version mismatch must fail, got %v", err)
	}
}

func TestCorpusPath(t *testing.T) {
	tests := map[string]string{
		"src/a.ts":           "src/a.ts",
		"dist/esm/a.js":      "_dist/esm/a.js",
		"lib/build/out/x.js": "lib/_build/_out/x.js",
		"dist.js":            "dist.js",
	}
	for in, want := range tests {
		if got := corpusPath(in); got != want {
			t.Errorf("corpusPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// The install script and the Go side must pin the same versions.
func TestInstallScriptPinsTheSameVersions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "scripts", "bench-corpus.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(append([]Package(nil), SpeedPackages...), QualityTunePackages...) {
		if !strings.Contains(string(data), "\n  "+p.Spec()+"\n") {
			t.Errorf("scripts/bench-corpus.sh does not install %s", p.Spec())
		}
	}
}

// checkQualityDump: every question is dumped as a JSDoc instance of the
// tune split whose answer is among its candidates (the fitter marks it
// relevant by SymbolHit).
func checkQualityDump(t *testing.T, dump []byte, questions int) {
	t.Helper()
	set := checkDump(t, dump, questions)
	for _, d := range set {
		if !strings.HasPrefix(d.Repo, "jsdoc/") || d.Split != "tune" || len(d.GoldSymbols) != 1 {
			t.Errorf("%s: repo %q split %q gold %v", d.ID, d.Repo, d.Split, d.GoldSymbols)
			continue
		}
		g := d.GoldSymbols[0]
		gold := Span{File: g.File, StartLine: g.StartLine, EndLine: g.EndLine, Name: g.Name}
		found := false
		for _, c := range d.Candidates {
			found = found || SymbolHit(Span{File: c.File, StartLine: c.StartLine, EndLine: c.EndLine, Name: c.Name}, gold)
		}
		if !found {
			t.Errorf("%s (%q): the answer is not among %d candidates", d.ID, d.Query, len(d.Candidates))
		}
	}
}

// checkDump reads a feature dump: a line per instance, each candidate with
// every feature the ranker computes.
func checkDump(t *testing.T, dump []byte, instances int) []DumpInstance {
	t.Helper()
	var set []DumpInstance
	for _, line := range bytes.Split(bytes.TrimSpace(dump), []byte("\n")) {
		var d DumpInstance
		if err := json.Unmarshal(line, &d); err != nil {
			t.Fatalf("dump line: %v", err)
		}
		if len(d.Candidates) == 0 {
			t.Errorf("%s: no candidates", d.ID)
		}
		for _, c := range d.Candidates {
			if len(c.Features) != search.NumFeatures {
				t.Fatalf("%s: %d features, want %d", d.ID, len(c.Features), search.NumFeatures)
			}
		}
		set = append(set, d)
	}
	if len(set) != instances {
		t.Fatalf("dump has %d instances, the run asked %d questions", len(set), instances)
	}
	return set
}
