package testkit

import "testing"

// A value set for a test holds in it and is put back when it ends.
func TestSetFor(t *testing.T) {
	bound := 100
	t.Run("inner", func(t *testing.T) {
		SetFor(t, &bound, 5)
		if bound != 5 {
			t.Errorf("during the test: %d, want 5", bound)
		}
	})
	if bound != 100 {
		t.Errorf("after the test: %d, want 100", bound)
	}
}
