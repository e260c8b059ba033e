package search

import (
	"strings"
	"testing"
)

// proseParts runs splitProse and writes code as is, comments in [brackets]
// and strings' text in <angles>.
func proseParts(src string) string {
	var sb strings.Builder
	splitProse(src, func(part string, kind partKind) {
		switch kind {
		case codePart:
			sb.WriteString(part)
		case commentPart:
			sb.WriteString("[" + part + "]")
		case stringPart:
			sb.WriteString("<" + part + ">")
		}
	})
	return sb.String()
}

func TestSplitProse(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"code alone", "return retries(n) + 1", "return retries(n) + 1"},
		{"line comment", "x = 1 // retry later\ny()", "x = 1 [// retry later]\ny()"},
		{"block comment", "a /* the cache */ b", "a [/* the cache */] b"},
		{"JSDoc", "/** Saves it. */\nfunction save() {}", "[/** Saves it. */]\nfunction save() {}"},
		{"strings", `throw new Error("column missing: " + name, 'x')`, `throw new Error("<column missing: >" + name, '<x>')`},
		{"escaped quote", `s = "say \"hi\" now"; t`, `s = "<say \"hi\" now>"; t`},
		{"slash in a string is not a comment", `u = "http://x"; v`, `u = "<http://x>"; v`},
		{"quote in a comment", "// don't\nf()", "[// don't]\nf()"},
		{"template", "`table ${name} rows`", "`<table >${name}< rows>`"},
		{"template nests braces and templates", "`a ${ {k: `b ${c}`}.k } d`", "`<a >${ {k: `<b >${c}`}.k }< d>`"},
		{"division is code", "x = a / b / c", "x = a / b / c"},
		{"a regular expression's quotes open nothing", "s.replace(/['\"`]/g, '') + f(`t`)", "s.replace(/['\"`]/g, '') + f(`<t>`)"},
		{"a slash in a class does not close it", "if (/[/'\\]]/.test(p)) return 'x'", "if (/[/'\\]]/.test(p)) return '<x>'"},
		{"after return a slash opens a regular expression", "return /'/.test(s) ? 'a' : 'b'", "return /'/.test(s) ? '<a>' : '<b>'"},
		{"after an operand a slash divides", "n = total / count; m = 'x' / 2", "n = total / count; m = '<x>' / 2"},
		{"a regular expression never closed is a slash", "a = /'x\ny = 'z'", "a = /'<x>\ny = '<z>'"},
		{"unterminated comment runs to the end", "f() /* cut", "f() [/* cut]"},
		{"unterminated string stops at the line", "s = 'abc\ng()", "s = '<abc>\ng()"},
		{"unterminated template runs to the end", "`abc ${x", "`<abc >${x"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := proseParts(tt.src); got != tt.want {
				t.Errorf("splitProse(%q)\n got %q\nwant %q", tt.src, got, tt.want)
			}
		})
	}
}

// FuzzSplitProse checks that the parts always put the text back together,
// in order, and that no part is empty.
func FuzzSplitProse(f *testing.F) {
	for _, s := range []string{"a // b\nc", "`x ${`y ${z}`} w`", `"\"`, "/* ", "'\\", "${}}`", "x = /[`/]\\/", "return /"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var sb strings.Builder
		splitProse(src, func(part string, kind partKind) {
			if part == "" {
				t.Fatalf("empty part of %q", src)
			}
			sb.WriteString(part)
		})
		if sb.String() != src {
			t.Fatalf("parts of %q join to %q", src, sb.String())
		}
	})
}
