package bench

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSummarize(t *testing.T) {
	tests := []struct {
		name  string
		ranks []int
		want  Metrics
	}{
		{"empty", nil, Metrics{}},
		{"all first", []int{1, 1}, Metrics{N: 2, Hit1: 1, Hit5: 1, Hit10: 1, MRR: 1}},
		{"all missed", []int{0, 0, 0}, Metrics{N: 3}},
		{"mixed", []int{1, 2, 5, 6, 10, 0}, Metrics{N: 6, Hit1: 1.0 / 6, Hit5: 3.0 / 6, Hit10: 5.0 / 6,
			MRR: (1 + 0.5 + 0.2 + 1.0/6 + 0.1) / 6}},
		// A rank past the cut-off counts as a miss in every figure.
		{"beyond top k", []int{11, 3}, Metrics{N: 2, Hit5: 0.5, Hit10: 0.5, MRR: 1.0 / 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.ranks)
			if got.N != tt.want.N || !near(got.Hit1, tt.want.Hit1) || !near(got.Hit5, tt.want.Hit5) ||
				!near(got.Hit10, tt.want.Hit10) || !near(got.MRR, tt.want.MRR) {
				t.Errorf("Summarize(%v) = %+v, want %+v", tt.ranks, got, tt.want)
			}
		})
	}
}

func TestRankOf(t *testing.T) {
	list := []string{"a", "b", "c", "b"}
	tests := []struct {
		want string
		k    int
		rank int
	}{
		{"a", 10, 1},
		{"b", 10, 2}, // the first match counts
		{"c", 2, 0},  // beyond k
		{"c", 3, 3},
		{"z", 10, 0},
	}
	for _, tt := range tests {
		if got := RankOf(list, tt.k, func(s string) bool { return s == tt.want }); got != tt.rank {
			t.Errorf("RankOf(%q, k=%d) = %d, want %d", tt.want, tt.k, got, tt.rank)
		}
	}
}

func TestSymbolHit(t *testing.T) {
	answer := Span{File: "p/a.js", StartLine: 10, EndLine: 20, Name: "adjust"}
	tests := []struct {
		name   string
		result Span
		want   bool
	}{
		{"same chunk", answer, true},
		{"same range other name", Span{"p/a.js", 10, 20, "default"}, true},
		{"other file", Span{"p/b.js", 10, 20, "adjust"}, false},
		{"inner function of the same name", Span{"p/a.js", 12, 20, "adjust"}, true},
		{"wrapper of the same name", Span{"p/a.js", 5, 30, "adjust"}, true},
		{"enclosing class", Span{"p/a.js", 1, 40, "Util"}, false},
		{"nested helper", Span{"p/a.js", 12, 14, "helper"}, false},
		{"overlapping, not nested", Span{"p/a.js", 15, 25, "adjust"}, false},
		{"neighbour", Span{"p/a.js", 21, 30, "adjust2"}, false},
	}
	for _, tt := range tests {
		if got := SymbolHit(tt.result, answer); got != tt.want {
			t.Errorf("%s: SymbolHit(%+v) = %v, want %v", tt.name, tt.result, got, tt.want)
		}
	}
}

func TestDistinctFiles(t *testing.T) {
	got := DistinctFiles([]Span{{File: "b"}, {File: "a"}, {File: "b"}, {File: "c"}, {File: "a"}})
	want := []string{"b", "a", "c"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestPercentile(t *testing.T) {
	s := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	tests := []struct{ p, want float64 }{{50, 5}, {95, 10}, {10, 1}, {0, 1}, {100, 10}}
	for _, tt := range tests {
		if got := percentile(s, tt.p); got != tt.want {
			t.Errorf("percentile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("percentile(nil) = %v", got)
	}
}

func TestQuotas(t *testing.T) {
	tests := []struct {
		sizes []int
		n     int
		want  []int
	}{
		{[]int{100, 100}, 10, []int{5, 5}},
		{[]int{2, 100, 100}, 10, []int{2, 4, 4}},
		{[]int{2, 3}, 10, []int{2, 3}},
		{[]int{5, 5, 5}, 7, []int{3, 2, 2}},
	}
	for _, tt := range tests {
		got := quotas(tt.sizes, tt.n)
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("quotas(%v, %d) = %v, want %v", tt.sizes, tt.n, got, tt.want)
				break
			}
		}
	}
}

func TestHeadToHead(t *testing.T) {
	rs := []QueryResult{
		{Ranks: map[string]Rank{"a": {File: 1}, "b": {File: 2}}}, // better
		{Ranks: map[string]Rank{"a": {File: 3}, "b": {File: 0}}}, // a hit beats a miss
		{Ranks: map[string]Rank{"a": {File: 0}, "b": {File: 9}}}, // worse
		{Ranks: map[string]Rank{"a": {File: 0}, "b": {File: 0}}}, // both missed: tied
		{Ranks: map[string]Rank{"a": {File: 4}, "b": {File: 4}}}, // tied
	}
	got := headToHead(rs, "a", "b")
	if got != (HeadToHead{A: "a", B: "b", Better: 2, Worse: 1, Tied: 2}) {
		t.Errorf("headToHead = %+v", got)
	}
}
