package rerank

import (
	"context"
	"strings"

	"github.com/scry-dev/scry/internal/terms"
)

// Builtin names the default when no model reranker is configured: the
// search pipeline then orders candidates with its own fitted ranker
// (internal/search) and never calls Rerank. Rerank is the previous
// fixed-weight reranker, kept because the benchmarks report it as the
// `scry-v1` baseline: a fixed blend of query-term coverage (most of all in
// the name) with discounts for imports, comments, tests and declaration
// files.
type Builtin struct{}

// Name implements Reranker.
func (Builtin) Name() string { return "builtin" }

// Feature weights; they sum to 1 so a perfect match scores 1 before priors.
const (
	wCoverage = 0.40 // share of query terms found anywhere in the chunk
	wName     = 0.30 // share of query terms found in the symbol's name
	wHeader   = 0.15 // share found in its signature or JSDoc
	wExact    = 0.15 // the query names the symbol outright
)

// Rerank implements Reranker.
func (Builtin) Rerank(_ context.Context, query string, docs []Doc) ([]float64, error) {
	q := terms.Query(query)
	words := queryWords(query)
	wantsTests := false
	for _, w := range words {
		if w == "test" || w == "tests" || w == "spec" || w == "specs" {
			wantsTests = true
		}
	}
	scores := make([]float64, len(docs))
	if len(q) == 0 {
		return scores, nil
	}
	for i, d := range docs {
		name := set(terms.Split(d.Name))
		header := set(terms.Split(d.Signature + " " + d.JSDoc))
		all := set(terms.Split(d.Breadcrumb + " " + d.Text + " " + d.JSDoc))
		var cov, inName, inHeader float64
		for _, t := range q {
			if _, ok := all[t]; ok {
				cov++
			}
			if _, ok := name[t]; ok {
				inName++
			}
			if _, ok := header[t]; ok {
				inHeader++
			}
		}
		n := float64(len(q))
		exact := 0.0
		lname := strings.ToLower(d.Name)
		for _, w := range words {
			if len(w) >= 3 && w == lname {
				exact = 1
			}
		}
		s := wCoverage*cov/n + wName*inName/n + wHeader*inHeader/n + wExact*exact
		s *= kindPrior(d.Kind) * pathPrior(d.Path, wantsTests)
		if s > 1 {
			s = 1
		}
		scores[i] = s
	}
	return scores, nil
}

// queryWords are the query's raw identifiers, lowercased, for exact name
// matches ("validateToken" in the query names the symbol validateToken).
func queryWords(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(r == '_' || r == '$' || r == '#' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 0x80)
	})
}

func set(ts []string) map[string]struct{} {
	m := make(map[string]struct{}, len(ts))
	for _, t := range ts {
		m[t] = struct{}{}
	}
	return m
}

func kindPrior(kind string) float64 {
	switch kind {
	case "import", "re-export", "comment", "statement":
		// Rarely what an agent wants to read or edit; they still surface
		// when they match the query outright.
		return 0.4
	case "expression":
		return 0.75
	case "property", "enum-member", "index-signature", "call-signature":
		return 0.85
	}
	return 1
}

func pathPrior(path string, wantsTests bool) float64 {
	p := strings.ToLower(path)
	prior := 1.0
	if !wantsTests && (strings.Contains(p, ".test.") || strings.Contains(p, ".spec.") ||
		strings.Contains(p, "__tests__/") || strings.HasPrefix(p, "test/") || strings.Contains(p, "/test/") ||
		strings.HasPrefix(p, "spec/") || strings.Contains(p, "/spec/")) {
		prior *= 0.8
	}
	if strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts") {
		prior *= 0.85
	}
	if strings.Contains(p, "generated") || strings.Contains(p, "/vendor/") {
		prior *= 0.7
	}
	return prior
}
