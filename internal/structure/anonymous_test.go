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
		// A variable's type annotation is not its name.
		{"const cb1: SchedulerJob = () => { CALL }", "cb1"},
		{"let run: Map<string, (a: number) => void> = (a) => CALL", "run"},
		{"const f = () => CALL", "f"},
		{"const g: (a: number) => void = (a) => { CALL }", "g"},
		{"x = { y: 1 }; z = () => CALL", "z"},
		// An arrow whose block closed before the site holds no call
		// there, though no semicolon ends it.
		{"it('t', () => {\n  const cb1 = () => {\n    go()\n  }\n  CALL\n})", "it('t') callback"},
		{"const cb1 = () => {\n  go()\n}\nCALL", ""},
		// A function type in an annotation is no function around the
		// site, in code without semicolons.
		{"it('t', async () => {\n  let done!: () => void\n  go()\n  CALL\n})", "it('t') callback"},
		{"let done: () => void\nCALL", ""},
		{"class A {\n  private run?: () => void\n  m() { CALL }\n}", "m"},
		{"x = { a: 1, cb: () => CALL }", "cb"},
		{"x = ok ? y : () => CALL", "(anonymous function)"},
		// A callback is named as the chunker names it: its callee with the
		// short argument lists along it, and a test's or suite's title.
		// `it.each(table)(…)` had been "(anonymous function)".
		{"it.each([\n  'a', // one\n  'b',\n])('getPath - %s', (url) => { CALL })", "it.each(…)('getPath - %s') callback"},
		{"describe.each([1, 2])('n', (n) => { CALL })", "describe.each([1, 2])('n') callback"},
		{"fetch(url).then((res) => CALL)", "fetch(url).then() callback"},
		{"[1].map(() => CALL)", "map() callback"},
		{"fetch(url)?.then((res) => CALL)", "fetch(url)?.then() callback"},
		{"(a || b)(() => CALL)", "(anonymous function)"},
		{"it(`t ${n}`, () => { CALL })", "it() callback"},
		{"test('a title longer than forty bytes, which is clipped', () => CALL)", "test('a title longer than forty bytes, which …) callback"},
		{"on(\"click\", () => CALL)", "on(\"click\") callback"},
		{"this.server.routes.register.handlers.onRequest.add((r) => CALL)", "this.server.routes.register.handlers.onR…() callback"},
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

// TestAliasInit: what follows a variable's name when it only names a
// declaration again, and when it builds a value.
func TestAliasInit(t *testing.T) {
	for _, tc := range []struct {
		rest string
		want bool
	}{
		{" = require('./runnable');\nclass Hook {}", true},
		{" = require(\"./runnable.js\")\n", true},
		{" = Mocha.Runnable; // the class\n", true},
		{" = require('./runnable.js').Runnable;", true},
		{": Foo = {\n  run() {}\n};", false},
		{" = class extends Base {};", false},
		{" = make(Runnable);", false},
	} {
		if got := aliasInit.MatchString(tc.rest); got != tc.want {
			t.Errorf("%q: alias %v, want %v", tc.rest, got, tc.want)
		}
	}
}
