package ident

import "testing"

func TestIs(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"validateToken", true},
		{"_private", true},
		{"$scope", true},
		{"café", true},
		{"π", true},
		{"数据", true},
		{"x1", true},
		{"e\u0301", true}, // e + combining acute accent
		{"Ⅻ", true},       // a letter number
		{"a\u200db", true},
		{"", false},
		{"1x", false},
		{"a-b", false},
		{"a b", false},
		{"#field", false}, // private names are # plus an identifier
		{"a…", false},
		{"\u00a0", false}, // no-break space
		{"\xff", false},   // not UTF-8
		{"<anonymous>", false},
	}
	for _, tt := range tests {
		if got := Is(tt.s); got != tt.want {
			t.Errorf("Is(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// The byte rule never splits a name the exact rule accepts.
func TestByteRuleKeepsNamesWhole(t *testing.T) {
	for _, s := range []string{"café", "π", "数据", "e\u0301", "x1", "$a_b"} {
		if !StartByte(s[0]) {
			t.Errorf("StartByte(%q[0]) = false", s)
		}
		for i := 1; i < len(s); i++ {
			if !PartByte(s[i]) {
				t.Errorf("PartByte(%q[%d]) = false", s, i)
			}
		}
	}
	for _, b := range []byte{' ', '(', '.', '-', '#', '"'} {
		if PartByte(b) {
			t.Errorf("PartByte(%q) = true", b)
		}
	}
	if StartByte('1') || !PartByte('1') {
		t.Error("a digit continues a name but does not start one")
	}
}
