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

// TestDecode: a name written with Unicode escapes is the identifier the
// compiler reads; it was taken for no name at all (an anonymous function).
func TestDecode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", "abc"},
		{`\u0061bc`, "abc"},
		{`\u{61}bc`, "abc"},
		{`m\u0065th`, "meth"},
		{`caf\u00e9`, "café"},
		{`\u0031abc`, `\u0031abc`}, // "1abc" is not an identifier
		{`\u00zz`, `\u00zz`},
		{`a\nb`, `a\nb`},
	}
	for _, tt := range tests {
		if got := Decode(tt.in); got != tt.want {
			t.Errorf("Decode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		line, name string
		want       int
	}{
		{`export function \u0061bc(): number {`, "abc", 16},
		{`  m\u0065th() {`, "meth", 2},
		{`const x = abc;`, "abc", -1}, // spelled out: wordIndex's business
		{`\u0061bcd()`, "abc", -1},
	} {
		if got := IndexEscaped(tt.line, tt.name); got != tt.want {
			t.Errorf("IndexEscaped(%q, %q) = %d, want %d", tt.line, tt.name, got, tt.want)
		}
	}
}

func TestIsPath(t *testing.T) {
	for s, want := range map[string]bool{
		"retries":                 true,
		"Mocha.prototype.retries": true,
		"$.fn.plugin":             true,
		"handlers['drain']":       false,
		"getTarget().x":           false,
		"a..b":                    false,
		".a":                      false,
		"":                        false,
	} {
		if got := IsPath(s); got != want {
			t.Errorf("IsPath(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestAssigned(t *testing.T) {
	for s, want := range map[string]string{
		"Mocha.prototype.retries": "retries",
		"exports.parse":           "parse",
		"module.exports":          "",
		"module.exports.parse":    "parse",
		"$.fn.plugin":             "plugin",
		"retries":                 "",
		"handlers['drain']":       "",
		"a..b":                    "",
		"a.":                      "",
		"":                        "",
	} {
		if got := Assigned(s); got != want {
			t.Errorf("Assigned(%q) = %q, want %q", s, got, want)
		}
	}
}
