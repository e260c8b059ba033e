package engine_test

import (
	"context"
	"errors"
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
	eng := openProject(t)
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
		// A bare name's definition over the budget gets the advice of a
		// lookup: its structure, or a larger budget.
		{"over budget", "validateToken", 0.5, 150, false,
			[]string{"The symbol asked for is larger than the token budget", "ask for its structure", "over the 150 budget"}},
		{"budget too small for a lead", "validateToken", 0.5, 1, false,
			[]string{"the token budget 1 is too small for an answer: the smallest useful one takes"}},
		// An exact lookup obeys the budget too (it once answered a
		// 549,669-token symbol for a budget of 100).
		{"symbol over budget", "symbol = validateToken", 0.5, 150, false,
			[]string{"The symbol asked for is larger than the token budget", "over the 150 budget"}},
		{"symbol within budget", "symbol = validateToken", 0.5, 8000, true, []string{"validateToken"}},
		// A name the index does not hold at all: its words are here
		// (validate, token), the name is not, so nothing is shown in full
		// however low the threshold.
		{"unknown name", "validateTokenPair", 0, 8000, false,
			[]string{"Nothing in this index defines or mentions validateTokenPair.", "share only part of the name", "p="}},
	}
	for _, tt := range tests {
		ans, err := eng.Search(context.Background(), engine.Query{Text: tt.query, Threshold: &tt.threshold, Budget: tt.budget, CallDepth: 1})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := len(ans.Response.Results) > 0; got != tt.results {
			t.Errorf("%s: results %v, want %v", tt.name, got, tt.results)
		}
		if !tt.results && len(ans.Response.Leads) == 0 && ans.MinBudget == 0 {
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

// TestSearchKeepsItsBudget: leads count against the budget like everything
// else, so an answer never exceeds it, but for one line saying the budget is
// too small and which budget is the smallest useful one; asked again with
// that budget, the answer fits it.
func TestSearchKeepsItsBudget(t *testing.T) {
	eng := openProject(t)
	ctx := context.Background()
	for _, q := range []string{"where are JWT tokens validated", "validateToken", "where are tokens refreshed", "symbol = validateToken"} {
		for _, budget := range []int{1, 20, 60, 120, 250, 500, 1000, 3000} {
			ans, err := eng.Search(ctx, engine.Query{Text: q, Budget: budget, CallDepth: 1})
			if err != nil {
				t.Fatalf("%q, budget %d: %v", q, budget, err)
			}
			text := render.Search(ans)
			if ans.MinBudget == 0 {
				if ans.Tokens > budget {
					t.Errorf("%q, budget %d: %d tokens (%d results, %d leads):\n%s", q, budget, ans.Tokens, len(ans.Response.Results), len(ans.Response.Leads), text)
				}
				continue
			}
			if strings.Contains(text, "\n") || !strings.Contains(text, "too small") || len(ans.Response.Results)+len(ans.Response.Leads) > 0 {
				t.Errorf("%q, budget %d: an over-budget answer must be the one line saying so:\n%s", q, budget, text)
			}
			if ans.MinBudget <= budget {
				t.Errorf("%q, budget %d: smallest useful budget %d is not larger", q, budget, ans.MinBudget)
			}
			again, err := eng.Search(ctx, engine.Query{Text: q, Budget: ans.MinBudget, CallDepth: 1})
			if err != nil {
				t.Fatal(err)
			}
			if again.MinBudget != 0 || again.Tokens > ans.MinBudget || len(again.Response.Results)+len(again.Response.Leads) == 0 {
				t.Errorf("%q, the smallest useful budget %d: %d tokens, min %d, %d results, %d leads", q, ans.MinBudget, again.Tokens, again.MinBudget, len(again.Response.Results), len(again.Response.Leads))
			}
		}
	}
}

// openProject opens the test project, synced, without the environment's
// TestLocalIndexNamesNoRepos: a question naming repositories of a shared
// index is refused by an engine that reads one local workspace, rather
// than answered from that workspace as if they had been searched.
func TestLocalIndexNamesNoRepos(t *testing.T) {
	eng := openProject(t)
	_, err := eng.Search(context.Background(), engine.Query{Text: "validateToken", Repos: []string{"api"}})
	if !errors.Is(err, engine.ErrReposOnLocalIndex) {
		t.Fatalf("repos on a local index: %v, want ErrReposOnLocalIndex", err)
	}
}

// settings; it closes when the test ends.
func openProject(t *testing.T) *engine.Engine {
	t.Helper()
	eng, err := engine.Open(context.Background(), engine.Options{
		Root: "../../testdata/project", IndexPath: filepath.Join(t.TempDir(), "index.db"), Sync: true,
		Getenv: func(string) string { return "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}
