package structure

import "testing"

func TestAnonymousAround(t *testing.T) {
	for _, tc := range []struct {
		src, want string // want: the name, or "" for none
	}{
		{"x = { perform: () => CALL }", "perform"},
		{"x = { a: () => y, b: CALL }", ""},
		{"list.forEach(function (v) { CALL })", "list.forEach() callback"},
		{"f(a, (v) => g(v, CALL))", "f() callback"},
		{"if (ok) { CALL }", ""},
		{"const h = function named() { CALL }", "named"},
		{"x = { 'quoted-key': () => CALL }", "quoted-key"},
		{"x = { p: async (v: T): Promise<Map<K, V>> => CALL }", "p"},
		{"x = { p: function (v): R { CALL } }", "p"},
	} {
		src := []byte(tc.src)
		toks := lex(src, 0, len(src))
		k := 0
		for k < len(toks) && toks[k].text(src) != "CALL" {
			k++
		}
		name, _, ok := anonymousAround(src, toks, k)
		if !ok {
			name = ""
		}
		if name != tc.want {
			t.Errorf("%s: %q, want %q", tc.src, name, tc.want)
		}
	}
}
