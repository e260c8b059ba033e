package search

import (
	"strings"

	"github.com/scry-dev/scry/internal/chunkindex"
)

// unknownName is the name a query asks for when nothing in the index
// defines or even mentions it: the query is one name (a bare identifier or
// a path of them, see wholeName), no candidate is named by it, and one of
// its terms occurs in no chunk — for a compound name, the whole identifier
// (createAtom → createatom). The candidates then merely share a word with
// the name (create…, …Atom), and showing them as code would answer a
// question about something the codebase does not have; the answer names
// them as leads and says so. It is "" for any other query, or when the
// index has the name.
func unknownName(query string, qi *queryInfo, st chunkindex.TermStats, feats []Features) string {
	if !qi.wholeOK || len(qi.terms) == 0 {
		return ""
	}
	for i := range feats {
		if feats[i][FWholeName] > 0 {
			return ""
		}
	}
	for _, t := range qi.terms {
		if st.DocFreq[t] == 0 {
			return strings.Trim(strings.TrimSpace(query), "`'\"")
		}
	}
	return ""
}
