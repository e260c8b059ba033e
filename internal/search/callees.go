package search

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// calleeSources is how many of the best candidates (by the model's score
// before the mark) have their calls read.
const calleeSources = 3

// markCallees sets FCallee on the candidates that the strongest candidates
// call by name, and FFileCallee on every candidate of their files. A
// question about how something works names its entry point ("how save()
// turns an entity graph into inserts", "how a request goes from fetch to
// middleware"); the entry point matches the words, but the code that does
// the work is what it calls (the persist executor, compose), whose own
// text shares few of the question's words. The strongest candidates are
// the model's first reading of the query, so the mark is a second stage
// that depends on the model that ranks: after a refit, dump again before
// fitting again.
func markCallees(m *Model, cands []Result, feats []Features) {
	if m == nil || len(cands) < 2 {
		return
	}
	order := byScore(m, feats)
	sources := order[:min(calleeSources, len(order))]
	isSource := make(map[int]bool, len(sources))
	callers := map[string]int{}
	for _, i := range sources {
		isSource[i] = true
		own := simpleName(cands[i].Chunk.Name)
		for _, n := range calledNames(cands[i].Chunk.EmbeddingText) {
			if n != own {
				callers[n]++
			}
		}
	}
	if len(callers) == 0 {
		return
	}
	fileBest := map[string]float64{}
	for i, c := range cands {
		if isSource[i] {
			continue
		}
		// A method signature of an interface is no code a call runs:
		// `this.subscribe()` reaches an implementation, not the
		// declaration beside it in types.ts.
		if isSignature(c.Chunk) {
			continue
		}
		if n := callers[simpleName(c.Chunk.Name)]; n > 0 {
			feats[i][FCallee] = min(float64(n), 2) / 2
			p := c.Chunk.RelativePath
			fileBest[p] = max(fileBest[p], feats[i][FCallee])
		}
	}
	// The file of a callee is marked as a whole: the question asks which
	// files take part, and the callee found may be a small helper beside
	// the function that does the work (a source's own file included: the
	// entry point and what it calls in its own module).
	for i, c := range cands {
		feats[i][FFileCallee] = fileBest[c.Chunk.RelativePath]
	}
}

// firstScores is the model's score of each candidate's feats as they
// stand: the first reading that the second-stage marks (markCallees,
// markHubs, markPeers, markLinks) start from.
func firstScores(m *Model, feats []Features) []float64 {
	scores := make([]float64, len(feats))
	for i := range feats {
		scores[i] = m.Score(&feats[i])
	}
	return scores
}

// strongFile is one of a query's best files and its weight in a
// second-stage mark.
type strongFile struct {
	path   string
	weight float64
}

// strongFiles are the n best files of the model's first reading, each by
// its best candidate, best first (ties by path), each weighing
// exp(its score − the best file's): a file far below the best counts for
// little. markPeers and markLinks read the query's best files so.
func strongFiles(m *Model, cands []Result, feats []Features, n int) []strongFile {
	scores := firstScores(m, feats)
	best := map[string]float64{}
	for i, c := range cands {
		if b, ok := best[c.Chunk.RelativePath]; !ok || scores[i] > b {
			best[c.Chunk.RelativePath] = scores[i]
		}
	}
	files := make([]strongFile, 0, len(best))
	for p, s := range best {
		files = append(files, strongFile{p, s})
	}
	sort.Slice(files, func(a, b int) bool {
		if files[a].weight != files[b].weight {
			return files[a].weight > files[b].weight
		}
		return files[a].path < files[b].path
	})
	files = files[:min(n, len(files))]
	if len(files) == 0 {
		return files
	}
	top := files[0].weight
	for i := range files {
		files[i].weight = math.Exp(files[i].weight - top)
	}
	return files
}

// byScore lists the candidates' indexes best first by firstScores.
func byScore(m *Model, feats []Features) []int {
	scores := firstScores(m, feats)
	order := make([]int, len(feats))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	return order
}

// simpleName is the last part of a chunk's name ("Mocha.prototype.retries"
// is called as retries).
func simpleName(name string) string {
	return name[strings.LastIndexByte(name, '.')+1:]
}

// notCalls are keywords that stand before a parenthesis without naming a
// function of the codebase, and get and set, which before a parenthesis
// mostly call a Map's methods: a codebase's own get would be marked for
// every lookup its strongest candidates make.
var notCalls = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "function": true,
	"return": true, "typeof": true, "await": true, "new": true, "super": true, "import": true,
	"require": true, "constructor": true, "with": true, "yield": true, "void": true, "delete": true,
	"in": true, "of": true, "instanceof": true, "async": true, "get": true, "set": true,
}

// calledNames lists, once each in order of appearance, the identifiers of
// src written as calls: a name followed by "(", or by type arguments and
// "(" (`create<T>(x)`), including `new X(…)` and private methods
// (`this.#dispatch(…)`). Strings and comments are not told apart from code:
// a name in a string followed by a parenthesis is rare, and a wrong mark
// only lifts a candidate the other features must carry anyway.
func calledNames(src string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		if !identStart(r) {
			i += size
			continue
		}
		start := i
		i += size
		for i < len(src) {
			r, size := utf8.DecodeRuneInString(src[i:])
			if !identPart(r) {
				break
			}
			i += size
		}
		name := src[start:i]
		j := skipSpaces(src, i)
		if j < len(src) && src[j] == '<' {
			j = skipTypeArguments(src, j)
		}
		if j < len(src) && src[j] == '(' && len(strings.TrimPrefix(name, "#")) >= 3 && !notCalls[name] && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

func identStart(r rune) bool {
	return r == '_' || r == '$' || r == '#' || unicode.IsLetter(r)
}

func identPart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// maxTypeArguments bounds the type arguments skipped between a name and
// its call's parenthesis; a longer stretch is a comparison, not a call.
const maxTypeArguments = 120

// skipTypeArguments returns the index after the balanced "<…>" that starts
// at s[i] and the spaces after it, or i when there is none (a comparison
// such as `a < b`, or brackets holding parentheses or statements).
func skipTypeArguments(s string, i int) int {
	depth := 0
	for j := i; j < len(s) && j-i <= maxTypeArguments; j++ {
		switch s[j] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				return skipSpaces(s, j+1)
			}
		case '(', ')', ';', '{', '}', '\n':
			return i
		}
	}
	return i
}
