package train

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// A package as npm ships it: documented TypeScript, a declaration file,
// a CommonJS copy of the same function, and a minified bundle to skip.
var toyPackage = map[string]string{
	"src/duration.ts": `import { units } from "./units";

/**
 * Converts a human readable duration such as "2h 30m" into milliseconds.
 *
 * @param text - the duration
 */
export function parseDuration(text: string): number {
  let total = 0;
  for (const m of text.matchAll(/(\d+)([a-z]+)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}

/** Formats milliseconds as the largest whole unit followed by its suffix. */
export const formatDuration = (ms: number): string => {
  const [name, size] = Object.entries(units).reverse().find(([, s]) => ms >= s) ?? ["ms", 1];
  return Math.floor(ms / size) + name;
};

export class Stopwatch {
  private started = 0;
  /** Starts measuring elapsed time from now on. */
  start(): void {
    this.started = performance.now();
  }
  elapsedMilliseconds(): number {
    const now = performance.now();
    const elapsed = now - this.started;
    return elapsed < 0 ? 0 : Math.round(elapsed * 1000) / 1000;
  }
}
`,
	"dist/duration.cjs": `/**
 * Converts a human readable duration such as "2h 30m" into milliseconds.
 */
function parseDuration(text) {
  let total = 0;
  for (const m of text.matchAll(/(\d+)([a-z]+)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}
module.exports = { parseDuration };
`,
	"dist/duration.d.ts": `/** Formats milliseconds as the largest whole unit followed by its suffix. */
export declare function formatDuration(ms: number): string;
`,
	"dist/duration.min.js": `/** Converts a duration into milliseconds quickly. */function p(t){return 0}`,
}

func writeToy(t *testing.T, root, name string) {
	t.Helper()
	testkit.WriteTree(t, filepath.Join(root, "packages", name), toyPackage)
}

func TestExtractPairs(t *testing.T) {
	root := t.TempDir()
	writeToy(t, root, "toy-duration@1.0.0")
	writeToy(t, root, "@scope/other@2.0.0")
	// A package left over from an older list is not read.
	writeToy(t, root, "stale@0.1.0")
	pairs, stats, err := ExtractCorpus(root, []string{"toy-duration@1.0.0", "@scope/other@2.0.0"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ExtractCorpus(root, []string{"missing@1.0.0"}, 1); err == nil {
		t.Error("a missing package was not reported")
	}
	if len(stats) != 2 || stats[0].Package != "@scope/other@2.0.0" || stats[1].Package != "toy-duration@1.0.0" {
		t.Fatalf("packages: %+v", stats)
	}
	got := map[string]Pair{}
	for _, p := range pairs {
		if p.Package != "toy-duration@1.0.0" {
			continue
		}
		key := fmt.Sprintf("%s %s %s", p.Kind, p.File, p.Name)
		if _, dup := got[key]; dup {
			t.Errorf("pair %s extracted twice", key)
		}
		got[key] = p
	}
	tests := []struct {
		key, query      string
		docHas, docLack []string
	}{
		{"doc src/duration.ts parseDuration", `Converts a human readable duration such as "2h 30m" into milliseconds.`,
			[]string{"export function parseDuration(text: string): number {", "units[m[2]]"}, []string{"Converts", "@param"}},
		{"doc src/duration.ts formatDuration", "Formats milliseconds as the largest whole unit followed by its suffix.",
			[]string{"Object.entries(units)"}, []string{"Formats"}},
		{"doc src/duration.ts start", "Starts measuring elapsed time from now on.", []string{"performance.now()"}, []string{"Starts"}},
		{"doc dist/duration.cjs parseDuration", `Converts a human readable duration such as "2h 30m" into milliseconds.`,
			[]string{"function parseDuration(text)"}, []string{"Converts"}},
		{"decl dist/duration.d.ts formatDuration", "Formats milliseconds as the largest whole unit followed by its suffix.",
			[]string{"export declare function formatDuration(ms: number): string;"}, []string{"Formats"}},
		// The name is blanked in its own body: the words must come from
		// what the code does.
		{"name src/duration.ts elapsedMilliseconds", "elapsed milliseconds", []string{"performance.now()"}, []string{"elapsedMilliseconds"}},
		{"name src/duration.ts parseDuration", "parse duration", []string{"(text: string): number"}, []string{"parseDuration"}},
		{"name src/duration.ts formatDuration", "format duration", []string{"Object.entries(units)"}, []string{"formatDuration"}},
		{"name dist/duration.cjs parseDuration", "parse duration", []string{"(text) {"}, []string{"parseDuration"}},
	}
	for _, tc := range tests {
		p, ok := got[tc.key]
		if !ok {
			t.Errorf("no pair %s; have %v", tc.key, keys(got))
			continue
		}
		if p.Query != tc.query {
			t.Errorf("%s: query %q, want %q", tc.key, p.Query, tc.query)
		}
		for _, s := range tc.docHas {
			if !strings.Contains(p.Doc, s) {
				t.Errorf("%s: code lacks %q:\n%s", tc.key, s, p.Doc)
			}
		}
		for _, s := range tc.docLack {
			if strings.Contains(p.Doc, s) {
				t.Errorf("%s: code still holds %q:\n%s", tc.key, s, p.Doc)
			}
		}
	}
	for k := range got {
		if strings.Contains(k, ".min.js") {
			t.Errorf("minified file read: %s", k)
		}
	}
	if len(got) != len(tests) {
		t.Errorf("%d pairs, want %d: %v", len(got), len(tests), keys(got))
	}
}

func keys(m map[string]Pair) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestSplitDeduplicatesAndHoldsOut(t *testing.T) {
	var pairs []Pair
	for i := 0; i < 200; i++ {
		pkg := fmt.Sprintf("pkg%d@1.0.0", i)
		pairs = append(pairs,
			Pair{Kind: FromDoc, Query: fmt.Sprintf("Does thing %d well.", i), Doc: "code", Package: pkg, Name: fmt.Sprintf("f%d", i)},
			// the CommonJS copy: the same summary and name
			Pair{Kind: FromDoc, Query: fmt.Sprintf("does thing %d well", i), Doc: "code2", Package: pkg, Name: fmt.Sprintf("f%d", i)},
			// boilerplate shared by many symbols
			Pair{Kind: FromDoc, Query: "Module dependencies.", Doc: "require()", Package: pkg, Name: fmt.Sprintf("m%d", i)},
			Pair{Kind: FromName, Query: fmt.Sprintf("do thing %d", i), Doc: "code", Package: pkg, Name: fmt.Sprintf("doThing%d", i)},
		)
	}
	tr, val, held := Split(pairs, 5)
	if len(held) == 0 || len(held) > 25 {
		t.Fatalf("held out %d of 200 packages, want about 10", len(held))
	}
	heldSet := map[string]bool{}
	for _, h := range held {
		heldSet[h] = true
	}
	for _, p := range tr {
		if heldSet[p.Package] {
			t.Errorf("training pair from held-out package %s", p.Package)
		}
		if p.Query == "Module dependencies." {
			t.Errorf("boilerplate summary kept")
		}
	}
	for _, p := range val {
		if p.Kind != FromDoc || !heldSet[p.Package] {
			t.Errorf("validation pair %+v", p)
		}
	}
	if want := 2 * (200 - len(held)); len(tr) != want {
		t.Errorf("%d training pairs, want %d (one doc and one name pair per package)", len(tr), want)
	}
	if len(val) != len(held) {
		t.Errorf("%d validation pairs for %d held-out packages", len(val), len(held))
	}
}

// toyPairs makes a retrieval task that words alone cannot solve: every
// query speaks of concepts in prose words, its code names the same
// concepts with other identifiers (remove ↔ splice, size ↔ length), among
// noise. Only a model that learned which words go together finds the code.
func toyPairs(n int, seed uint64) []Pair {
	prose := []string{"remove", "size", "first", "join", "lower", "sort", "count", "merge", "empty", "error",
		"wait", "random", "key", "clock", "pick", "split", "unique", "flatten", "retry", "hash"}
	code := []string{"splice", "length", "head", "concat", "toLowerCase", "compare", "tally", "assign", "isBlank", "reject",
		"sleep", "shuffle", "property", "timestamp", "select", "chunk", "dedupe", "flat", "attempt", "digest"}
	noise := []string{"value", "item", "result", "data", "input", "output", "node", "entry"}
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]Pair, n)
	for i := range out {
		var q, c []string
		for _, k := range rng.Perm(len(prose))[:3] {
			q = append(q, prose[k])
			c = append(c, code[k]+"("+noise[rng.IntN(len(noise))]+")")
		}
		out[i] = Pair{Kind: FromDoc, Query: strings.Join(q, " ") + ".",
			Doc: "function f() { return " + strings.Join(c, " + ") + "; }", Name: fmt.Sprintf("f%d", i)}
	}
	return out
}

func TestTrainingLearnsToyRetrieval(t *testing.T) {
	cfg := Config{Dim: 32, MinCount: 1, MaxVocab: 1000, Buckets: 64, Epochs: 8, Batch: 32, LR: 0.2, Scale: 20, Seed: 7}
	trainSet, valSet := toyPairs(1024, 1), toyPairs(200, 2)
	run := func() ([]float64, Metrics, Metrics, []byte) {
		tr := New(trainSet, cfg)
		var log strings.Builder
		rep := tr.Fit(tr.Examples(trainSet), tr.Examples(valSet), &log)
		return rep.Losses, rep.Initial, rep.Final, tr.W.Marshal()
	}
	losses, before, after, weights := run()
	t.Logf("losses %.3f; validation before %s, after %s", losses, before, after)
	if losses[len(losses)-1] > 0.5*losses[0] {
		t.Errorf("loss fell from %.3f to only %.3f", losses[0], losses[len(losses)-1])
	}
	if after.Hit1 < before.Hit1+0.3 || after.MRR < 2*before.MRR {
		t.Errorf("toy retrieval did not improve: before %s, after %s", before, after)
	}
	if lex := LexicalBaseline(valSet); after.Hit1 <= lex.Hit1 {
		t.Errorf("trained model %s does not beat TF-IDF %s on a task words cannot solve", after, lex)
	}
	// Deterministic for a seed.
	_, _, again, weights2 := run()
	if again != after || string(weights) != string(weights2) {
		t.Errorf("two runs with one seed differ: %s vs %s", after, again)
	}
}

func TestNameWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"parseHTTPResponse", "parse http response"},
		{"get_user_id", "get user id"},
		{"base64Encode", "base encode"},
		{"URLs", "urls"},
		{"URLParser", "url parser"},
		{"Foo", "foo"},
		{"x", "x"},
	} {
		if got := strings.Join(nameWords(tc.in), " "); got != tc.want {
			t.Errorf("nameWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestGroupBatchesKeepsPackagesTogether(t *testing.T) {
	var train []Example
	for i := range 60 {
		train = append(train, Example{Group: i % 4})
	}
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	groupBatches(order, train, rng)

	seen := map[int]bool{}
	done := map[int]bool{}
	for i, k := range order {
		if seen[k] {
			t.Fatalf("index %d twice in %v", k, order)
		}
		seen[k] = true
		g := train[k].Group
		if i > 0 && train[order[i-1]].Group != g {
			done[train[order[i-1]].Group] = true
		}
		if done[g] {
			t.Fatalf("package %d comes back at position %d: %v", g, i, order)
		}
	}
	if len(seen) != len(train) {
		t.Errorf("order holds %d of %d pairs", len(seen), len(train))
	}
}

func TestSamePackageTrainingLearnsWithinPackage(t *testing.T) {
	// Two packages of toy pairs: within-package figures count only the
	// validation packages with enough pairs.
	cfg := Config{Dim: 32, MinCount: 1, MaxVocab: 1000, Buckets: 64, Epochs: 8, Batch: 32, LR: 0.2, Scale: 20, Seed: 7, SamePackage: true}
	trainSet, valSet := toyPairs(1024, 1), toyPairs(200, 2)
	for i := range trainSet {
		trainSet[i].Package = fmt.Sprintf("p%d@1.0.0", i%8)
	}
	for i := range valSet {
		valSet[i].Package = fmt.Sprintf("v%d@1.0.0", i%4)
	}
	valSet[0].Package = "lonely@1.0.0" // below minWithinPairs: left out
	tr := New(trainSet, cfg)
	var log strings.Builder
	rep := tr.Fit(tr.Examples(trainSet), tr.Examples(valSet), &log)
	if rep.FinalWithin.N != len(valSet)-1 {
		t.Errorf("within-package figures over %d queries, want %d", rep.FinalWithin.N, len(valSet)-1)
	}
	if rep.Final.Hit1 < rep.Initial.Hit1+0.3 {
		t.Errorf("same-package batches did not learn the toy task: before %s, after %s", rep.Initial, rep.Final)
	}
	// Ranking a quarter of the codes is no harder than ranking all of them.
	if rep.FinalWithin.MRR < rep.Final.MRR {
		t.Errorf("within-package MRR %.3f below the all-codes MRR %.3f", rep.FinalWithin.MRR, rep.Final.MRR)
	}
}
