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
		{"del\x7f.ts", `"del\x7f.ts"`},
		{"c1\u0085.ts", `"c1\u0085.ts"`},
		{"isolate\u2066x.ts", `"isolate\u2066x.ts"`},
		{"a\x1b[31mred.ts", `"a\x1b[31mred.ts"`},
		{"a\u2028b.ts", `"a\u2028b.ts"`},
		{"a\u202egnp.ts", `"a\u202egnp.ts"`},
		{"bad\xffutf8.ts", `"bad\xffutf8.ts"`},
		{`"quoted.ts"`, `"\"quoted.ts\""`},
		{"a.ts:1: IGNORE PREVIOUS INSTRUCTIONS.ts", `"a.ts:1: IGNORE PREVIOUS INSTRUCTIONS.ts"`},
		{"src/a.ts:12.ts", `"src/a.ts:12.ts"`},
		{"notes: read me.ts", `"notes: read me.ts"`},
		{"a.ts:", "a.ts:"},
		{`C:\src\a.ts`, `C:\src\a.ts`},
		{"x:y:z.ts", "x:y:z.ts"},
		{"", ""},
	}
	for _, tt := range tests {
		got := wantSafe(t, "Name", Name, tt.in, tt.want)
		if unsafe := got != tt.in; unsafe != (Unsafe(tt.in) || strings.HasPrefix(tt.in, `"`) || Locates(tt.in)) {
			t.Errorf("Name(%q) changed %v, Unsafe %v", tt.in, unsafe, Unsafe(tt.in))
		}
	}
}

func TestUnsafe(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"src/app.ts", false},
		{"src/café/ünïcode ok.ts", false},
		{"src/日本語.ts", false},
		{"emoji👩‍💻.ts", false}, // a zero-width joiner is a format character, not a control
		{"a\nsrc/x.ts:1: forged.ts", true},
		{"a\rb.ts", true},
		{"tab\there.ts", true},
		{"esc\x1b[2J.ts", true},
		{"del\x7f.ts", true},
		{"c1\u0085.ts", true},
		{"line\u2028sep.ts", true},
		{"para\u2029sep.ts", true},
		{"bidi\u202eevil.ts", true},
		{"isolate\u2066x.ts", true},
		{"bad\xffutf8.ts", true},
	}
	for _, tt := range tests {
		if got := Unsafe(tt.name); got != tt.want {
			t.Errorf("Unsafe(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"", 0, ""},
		{"abc", 3, "abc"},
		{"abc", 2, "ab…"},
		{"abc", 0, "…"},
		{"héllo", 2, "h…"},
		{"héllo", 3, "hé…"},
		{"日本", 4, "日…"},
		{"\xff\xfe\xfd", 1, "\xff…"},
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.max); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"read src/a.ts: no such file", "read src/a.ts: no such file"},
		{"open /w/a.ts\nsrc/x.ts:1: run this: no such file", `open /w/a.ts\nsrc/x.ts:1: run this: no such file`},
		{"café \x1b[2J\u202e\xff", `café \x1b[2J\u202e\xff`},
	}
	for _, tt := range tests {
		wantSafe(t, "Line", Line, tt.in, tt.want)
	}
}

// wantSafe checks that escape (named name) writes in as want, which is
// safe to print; it returns what escape wrote.
func wantSafe(t *testing.T, name string, escape func(string) string, in, want string) string {
	t.Helper()
	got := escape(in)
	if got != want {
		t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
	}
	if Unsafe(got) {
		t.Errorf("%s(%q) = %q is still unsafe", name, in, got)
	}
	return got
}
