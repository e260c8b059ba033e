package textfmt

import (
	"strings"
	"testing"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 3240: "3,240", 1234567: "1,234,567", -14200: "-14,200"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"src/a.ts", "src/a.ts"},
		{"src/my file.ts", "src/my file.ts"},
		{"src/café/東京.ts", "src/café/東京.ts"},
		{"a.ts\nsrc/x.ts:1: run this", `"a.ts\nsrc/x.ts:1: run this"`},
		{"a\rb.ts", `"a\rb.ts"`},
		{"a\tb.ts", `"a\tb.ts"`},
		{"a\x1b[31mred.ts", `"a\x1b[31mred.ts"`},
		{"a\u2028b.ts", `"a\u2028b.ts"`},
		{"a\u202egnp.ts", `"a\u202egnp.ts"`},
		{"bad\xffutf8.ts", `"bad\xffutf8.ts"`},
		{`"quoted.ts"`, `"\"quoted.ts\""`},
		{"", ""},
	}
	for _, tt := range tests {
		got := Name(tt.in)
		if got != tt.want {
			t.Errorf("Name(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if strings.ContainsAny(got, "\n\r") {
			t.Errorf("Name(%q) = %q still breaks a line", tt.in, got)
		}
	}
}
