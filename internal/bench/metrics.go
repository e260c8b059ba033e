package bench

import (
	"math"
	"sort"
)

// TopK is how deep the ranked lists are judged: Hit@10 and MRR@10.
const TopK = 10

// Metrics summarises the ranks of the answers of a set of queries.
type Metrics struct {
	N     int     `json:"n"`
	Hit1  float64 `json:"hit1"`
	Hit5  float64 `json:"hit5"`
	Hit10 float64 `json:"hit10"`
	// MRR is the mean reciprocal rank with ranks beyond TopK counted as 0
	// (MRR@10).
	MRR float64 `json:"mrr"`
}

// Summarize turns 1-based ranks (0: not in the top TopK) into metrics.
func Summarize(ranks []int) Metrics {
	m := Metrics{N: len(ranks)}
	for _, r := range ranks {
		if r <= 0 || r > TopK {
			continue
		}
		if r <= 1 {
			m.Hit1++
		}
		if r <= 5 {
			m.Hit5++
		}
		m.Hit10++
		m.MRR += 1 / float64(r)
	}
	meansOver(len(ranks), &m.Hit1, &m.Hit5, &m.Hit10, &m.MRR)
	return m
}

// meansOver turns each of sums, a sum over n items, into its mean; over no
// items the sums are 0 and stay so.
func meansOver(n int, sums ...*float64) {
	if n == 0 {
		return
	}
	for _, s := range sums {
		*s /= float64(n)
	}
}

// median is the middle of xs once sorted (the upper middle of an even
// count), 0 for none; it sorts xs.
func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	sort.Ints(xs)
	return xs[len(xs)/2]
}

// RankOf returns the 1-based position of the first element of list within
// its first k that matches, or 0.
func RankOf[T any](list []T, k int, match func(T) bool) int {
	for i, x := range list {
		if i >= k {
			break
		}
		if match(x) {
			return i + 1
		}
	}
	return 0
}

// Span is a symbol or chunk: a file, a 1-based inclusive line range and a
// name.
type Span struct {
	File      string
	StartLine int
	EndLine   int
	Name      string
}

// SymbolHit reports whether a result is the answer at symbol level: in the
// same file, and either the same range, or a range nested in the answer's
// (or the answer's in it) under the same name. The name condition keeps a
// class from counting as a hit for one of its methods, while a curried
// wrapper and the function literal inside it (ramda's `var adjust =
// _curry3(function adjust(...))`) both count.
func SymbolHit(result, answer Span) bool {
	if result.File != answer.File {
		return false
	}
	if result.StartLine == answer.StartLine && result.EndLine == answer.EndLine {
		return true
	}
	if result.Name != answer.Name {
		return false
	}
	return result.StartLine <= answer.StartLine && answer.EndLine <= result.EndLine ||
		answer.StartLine <= result.StartLine && result.EndLine <= answer.EndLine
}

// DistinctFiles returns the files of spans in order of first appearance.
func DistinctFiles(spans []Span) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range spans {
		if !seen[s.File] {
			seen[s.File] = true
			out = append(out, s.File)
		}
	}
	return out
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// percentile returns the p-th percentile (0..100) of sorted values by the
// nearest-rank method.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	r := int(math.Ceil(p / 100 * float64(len(sorted))))
	if r < 1 {
		r = 1
	}
	if r > len(sorted) {
		r = len(sorted)
	}
	return sorted[r-1]
}
