package snapshot

import (
	"errors"
	"testing"
)

// TestBuildRefusesStaleTargets: a target carrying its chunk's text is
// built only when the file still holds that text at its lines.
func TestBuildRefusesStaleTargets(t *testing.T) {
	src := []byte("const a = 1\r\nexport function f(): number {\r\n  return a\r\n}\r\n")
	fn := "export function f(): number {\r\n  return a\r\n}"
	tests := []struct {
		name   string
		target Target
		stale  bool
	}{
		{"holds", Target{StartLine: 2, EndLine: 4, Source: fn}, false},
		{"no source given", Target{StartLine: 2, EndLine: 4}, false},
		{"other text", Target{StartLine: 2, EndLine: 4, Source: "export function g() {\n}"}, true},
		{"past the end", Target{StartLine: 5, EndLine: 7, Source: fn}, true},
		{"shifted", Target{StartLine: 1, EndLine: 3, Source: fn}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build("a.ts", src, []Target{tt.target})
			if got := errors.Is(err, ErrStale); got != tt.stale {
				t.Fatalf("Build = %v; stale %v, want %v", err, got, tt.stale)
			}
			if !tt.stale && err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBuildLoneCR: in a file with lone "\r" line endings, lines are
// numbered as editors number them, so a chunk's target holds and its
// snapshot shows exactly its lines.
func TestBuildLoneCR(t *testing.T) {
	src := []byte("const a = 1\rexport function f(): number {\r  return a\r}\r")
	fn := "export function f(): number {\r  return a\r}"
	got, err := Build("a.ts", src, []Target{{StartLine: 2, EndLine: 4, Source: fn}})
	if err != nil {
		t.Fatal(err)
	}
	want := "// a.ts\n\nconst a = 1\nexport function f(): number {\n  return a\n}\n"
	if got != want {
		t.Errorf("snapshot:\n%q\nwant\n%q", got, want)
	}
}
