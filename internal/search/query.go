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

// searchText is the text a query is searched and featurised with: its
// subject, with the short forms of the phrases it writes out.
func searchText(q string) string {
	return withAcronyms(subject(q))
}

// queryTerms are the terms a query is searched and featurised with.
func queryTerms(q string) []string {
	return terms.Query(searchText(q))
}

// questionWords open a question that asks how, where or why something
// happens: "how does a request reach the router", "where are hooks
// registered".
var questionWords = map[string]bool{
	"how": true, "what": true, "where": true, "why": true, "which": true, "when": true, "who": true,
}

// AsksQuestion says whether a query is a question that opens with a
// question word. Such a question asks which parts of the code take part in
// something, so its results are spread over files (see OrderTop); a
// description of behaviour ("retry a failing test …") or a name asks for
// one piece of code and is ranked as it is.
func AsksQuestion(q string) bool {
	ws := rawWords(q)
	return len(ws) > 0 && questionWords[strings.ToLower(ws[0])]
}
