package bench

import "testing"

func TestNamesWord(t *testing.T) {
	tests := []struct {
		text, name string
		want       bool
	}{
		{"Creates a debounced function like `_.debounce`.", "debounce", true},
		{"Creates a debounced function.", "debounce", false},
		{"The $map helper", "$map", true},
		{"", "x", false},
	}
	for _, tt := range tests {
		if got := namesWord(tt.text, tt.name); got != tt.want {
			t.Errorf("namesWord(%q, %q) = %v", tt.text, tt.name, got)
		}
	}
}
