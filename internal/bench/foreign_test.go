package bench

import (
	"fmt"
	"strings"
	"testing"
)

// Each repository is asked the questions of the next and the fifth next,
// never its own, with no gold; with fewer repositories the offsets that
// meet do not ask twice.
func TestForeignQuestions(t *testing.T) {
	var repos []QuestionRepo
	var ins []Instance
	for i := range 7 {
		r := QuestionRepo{Name: fmt.Sprintf("r%d", i), Repo: fmt.Sprintf("o/r%d", i), Revision: fmt.Sprintf("c%d", i), BenchmarkRoot: "/src/"}
		repos = append(repos, r)
		ins = append(ins, Instance{ID: r.Name + "-001", Repo: r.Repo, Split: QuestionSplit, Query: "q of " + r.Name, Category: "symbol", GoldFiles: []string{"a.ts"}})
	}
	tests := []struct {
		all, asked []QuestionRepo
		want       map[string][]string // asked repository → the repositories whose questions it gets
	}{
		{repos, repos[:1], map[string][]string{"o/r0": {"r1", "r5"}}},
		{repos, repos[6:], map[string][]string{"o/r6": {"r0", "r4"}}},
		{repos[:2], repos[:2], map[string][]string{"o/r0": {"r1"}, "o/r1": {"r0"}}},
		{repos[:1], repos[:1], map[string][]string{}},
	}
	for i, tt := range tests {
		got := map[string][]string{}
		for _, f := range ForeignQuestions(tt.all, tt.asked, ins) {
			from := strings.TrimPrefix(f.Query, "q of ")
			got[f.Repo] = append(got[f.Repo], from)
			if f.Split != ForeignSplit || len(f.GoldFiles) != 0 || f.Category != "foreign-symbol" || f.Root != "src" {
				t.Errorf("case %d: foreign question %+v", i, f)
			}
			if "o/"+from == f.Repo {
				t.Errorf("case %d: %s asked its own question", i, f.Repo)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("case %d: asked %v, want %v", i, got, tt.want)
		}
	}
}

// Foreign answers count in no figure of the questions' own, and are
// summarised apart: how many carried code, how many said the name is not
// in the index.
func TestQuestionReportKeepsForeignApart(t *testing.T) {
	own := QuestionResult{ID: "a", Repo: "o/a", Category: "symbol", NDCG: map[string]float64{QScry: 1},
		Answer: QuestionAnswer{Results: 1, RelevantInResults: true}}
	foreign := []QuestionResult{
		{ID: "f1", Repo: "o/a", Category: "foreign-symbol", Foreign: true, NDCG: map[string]float64{QScry: 0}, Answer: QuestionAnswer{Leads: 8, Unknown: true}},
		{ID: "f2", Repo: "o/a", Category: "foreign-semantic", Foreign: true, NDCG: map[string]float64{QScry: 0}, Answer: QuestionAnswer{Results: 3, Tokens: 900}},
	}
	r := NewQuestionReport(append([]QuestionResult{own}, foreign...))
	if r.Overall[QScry] != 1 || r.Answer.N != 1 || r.Answer.RelevantInResults != 1 {
		t.Errorf("own figures moved by foreign answers: overall %v, answers %+v", r.Overall, r.Answer)
	}
	want := []ForeignAnswers{
		{Category: "all", N: 2, WithCode: 1, Unknown: 1, MedianResults: 3, MedianTokens: 900},
		{Category: "foreign-semantic", N: 1, WithCode: 1, MedianResults: 3, MedianTokens: 900},
		{Category: "foreign-symbol", N: 1, Unknown: 1},
	}
	if fmt.Sprint(r.Foreign) != fmt.Sprint(want) || r.HybridForeign != nil {
		t.Errorf("foreign %+v (hybrid %+v), want %+v", r.Foreign, r.HybridForeign, want)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil || !strings.Contains(text.String(), "| foreign-symbol | 1 | 0 | 1 |") ||
		!strings.Contains(text.String(), "(NDCG@10, 1 questions)") {
		t.Errorf("report text (%v):\n%s", err, text.String())
	}
}
