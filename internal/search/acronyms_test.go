package search

import (
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/terms"
)

func TestWithAcronyms(t *testing.T) {
	tests := []struct {
		q, want string
	}{
		{"how command line flags are converted into API options", "how command line flags are converted into API options cli"},
		{"command-line flags", "command-line flags cli"},
		{"one regular expression per method", "one regular expression per method regexp regex"},
		// the plural of the phrase's last word
		{"compile regular expressions once", "compile regular expressions once regexp regex"},
		{"Server-Side Rendering of head tags", "Server-Side Rendering of head tags ssr"},
		// a short form the query already spells is not added again
		{"parse the cli command line", "parse the cli command line"},
		// two phrases, each short form once
		{"ttl of a json web token, time to live", "ttl of a json web token, time to live jwt"},
		// words of the phrase apart, or out of order, are no phrase
		{"the line of the command", "the line of the command"},
		{"regular users of an expression", "regular users of an expression"},
		// one-word abbreviations are not expanded
		{"resize the image in the directory", "resize the image in the directory"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := withAcronyms(tt.q); got != tt.want {
			t.Errorf("withAcronyms(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
	// A short form the index would split (i18n into 18 and i18n) would
	// search for its pieces; stemmed (cors as cor) it is one term still.
	for _, a := range acronyms {
		if len(a.phrase) < 2 {
			t.Errorf("%v: a one-word phrase", a.phrase)
		}
		for _, s := range a.short {
			if got := terms.Query(s); len(got) != 1 {
				t.Errorf("%v: short form %q is the terms %v, not one term", a.phrase, s, got)
			}
		}
	}
	if got := queryTerms("fix how command line flags become options"); !slices.Contains(got, "cli") || slices.Contains(got, "fix") {
		t.Errorf("queryTerms should search the short form and leave out the task word: %v", got)
	}
}
