package bench

import (
	"math"
	"reflect"
	"testing"
)

func TestGrepWords(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		// Stop words and words under three letters go; case folds; each word once.
		{"Creates an array of the `Values` of values.", []string{"creates", "array", "values"}},
		{"Is it OK to go?", nil},
		{"Returns `_.uniqBy` results", []string{"returns", "uniqby", "results"}},
	}
	for _, tt := range tests {
		if got := GrepWords(tt.query); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("GrepWords(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

func TestGrepRank(t *testing.T) {
	files := []string{"a.js", "b.js", "c.js", "d.js", "e.js"}
	contents := [][]byte{
		[]byte("function debounce() { /* delay */ }"),          // debounce, delay
		[]byte("const Debounced = debounce(debounce(fn))"),     // debounce x3 (substring of Debounced too)
		[]byte("// delay the call; delay it again; delay"),     // delay x3
		[]byte("function throttle(delay) { return debounce }"), // debounce, delay
		[]byte("nothing to see"),
	}
	g := NewGrep(files, contents)
	tests := []struct {
		query string
		want  []string
	}{
		// Two distinct words beat one; among a.js and d.js (2 words, 2
		// occurrences each) the path decides; among one-word files, the
		// occurrences.
		{"debounce the delay", []string{"a.js", "d.js", "b.js", "c.js"}},
		// Case-insensitive substring: "bounce" is inside every "debounce".
		{"BOUNCE", []string{"b.js", "a.js", "d.js"}},
		{"missing words", nil},
	}
	for _, tt := range tests {
		got := g.Rank(tt.query, 10)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Rank(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
	if got := g.Rank("debounce the delay", 2); !reflect.DeepEqual(got, []string{"a.js", "d.js"}) {
		t.Errorf("Rank with k=2 = %v", got)
	}
}

func TestBM25(t *testing.T) {
	// Lengths in terms: a 3, b 2, c 1; average 2.
	files := []string{"a.ts", "b.ts", "c.ts"}
	b := NewBM25(files, [][]byte{[]byte("cat cat dog"), []byte("dog bird"), []byte("fish")})

	idf := func(df float64) float64 { return math.Log(1 + (3-df+0.5)/(df+0.5)) }
	part := func(tf, dl float64) float64 {
		return tf * (BM25K1 + 1) / (tf + BM25K1*(1-BM25B+BM25B*dl/2))
	}
	tests := []struct {
		query string
		want  map[string]float64
		order []string
	}{
		{"cat", map[string]float64{"a.ts": idf(1) * part(2, 3)}, []string{"a.ts"}},
		// dog is in a.ts and b.ts once each; the shorter file wins.
		{"dog", map[string]float64{"a.ts": idf(2) * part(1, 3), "b.ts": idf(2) * part(1, 2)}, []string{"b.ts", "a.ts"}},
		{"cats and dogs", map[string]float64{
			"a.ts": idf(1)*part(2, 3) + idf(2)*part(1, 3),
			"b.ts": idf(2) * part(1, 2),
		}, []string{"a.ts", "b.ts"}},
		{"unicorn", map[string]float64{}, nil},
	}
	for _, tt := range tests {
		got := b.scores(tt.query)
		if len(got) != len(tt.want) {
			t.Errorf("scores(%q) has %d files, want %d", tt.query, len(got), len(tt.want))
		}
		for id, s := range got {
			if w, ok := tt.want[files[id]]; !ok || !near(s, w) {
				t.Errorf("scores(%q)[%s] = %v, want %v", tt.query, files[id], s, w)
			}
		}
		if r := b.Rank(tt.query, 10); len(r) > 0 || len(tt.order) > 0 {
			if !reflect.DeepEqual(r, tt.order) {
				t.Errorf("Rank(%q) = %v, want %v", tt.query, r, tt.order)
			}
		}
	}
}
