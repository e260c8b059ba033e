package parse_test

import (
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/parse"
)

// TestCallbackNames: a callback is named by its callee as it reads on one
// line, with the argument lists along the callee that run over a line or
// past 24 bytes shown as "(…)", and by the title a test or suite gives it.
// `it.each([…])('t', fn)` had been named by the first 40 bytes of its
// table, comments included; a chain written over lines kept its breaks as
// spaces (`app .route('/health') .get() callback`).
func TestCallbackNames(t *testing.T) {
	body := " => {\n  go()\n  go()\n})\n"
	tests := []struct {
		call string // the call, up to the callback's parameters
		want string
	}{
		{"items.forEach((v)", "items.forEach() callback"},
		{"describe('parser', ()", "describe('parser') callback"},
		{"it.each([\n  'a', // one\n  'b',\n])('getPath - %s', (url)", "it.each(…)('getPath - %s') callback"},
		{"describe.each([1, 2])('n', (n)", "describe.each([1, 2])('n') callback"},
		{"app\n  .route('/health')\n  .get((c)", "app.route('/health').get() callback"},
		{"tasks\n  .filter((t) => t.deps.includes(id))\n  .forEach((t)", "tasks.filter(…).forEach() callback"},
		{"fetch(url)\n  ?.then((res)", "fetch(url)?.then() callback"},
		{"searchProducts(debouncedQuery).then((r)", "searchProducts(debouncedQuery).then() callback"},
	}
	for _, tt := range tests {
		src := "function wrap() {\n" + tt.call + body + "}\n"
		f, err := parse.Parse("a.ts", []byte(src), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := names(f.Symbols); !slices.Contains(got, tt.want) {
			t.Errorf("%q: names %q, want one %q", tt.call, got, tt.want)
		}
	}
}
