package search

import (
	"strings"

	"github.com/scry-dev/scry/internal/terms"
)

// taskWords say that something is to be changed, not what: "fix the
// crash when …", "handles X correctly". Code rarely spells them, so in an
// index they are rare and their IDF would make them weigh most in a query
// (a comment "// fix for IE" or a fixPolyfills.ts would outrank the
// subject). They are left out of a query's terms unless written as code
// (`fix`, fixIssue) or unless nothing else is left.
var taskWords = map[string]bool{
	"fix": true, "fixes": true, "fixed": true, "fixing": true,
	"bug": true, "bugs": true, "bugfix": true, "hotfix": true,
	"issue": true, "issues": true,
	"correctly": true, "properly": true, "incorrectly": true,
}

// subject is the query without its task words: what its terms and its
// meaning are computed from.
func subject(q string) string {
	fields := strings.Fields(q)
	kept := make([]string, 0, len(fields))
	for _, f := range fields {
		w := strings.ToLower(strings.Trim(f, ".,;:!?()[]{}'\""))
		if taskWords[w] && !looksLikeCode(f) {
			continue
		}
		kept = append(kept, f)
	}
	if len(kept) == len(fields) {
		return q
	}
	s := strings.Join(kept, " ")
	if len(terms.Query(s)) == 0 {
		return q
	}
	return s
}

// queryTerms are the terms a query is searched and featurised with.
func queryTerms(q string) []string {
	return terms.Query(subject(q))
}
