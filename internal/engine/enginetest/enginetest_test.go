package enginetest

import (
	"slices"
	"testing"
)

// The questions are read, comments and blank lines left out, and none is
// a warm-up question (every measured ask is that question's first).
func TestQuestions(t *testing.T) {
	qs := Questions(t)
	if len(qs) == 0 {
		t.Fatal("no questions")
	}
	for _, q := range qs {
		if q == "" || q[0] == '#' || slices.Contains(WarmUp, q) {
			t.Errorf("question %q", q)
		}
	}
}
