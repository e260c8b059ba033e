package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// An answer is never empty while candidates exist: when no result reaches
// the relevance threshold the answer says so and names the best candidates
// in one line each, with file:line and probability; when the best match is
// larger than the whole budget it says that instead.
func TestSearchAnswersWithLeads(t *testing.T) {
	eng, err := engine.Open(context.Background(), engine.Options{
		Root: "../../testdata/project", IndexPath: filepath.Join(t.TempDir(), "index.db"), Sync: true,
		Getenv: func(string) string { return "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	tests := []struct {
		name      string
		query     string
		threshold float64
		budget    int
		results   bool
		want      []string
	}{
		{"confident", "where are JWT tokens validated", 0.5, 8000, true, []string{"validateToken"}},
		{"nothing confident", "where are tokens refreshed", 0.999, 8000, false,
			[]string{"No result is confident", "relevance threshold 1.00", "Best leads:", "src/auth/tokenService.ts:", "p="}},
		{"over budget", "validateToken", 0.5, 5, false,
			[]string{"larger than the token budget", "over the 5 budget"}},
	}
	for _, tt := range tests {
		ans, err := eng.Search(context.Background(), engine.Query{Text: tt.query, Threshold: &tt.threshold, Budget: tt.budget, CallDepth: 1})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := len(ans.Response.Results) > 0; got != tt.results {
			t.Errorf("%s: results %v, want %v", tt.name, got, tt.results)
		}
		if !tt.results && len(ans.Response.Leads) == 0 {
			t.Errorf("%s: no results and no leads", tt.name)
		}
		for _, w := range tt.want {
			if !strings.Contains(render.Search(ans), w) {
				t.Errorf("%s: answer lacks %q:\n%s", tt.name, w, render.Search(ans))
			}
		}
		if ans.Tokens > 300 && !tt.results {
			t.Errorf("%s: a leads-only answer of %d tokens", tt.name, ans.Tokens)
		}
	}
}
