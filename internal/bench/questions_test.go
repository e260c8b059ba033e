package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/testkit"
)

func TestNDCG10(t *testing.T) {
	ideal2 := 1 + 1/math.Log2(3)
	tests := []struct {
		name  string
		gold  []string
		files []string
		want  float64
	}{
		{"first", []string{"a.ts"}, []string{"a.ts", "b.ts"}, 1},
		{"second", []string{"a.ts"}, []string{"b.ts", "a.ts"}, 1 / math.Log2(3)},
		{"repeats gain nothing", []string{"a.ts", "b.ts"}, []string{"a.ts", "a.ts", "b.ts"}, (1 + 0.5) / ideal2},
		{"beyond ten", []string{"a.ts"}, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "a.ts"}, 0},
		{"none", []string{"a.ts"}, nil, 0},
	}
	for _, tc := range tests {
		if got := NDCG10(tc.gold, tc.files); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: NDCG@10 %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
}

// writeQuestions writes a questions directory: repos.json and one file of
// questions for the repository.
func writeQuestions(t *testing.T, root, revision string, qs []question) string {
	t.Helper()
	dir := t.TempDir()
	repos := []QuestionRepo{{Name: "widgets", Language: "typescript", Repo: "acme/widgets", Revision: revision, BenchmarkRoot: root}}
	for name, v := range map[string]any{"repos.json": repos, "widgets.json": qs} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The benchmark indexes only the benchmark root at the revision, scores
// each question's ranked files and default answer, and dumps candidates
// that the fitter reads back as agent questions.
func TestQuestionsEndToEnd(t *testing.T) {
	mirrors, commits := testkit.GitMirror(t, "acme+widgets", []map[string]string{{
		"packages/core/src/token.ts":   tokenTS,
		"packages/core/src/cart.ts":    cartTS,
		"packages/other/src/cart.ts":   cartTS, // outside the root: never indexed
		"packages/core/test/t.test.ts": cartTestTS,
	}})
	dir := writeQuestions(t, "packages/core", commits[0], []question{
		{Query: "TokenService", Relevant: []string{"packages/core/src/token.ts"}, Category: "symbol"},
		{Query: "how are items removed from the cart", Relevant: []string{"packages/core/src/cart.ts"}, Category: "semantic"},
	})
	repos, ins, err := LoadQuestions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 || ins[0].GoldFiles[0] != "src/token.ts" || ins[0].Split != QuestionSplit || ins[0].Category != "symbol" {
		t.Fatalf("loaded %+v", ins)
	}
	var dump bytes.Buffer
	results, err := RunQuestions(context.Background(), QuestionOptions{Repos: repos, RunOptions: RunOptions{Instances: ins, Mirrors: mirrors, Work: t.TempDir(), Dump: &dump}})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if r.NDCG[QScry] != 1 {
			t.Errorf("%s: scry NDCG@10 %.3f, want 1 (the relevant file first)", r.ID, r.NDCG[QScry])
		}
		if _, ok := r.NDCG[QGrep]; !ok {
			t.Errorf("%s: no grep baseline", r.ID)
		}
		if r.Answer.Results+r.Answer.Leads == 0 || !r.Answer.RelevantInAnswer {
			t.Errorf("%s: the default answer %+v does not name the relevant file", r.ID, r.Answer)
		}
	}
	rep := NewQuestionReport(results)
	if rep.Overall[QScry] != 1 || rep.Categories["symbol"][QScry] != 1 || rep.Answer.N != 2 {
		t.Errorf("report %+v", rep)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), "| acme/widgets |") {
		t.Errorf("report text %q (%v)", text.String(), err)
	}
	// The dump holds each question with its labels and its candidates,
	// paths relative to the benchmark root.
	lines := strings.Split(strings.TrimSpace(dump.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d dump lines", len(lines))
	}
	for _, line := range lines {
		var d DumpInstance
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		if !d.IsQuestion() || d.Category == "" || len(d.Relevant) != 1 || len(d.Candidates) == 0 {
			t.Errorf("dumped %s: question %v, category %q, relevant %v, %d candidates", d.ID, d.IsQuestion(), d.Category, d.Relevant, len(d.Candidates))
		}
		for _, c := range d.Candidates {
			if strings.HasPrefix(c.File, "packages/") || len(c.Features) != search.NumFeatures {
				t.Errorf("%s: candidate %s with %d features", d.ID, c.File, len(c.Features))
			}
		}
	}
}

func TestLoadQuestionsRefusesLabelsOutsideTheRoot(t *testing.T) {
	dir := writeQuestions(t, "lib", "abc", []question{{Query: "x", Relevant: []string{"src/x.ts"}, Category: "symbol"}})
	if _, _, err := LoadQuestions(dir); err == nil || !strings.Contains(err.Error(), "outside the benchmark root") {
		t.Fatalf("err = %v", err)
	}
}
