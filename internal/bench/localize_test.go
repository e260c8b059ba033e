package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/testkit"
)

// The repository's sources (testkit.TokenTS, testkit.CartTS).
const tokenTS, cartTS = testkit.TokenTS, testkit.CartTS

const cartTestTS = `import { addItem } from '../src/cart';
it('adds an item to the cart', () => {
  addItem([], 'x');
});
`

func TestLocalizeEndToEnd(t *testing.T) {
	states := []map[string]string{
		{"src/token.ts": tokenTS, "src/cart.ts": cartTS, "test/cart.test.ts": cartTestTS, "README.md": "# widgets\n"},
		{"src/token.ts": tokenTS, "src/cart.ts": cartTS + "\nexport const EMPTY: string[] = [];\n"},
	}
	mirrors, commits := testkit.GitMirror(t, "acme+widgets", states)
	instances := []Instance{
		{ID: "acme__widgets-1", Repo: "acme/widgets", Split: "tune", BaseCommit: commits[0], Date: "2024-01-01",
			Query: "validateToken accepts expired tokens", GoldFiles: []string{"src/token.ts"},
			GoldSymbols: []GoldSymbol{{File: "src/token.ts", Name: "validateToken", StartLine: 5, EndLine: 8}}, MentionsGoldSymbol: true},
		{ID: "acme__widgets-2", Repo: "acme/widgets", Split: "holdout", BaseCommit: commits[1], Date: "2024-02-01",
			Query: "removing an item from the cart keeps duplicates", GoldFiles: []string{"src/cart.ts"},
			GoldSymbols: []GoldSymbol{{File: "src/cart.ts", Name: "removeItem", StartLine: 5, EndLine: 7}}},
	}
	work := t.TempDir()
	var dump bytes.Buffer
	results, err := RunLocalize(context.Background(), RunOptions{Instances: instances, Mirrors: mirrors, Work: work, Dump: &dump})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results", len(results))
	}
	// The second state removed the test file and README; only files scry
	// reads were ever written.
	tree := filepath.Join(work, "acme+widgets", "tree")
	if _, err := os.Stat(filepath.Join(tree, "test", "cart.test.ts")); !os.IsNotExist(err) {
		t.Fatalf("deleted file still in the tree: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tree, "README.md")); !os.IsNotExist(err) {
		t.Fatalf("a file scry never reads was written: %v", err)
	}
	for _, r := range results {
		s := r.Scores[LocScry]
		if s.SymbolRank != 1 || s.FileRank != 1 {
			t.Errorf("%s: scry ranks %+v", r.ID, s)
		}
		if !r.InCandidates {
			t.Errorf("%s: gold not among candidates", r.ID)
		}
		// Whole-file baselines: a symbol hit is a file hit.
		for _, sys := range []string{LocGrep, LocBM25Files} {
			if b := r.Scores[sys]; b.FileRank != b.SymbolRank {
				t.Errorf("%s: %s file rank %d, symbol rank %d", r.ID, sys, b.FileRank, b.SymbolRank)
			}
		}
		if r.Answer.Results+r.Answer.Leads == 0 {
			t.Errorf("%s: empty default answer", r.ID)
		}
	}
	rep := NewLocReport(results)
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### tune (n = 1)", "### holdout (n = 1)", "| scry |", "| grep-files |", "tune, mentions_gold_symbol"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}

	// The dump has a line per instance, each candidate with every feature.
	checkDump(t, dump.Bytes(), len(instances))
}

func TestScoreList(t *testing.T) {
	in := &Instance{GoldFiles: []string{"a.ts", "b.ts"}, GoldSymbols: []GoldSymbol{{File: "a.ts", StartLine: 10, EndLine: 20}}}
	tests := []struct {
		name string
		list []LocSpan
		want LocScore
	}{
		{"symbol overlap at 2", []LocSpan{{"c.ts", 1, 5}, {"a.ts", 18, 30}}, LocScore{FileRank: 2, SymbolRank: 2, Lines5: 18, Files5: 2}},
		{"file without symbol", []LocSpan{{"b.ts", 1, 3}, {"a.ts", 1, 9}}, LocScore{FileRank: 1, Lines5: 12, Files5: 2}},
		{"adjacent ranges merge", []LocSpan{{"a.ts", 1, 9}, {"a.ts", 10, 12}}, LocScore{FileRank: 1, SymbolRank: 2, Lines5: 12, Files5: 1}},
		{"nothing", []LocSpan{{"z.ts", 1, 1}}, LocScore{Lines5: 1, Files5: 1}},
	}
	for _, tt := range tests {
		if got := ScoreList(in, tt.list); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// Only the first LocDepth results count.
	var long []LocSpan
	for i := 0; i < LocDepth; i++ {
		long = append(long, LocSpan{"z.ts", i + 1, i + 1})
	}
	long = append(long, LocSpan{"a.ts", 10, 10})
	if got := ScoreList(in, long); got.FileRank != 0 {
		t.Errorf("result beyond depth counted: %+v", got)
	}
}

// With an embedder the hybrid systems are scored, gold among the hybrid
// candidates is reported apart from the lexical figure, and DumpHybrid
// dumps the hybrid candidates (a superset of the lexical ones here: the
// neighbours join them).
func TestLocalizeHybridDump(t *testing.T) {
	states := []map[string]string{{"src/token.ts": tokenTS, "src/cart.ts": cartTS}}
	mirrors, commits := testkit.GitMirror(t, "acme+widgets", states)
	instances := []Instance{
		{ID: "acme__widgets-1", Repo: "acme/widgets", Split: "tune", BaseCommit: commits[0], Date: "2024-01-01",
			Query: "removing an item from the cart keeps duplicates", GoldFiles: []string{"src/cart.ts"},
			GoldSymbols: []GoldSymbol{{File: "src/cart.ts", Name: "removeItem", StartLine: 5, EndLine: 7}}},
	}
	emb, err := embed.New(context.Background(), embed.Config{Provider: embed.ProviderBuiltin})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	run := func(hybrid bool) (LocResult, []DumpInstance) {
		var dump bytes.Buffer
		rs, err := RunLocalize(context.Background(), RunOptions{Instances: instances, Mirrors: mirrors, Work: t.TempDir(),
			Dump: &dump, Embedder: emb, DumpHybrid: hybrid})
		if err != nil || len(rs) != 1 {
			t.Fatalf("%d results, %v", len(rs), err)
		}
		var d DumpInstance
		if err := json.Unmarshal(dump.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		return rs[0], []DumpInstance{d}
	}
	lex, lexDump := run(false)
	hyb, hybDump := run(true)
	for _, r := range []LocResult{lex, hyb} {
		if _, ok := r.Scores[LocHybrid]; !ok || !r.InCandidates || !r.HybridInCandidates {
			t.Fatalf("hybrid systems missing or gold not among candidates: %+v", r)
		}
	}
	if n, m := len(lexDump[0].Candidates), len(hybDump[0].Candidates); m <= n {
		t.Errorf("hybrid dump has %d candidates, lexical %d: no neighbour joined", m, n)
	}
	var text bytes.Buffer
	if err := NewLocReport([]LocResult{hyb}).WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "(hybrid: 1.000)") {
		t.Errorf("report lacks the hybrid candidates figure:\n%s", text.String())
	}
}
