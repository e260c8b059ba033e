package render_test

import (
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// TestEmptyWorkspace checks the words for each way an index can be empty:
// what was found, and what to do about it.
func TestEmptyWorkspace(t *testing.T) {
	tests := []struct {
		name string
		in   engine.EmptyWorkspace
		want []string
	}{
		{"not a project", engine.EmptyWorkspace{Root: "/home/me", Other: 1},
			[]string{"no TypeScript or JavaScript files (.ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs) under /home/me (1 other file)", "It does not look like a project", "pass --root DIR"}},
		{"a project in another language", engine.EmptyWorkspace{Root: "/p", Markers: []string{".git"}, Other: 12},
			[]string{"(12 other files)", "TypeScript and JavaScript code only"}},
		{"dependencies only", engine.EmptyWorkspace{Root: "/p", Hidden: map[string]int{"node_modules": 1200, "dist": 3}},
			[]string{"the 1,203 TypeScript/JavaScript files under /p are in directories scry skips", "node_modules 1,200, dist 3", "--root"}},
		{"excluded by the settings", engine.EmptyWorkspace{Root: "/p", Candidates: 5, Exclude: []string{"src/**"}},
			[]string{"the include/exclude settings leave out the 5 TypeScript/JavaScript files under /p (exclude src/**)", "Widen them"}},
		{"every file skipped", engine.EmptyWorkspace{Root: "/p", Candidates: 1, Skipped: map[string]int{"too-large": 1}},
			[]string{"the 1 TypeScript/JavaScript file under /p was left out (too-large 1)", "--max-file-size"}},
		{"a partial count", engine.EmptyWorkspace{Root: "/", Other: 50000, Partial: true},
			[]string{"lower bounds"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render.EmptyWorkspace(&tt.in)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestCompilerState checks doctor's line and the answers' note for each
// state of TypeScript 7, so that both say the same thing.
func TestCompilerState(t *testing.T) {
	loading := engine.CompilerStatus{Phase: engine.CompilerLoading, Files: 1553, Elapsed: 2340 * time.Millisecond, Wait: 20 * time.Second}
	for _, tc := range []struct {
		got, want string
	}{
		{render.CompilerState(loading, false), "loading the project (1,553 files, 2.3s so far); questions needing exact structure wait up to 20s"},
		{render.CompilerState(loading, true), "as seen by the running `scry serve`"},
		{render.CompilerLoading(loading), "Note: TypeScript 7 is still loading the project (1,553 files, 2.3s so far): structure in this answer comes from the index"},
		{render.CompilerState(engine.CompilerStatus{Phase: engine.CompilerReady, Files: 12, Elapsed: time.Second}, false), "ready (project of 12 files loaded in 1s)"},
		{render.CompilerState(engine.CompilerStatus{Phase: engine.CompilerFailed, Err: "tsc exited"}, false), "failed to start: tsc exited"},
		{render.CompilerState(engine.CompilerStatus{Phase: engine.CompilerAbsent}, false), "not running in this process"},
	} {
		if !strings.Contains(tc.got, tc.want) {
			t.Errorf("%q lacks %q", tc.got, tc.want)
		}
	}
}
