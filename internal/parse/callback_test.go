package parse_test

import (
	"slices"
	"strings"
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

// TestObjectLiteralMethods: a method written in an object literal is a
// symbol wherever the object is, as a function-valued key beside it is:
// an options object passed to a call (Vue's `setup`, `methods`), a nested
// object (redux-toolkit's `reducers: { add(state) {…} }`, which listed
// `remove: (state) => {…}` but not `add`), a handler object (`new Proxy(t,
// { get(…) {…} })`, whose nested `fn` had been its grandparent's child).
// One-line methods stay part of their statement, as one-line callbacks do.
func TestObjectLiteralMethods(t *testing.T) {
	src := `export default defineComponent({
  setup(props) {
    const a = 1;
    return { a };
  },
  methods: {
    save() {
      this.a++;
      log(1);
    },
    get size() {
      return this.items.length;
    },
    short() { return 1; },
  },
});

const slice = createSlice({
  reducers: {
    add(state, action) {
      state.push(action.payload);
    },
    remove: (state, action) => {
      state.splice(action.payload, 1);
    },
  },
});

function make(T) {
  return new Proxy(T, {
    get(target, prop) {
      const fn = (...args) => call(target, s => {
        return s[prop](...args);
      });
      return fn;
    },
  });
}

class Store {
  load() {
    return fetch(this.url);
  }
}
`
	f, err := parse.Parse("a.ts", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var walk func(prefix string, syms []*parse.Symbol)
	walk = func(prefix string, syms []*parse.Symbol) {
		for _, s := range syms {
			if s.Kind == parse.KindComment || s.Kind == parse.KindStatement {
				continue
			}
			got = append(got, prefix+s.Name+":"+s.Kind)
			walk(prefix+s.Name+" > ", s.Children)
		}
	}
	walk("", f.Symbols)
	want := []string{
		"default:expression", "default > setup:method", "default > save:method", "default > size:getter",
		"slice:const", "slice > add:method", "slice > remove:method",
		"make:function", "make > get:method", "make > get > fn:function", "make > get > fn > call() callback:callback",
		"Store:class", "Store > load:method",
	}
	if !slices.Equal(got, want) {
		t.Errorf("symbols:\n got %q\nwant %q", got, want)
	}
}

// TestObjectLiteralMethodsInTests: in a test, an object literal's methods
// are a mock's or a fixture's (`read(existing) {…}` in a cache policy under
// test), part of the test that holds them, as they were: apollo-client's
// tests held 461 such methods, which took the first stage's places from
// the code's candidates.
func TestObjectLiteralMethodsInTests(t *testing.T) {
	src := "it('reads', () => {\n  const cache = new Cache({\n    read(existing) {\n      return existing;\n    },\n  });\n  expect(cache).toBeDefined();\n});\n"
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"src/cache.test.ts", false},
		{"src/__tests__/cache.ts", false},
		{"src/cache.ts", true},
	} {
		f, err := parse.Parse(tc.path, []byte(src), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(names(f.Symbols), "read"); got != tc.want {
			t.Errorf("%s: read a symbol: %v, want %v (names %q)", tc.path, got, tc.want, names(f.Symbols))
		}
	}
}

// TestCommonJSModules: CommonJS says import and re-export with require.
// mocha's `exports.Runnable = require("./runnable.js").Runnable` was a
// variable, so `scry importers lib/runnable.js` left lib/mocha.cjs out;
// `require('debug')('mocha:runner')` and a member of a required module
// were variables too, and a bare `require('./setup')` a statement.
func TestCommonJSModules(t *testing.T) {
	src := "const path = require('path');\n" +
		"var debug = require('debug')('mocha:runner');\n" +
		"var Runnable = require('./runnable.js').Runnable;\n" +
		"require('./setup');\n" +
		"exports.Runner = require('./runner.cjs');\n" +
		"module.exports.Hook = require('./hook.js').Hook;\n" +
		"exports.run = function run() {\n  return path.join('a', 'b');\n};\n" +
		"const made = make(require('./x'));\n"
	f, err := parse.Parse("lib/mocha.cjs", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range f.Symbols {
		got = append(got, s.Kind+" "+s.Name)
	}
	want := []string{"import import:path", "import import:debug", "import import:./runnable.js", "import import:./setup",
		"re-export re-export:./runner.cjs", "re-export re-export:./hook.js", "function run", "const made"}
	if !slices.Equal(got, want) {
		t.Errorf("symbols:\n got %q\nwant %q", got, want)
	}
	var mods []string
	for _, im := range f.Imports {
		mods = append(mods, im.Module+" "+strings.Join(im.Names, ","))
	}
	if want := []string{"path path", "debug debug", "./runnable.js Runnable", "./setup "}; !slices.Equal(mods, want) {
		t.Errorf("imports %q, want %q", mods, want)
	}
}
