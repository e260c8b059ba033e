package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// search --json carries leads: with a threshold no result reaches, or for
// a name the index does not hold (said in "unknown"), the answer has no
// results and names the best candidates with probabilities.
func TestSearchJSONLeads(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	root := "../../testdata/project"
	for _, tt := range []struct {
		query     string
		threshold string
		results   bool
		unknown   string
	}{
		{"where are JWT tokens validated", "0", true, ""},
		{"where are JWT tokens validated", "1", false, ""},
		{"validateTokenPair", "0", false, "validateTokenPair"}, // in no chunk of the index
	} {
		out := mustScry(t, "search", "--root", root, "--index", idx, "--json", "--threshold", tt.threshold, tt.query)
		var ans struct {
			Unknown string `json:"unknown"`
			Results []struct {
				Name  string  `json:"name"`
				Score float64 `json:"score"`
			} `json:"results"`
			Leads []struct {
				File        string  `json:"file"`
				StartLine   int     `json:"start_line"`
				Kind        string  `json:"kind"`
				Probability float64 `json:"probability"`
			} `json:"leads"`
		}
		if err := json.Unmarshal([]byte(out), &ans); err != nil {
			t.Fatalf("threshold %s: %v\n%s", tt.threshold, err, out)
		}
		if ans.Unknown != tt.unknown {
			t.Errorf("%q: unknown %q, want %q", tt.query, ans.Unknown, tt.unknown)
		}
		if got := len(ans.Results) > 0; got != tt.results {
			t.Errorf("threshold %s: results %v, want %v", tt.threshold, got, tt.results)
		}
		if len(ans.Results) == 0 && len(ans.Leads) == 0 {
			t.Fatalf("threshold %s: an empty answer", tt.threshold)
		}
		for _, l := range ans.Leads {
			if l.File == "" || l.StartLine < 1 || l.Kind == "" || l.Probability < 0 || l.Probability > 1 {
				t.Errorf("threshold %s: malformed lead %+v", tt.threshold, l)
			}
		}
		for _, r := range ans.Results {
			if r.Score < 0 || r.Score > 1 {
				t.Errorf("result %s: score %.3f is not a probability", r.Name, r.Score)
			}
		}
	}
}
