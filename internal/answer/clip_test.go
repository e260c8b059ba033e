package answer

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A reference's line is cut at 200 bytes between characters: a character
// that straddles the cut is left out whole, never split into bytes that
// are not UTF-8.
func TestClipKeepsCharacters(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"short", "const café = 1", "const café = 1"},
		{"exactly 200 bytes", strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{"a character across the cut", strings.Repeat("a", 199) + "é and more", strings.Repeat("a", 199) + "…"},
		{"ASCII past the cut", strings.Repeat("b", 250), strings.Repeat("b", 200) + "…"},
	}
	for _, tt := range tests {
		got := clip(tt.in)
		if got != tt.want || !utf8.ValidString(got) {
			t.Errorf("%s: clip = %q (valid UTF-8: %v), want %q", tt.name, got, utf8.ValidString(got), tt.want)
		}
	}
}
