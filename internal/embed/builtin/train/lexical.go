package train

import (
	"math"

	"github.com/scry-dev/scry/internal/embed/builtin"
)

// LexicalBaseline scores the validation pairs the way a bag-of-words
// engine would: TF-IDF vectors over the same terms (every term, no
// vocabulary cut), IDF from the validation codes, cosine similarity. It is
// the figure the model has to beat to be worth its bytes.
func LexicalBaseline(val []Pair) Metrics {
	docs := make([]map[string]float64, len(val))
	df := map[string]int{}
	for i, p := range val {
		docs[i] = counts(builtin.Terms(p.Doc))
		for t := range docs[i] {
			df[t]++
		}
	}
	n := float64(len(val))
	idf := func(t string) float64 { return math.Log((n + 1) / (float64(df[t]) + 1)) }
	weigh := func(c map[string]float64) map[string]float64 {
		var norm float64
		for t, k := range c {
			c[t] = (1 + math.Log(k)) * idf(t)
			norm += c[t] * c[t]
		}
		if norm > 0 {
			norm = math.Sqrt(norm)
			for t := range c {
				c[t] /= norm
			}
		}
		return c
	}
	post := map[string][]posting{}
	for i, d := range docs {
		for t, w := range weigh(d) {
			post[t] = append(post[t], posting{i, w})
		}
	}
	m := Metrics{N: len(val)}
	if len(val) == 0 {
		return m
	}
	scores := make([]float64, len(val))
	for i, p := range val {
		clear(scores)
		for t, w := range weigh(counts(builtin.Terms(p.Query))) {
			for _, ps := range post[t] {
				scores[ps.doc] += w * ps.w
			}
		}
		rank := 1
		for j, s := range scores {
			if j != i && s >= scores[i] {
				rank++
			}
		}
		m.add(rank)
	}
	m.finish()
	return m
}

type posting struct {
	doc int
	w   float64
}

func counts(ts []string) map[string]float64 {
	c := make(map[string]float64, len(ts))
	for _, t := range ts {
		c[t]++
	}
	return c
}
