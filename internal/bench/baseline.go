package bench

import (
	"cmp"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/scry-dev/scry/internal/terms"
)

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// GrepWords are the words an agent would grep for: the query's words,
// lowercased, without stop words and words shorter than three letters,
// each once, in order.
func GrepWords(query string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range wordsOf(query) {
		if utf8.RuneCountInString(w) < 3 || terms.IsStopWord(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// Grep ranks files the way an agent using grep does: `grep -ric WORD` for
// each query word, then the files that contain the most distinct words
// first, ties broken by the total number of occurrences, then by path.
//
// Matching is case-insensitive substring matching, as grep's. It is computed
// on a vocabulary instead of rescanning every file for every word: a word
// made of letters and digits can only occur inside a maximal run of letters
// and digits, so its occurrences in a file are the sum, over the file's
// distinct runs, of the run's count times the word's occurrences in the run.
type Grep struct {
	files []string
	vocab []string        // distinct lowercased runs
	post  [][]filePosting // per vocab entry: files and counts

	mu    sync.Mutex
	cache map[string]*grepWord
}

type filePosting struct {
	file  int32
	count int32
}

type grepWord struct {
	once sync.Once
	hits []filePosting // per file with the word: occurrences
}

// NewGrep indexes contents[i], the text of files[i].
func NewGrep(files []string, contents [][]byte) *Grep {
	g := &Grep{files: files, cache: map[string]*grepWord{}}
	ids := map[string]int{}
	for fi, c := range contents {
		counts := map[string]int32{}
		text := string(c)
		for i := 0; i < len(text); {
			r, w := utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) {
				i += w
				continue
			}
			j := i + w
			for j < len(text) {
				r2, w2 := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r2) {
					break
				}
				j += w2
			}
			counts[strings.ToLower(text[i:j])]++
			i = j
		}
		for run, n := range counts {
			id, ok := ids[run]
			if !ok {
				id = len(g.vocab)
				ids[run] = id
				g.vocab = append(g.vocab, run)
				g.post = append(g.post, nil)
			}
			g.post[id] = append(g.post[id], filePosting{int32(fi), n})
		}
	}
	return g
}

// occurrences returns, per file containing w, how often w occurs.
func (g *Grep) occurrences(w string) []filePosting {
	g.mu.Lock()
	e, ok := g.cache[w]
	if !ok {
		e = &grepWord{}
		g.cache[w] = e
	}
	g.mu.Unlock()
	e.once.Do(func() {
		per := map[int32]int32{}
		for id, run := range g.vocab {
			n := strings.Count(run, w)
			if n == 0 {
				continue
			}
			for _, p := range g.post[id] {
				per[p.file] += p.count * int32(n)
			}
		}
		for f, n := range per {
			e.hits = append(e.hits, filePosting{f, n})
		}
	})
	return e.hits
}

// Rank returns at most k files, best first.
func (g *Grep) Rank(query string, k int) []string {
	type score struct{ words, occ int }
	scores := map[int32]*score{}
	for _, w := range GrepWords(query) {
		for _, p := range g.occurrences(w) {
			s := scores[p.file]
			if s == nil {
				s = &score{}
				scores[p.file] = s
			}
			s.words++
			s.occ += int(p.count)
		}
	}
	// More distinct query words first, then more occurrences.
	return topFiles(g.files, scores, k, func(a, b *score) int {
		return cmp.Or(cmp.Compare(b.words, a.words), cmp.Compare(b.occ, a.occ))
	})
}

// topFiles ranks the files that scores holds, as both baselines do: best
// first by order (negative: a before b), ties by path; it returns the
// names of at most k of them (k <= 0: all).
func topFiles[S any](files []string, scores map[int32]S, k int, order func(a, b S) int) []string {
	ids := make([]int32, 0, len(scores))
	for f := range scores {
		ids = append(ids, f)
	}
	sort.Slice(ids, func(i, j int) bool {
		if c := order(scores[ids[i]], scores[ids[j]]); c != 0 {
			return c < 0
		}
		return files[ids[i]] < files[ids[j]]
	})
	if k > 0 && len(ids) > k {
		ids = ids[:k]
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = files[id]
	}
	return out
}

// BM25 parameters of the whole-file baseline (the usual defaults).
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

// BM25 ranks whole files by Okapi BM25 over the terms scry itself indexes
// (terms.Split: identifiers split, lowercased, stemmed), so that the only
// difference from scry's first stage is the unit of retrieval (files, not
// symbols) and the fields.
type BM25 struct {
	files  []string
	docLen []float64
	avgLen float64
	post   map[string][]filePosting
}

// NewBM25 indexes contents[i], the text of files[i].
func NewBM25(files []string, contents [][]byte) *BM25 {
	b := &BM25{files: files, docLen: make([]float64, len(files)), post: map[string][]filePosting{}}
	total := 0.0
	for fi, c := range contents {
		ts := terms.Split(string(c))
		b.docLen[fi] = float64(len(ts))
		total += float64(len(ts))
		tf := map[string]int32{}
		for _, t := range ts {
			tf[t]++
		}
		for t, n := range tf {
			b.post[t] = append(b.post[t], filePosting{int32(fi), n})
		}
	}
	if len(files) > 0 {
		b.avgLen = total / float64(len(files))
	}
	return b
}

// Rank returns at most k files, best first (ties by path).
func (b *BM25) Rank(query string, k int) []string {
	// Higher scores first (BM25's are finite, so cmp.Compare's order is >'s).
	return topFiles(b.files, b.scores(query), k, func(x, y float64) int { return cmp.Compare(y, x) })
}

// scores returns the BM25 score of every file matching a query term, with
// idf = ln(1 + (N - df + 0.5) / (df + 0.5)), which stays positive for terms
// found in most files.
func (b *BM25) scores(query string) map[int32]float64 {
	n := float64(len(b.files))
	scores := map[int32]float64{}
	for _, t := range terms.Query(query) {
		ps := b.post[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			tf := float64(p.count)
			norm := 1 - BM25B + BM25B*b.docLen[p.file]/b.avgLen
			scores[p.file] += idf * tf * (BM25K1 + 1) / (tf + BM25K1*norm)
		}
	}
	return scores
}
