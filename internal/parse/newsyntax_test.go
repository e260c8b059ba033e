package parse

import "testing"

// TestBlankNewerSyntaxLeavesCodeAlone: what looks like newer syntax but is
// ordinary code, on a line an error reaches, is not rewritten.
func TestBlankNewerSyntaxLeavesCodeAlone(t *testing.T) {
	tests := []struct{ src, want string }{
		{src: "interface S<in out T, out U> {}", want: "interface S<       T,     U> {}"},
		{src: "export type * from './t'", want: "export      * from './t'"},
		{src: "type C = import('z').Context<A>", want: "type C =             Context<A>"},
		{src: "export { a as if, b as const }", want: "export { a as __, b as _____ }"},
		{src: "call(a, out as any)"},
		{src: "if (a < out == b) {}"},
		{src: "for (const k\n  in obj) {}"},
		{src: "const p = import('./x').then(m => m)"},
		{src: "export { a as default, b as iff }"},
		{src: "const t = typeof import('./x')"},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.src
		}
		got, n := blankNewerSyntax([]byte(tt.src), [][2]int{{0, len(tt.src)}})
		if string(got) != want {
			t.Errorf("blankNewerSyntax(%q) = %q, want %q", tt.src, got, want)
		}
		if (n > 0) != (tt.want != "") {
			t.Errorf("blankNewerSyntax(%q) counted %d changes", tt.src, n)
		}
	}
}
