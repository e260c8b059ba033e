package parse_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/parse"
)

// outline is a file's symbol tree, one symbol a line: indent, kind, name,
// lines, and its modifiers and JSDoc when it has them.
func outline(f *parse.File) string {
	var b strings.Builder
	var walk func([]*parse.Symbol)
	walk = func(ss []*parse.Symbol) {
		for _, s := range ss {
			fmt.Fprintf(&b, "%s%s %s %d-%d", strings.Repeat("  ", s.Depth), s.Kind, s.Name, s.StartLine, s.EndLine)
			if len(s.Modifiers) > 0 {
				fmt.Fprintf(&b, " [%s]", strings.Join(s.Modifiers, " "))
			}
			if s.Exported {
				b.WriteString(" exported")
			}
			if s.JSDoc != "" {
				fmt.Fprintf(&b, " doc=%q", s.JSDoc)
			}
			b.WriteByte('\n')
			walk(s.Children)
		}
	}
	walk(f.Symbols)
	return b.String()
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            string
		errors          bool // tree-sitter could not read all of it
	}{
		{name: "typescript", path: "a.ts", src: `import { hmac } from './crypto';

/** Validates tokens. */
export class TokenService extends Base implements Checker {
  private readonly secret: string;
  constructor(secret: string) { super(); this.secret = secret; }
  async validate(token: string): Promise<boolean> {
    return hmac(token) === this.secret;
  }
  get size(): number { return 1; }
}

export interface Checker { validate(token: string): Promise<boolean>; }
export type Id = string;
export enum Role { Admin, User }
export const MAX = 3;
console.log(MAX);
`, want: `import import:./crypto 1-1
class TokenService 3-11 [exported] exported doc="Validates tokens."
  property secret 5-5 [private readonly]
  constructor constructor 6-6
  method validate 7-9 [async]
  getter size 10-10 [getter]
interface Checker 13-13 [exported] exported
  method validate 13-13 [signature]
type Id 14-14 [exported] exported
enum Role 15-15 [exported] exported
  enum-member Admin, User 15-15
const MAX 16-16 [exported] exported
expression console.log(MAX) 17-17
`},
		{name: "tsx", path: "b.tsx", src: `export function Button(props: { label: string }) {
  return <button onClick={() => alert(props.label)}>{props.label}</button>;
}
`, want: "component Button 1-3 [exported] exported\n"},
		{name: "javascript", path: "c.js", src: `const path = require('path');
module.exports = function join(a, b) { return path.join(a, b); };
export default class café {}
`, want: `import import:path 1-1
function join 2-2 [exported] exported
class café 3-3 [exported default] exported
`},
		{name: "each declarator named, destructuring included", path: "e.ts", src: `export const A = 1, B = 2;
export const { alpha, beta: renamed, gamma = compute(delta), ...restOf } = source;
const [first, , second = other, ...others] = pair;
let { nested: { inner } } = deep;
`, want: `const A, B 1-1 [exported] exported
const alpha, renamed, gamma, restOf 2-2 [exported] exported
const first, second, others 3-3
variable inner 4-4
`},
		{name: "what the grammar cannot finish on a declaration's line stays that declaration", path: "f.ts", src: `declare const HOOK: { inject: (any) => void }
declare module 'legacy';
const a = 1;;
`, errors: true, want: `const HOOK 1-1 [declare]
module 'legacy' 2-2 [declare]
const a 3-3
`},
		{name: "functions assigned to a name at the root are definitions", path: "g.js", src: `/** Adds a job. */
Queue.prototype.push = function (job) {
  this.jobs.push(job);
};
Queue.create = () => new Queue();
Queue.Worker = class {};
handlers['drain'] = function () {
  return null;
};
`, want: `function Queue.prototype.push 1-4 doc="Adds a job."
function Queue.create 5-5
class Queue.Worker 6-6
expression handlers['drain'] = function () { 7-9
  function handlers['drain'] 7-9
`},
		{name: "generic call signatures a line break separates", path: "h.ts", src: `export interface Handler<E> {
  // app.get(handler)
  <P extends string>(handler: H<E, P>): Hono<
    E
  >

  // app.get(path, handler)
  <P extends string, I>(path: P, handler: H<E, P, I>): Hono<E>
  <P>(path: P): Hono<E> // no semicolon either
}
`, want: `interface Handler 1-10 [exported] exported
  call-signature () 3-5
  call-signature () 8-8
  call-signature () 9-9
`},
		{name: "a signature whose error begins on the member before", path: "j.ts", src: `export interface Sliced<D> {
  selector: {
    <S extends (state: D) => unknown>(fn: S): (
      state: D
    ) => ReturnType<S>

    /**
     * With the state picked from a root state.
     */
    <
      S extends (state: D) => unknown,
      R,
    >(
      fn: S,
      pick: (root: R) => D,
    ): (
      state: R
    ) => ReturnType<S>
  }
}
`, want: `interface Sliced 1-20 [exported] exported
  property selector 2-19 [signature]
`},
		{name: "a comparison broken over lines is no signature", path: "i.ts", src: `export interface Broken {
  <T>(x: T): T
  <T>(x: T, y: T): T
}
export function lessThan(a: number, b: number) {
  return a
    < b;
}
`, want: `interface Broken 1-4 [exported] exported
  call-signature () 2-2
  call-signature () 3-3
function lessThan 5-8 [exported] exported
`},
		{name: "variance annotations", path: "v.ts", src: `export interface Store<in out T> {
  get(): T
}
export class Route<
  in out TParent extends object,
  out TPath = string,
> {
  path?: TPath
}
`, want: `interface Store 1-3 [exported] exported
  method get 2-2 [signature]
class Route 4-9 [exported] exported
  property path 8-8
`},
		{name: "type-only star exports", path: "index.ts", src: `export type * from './types'
export type * as shapes from './shapes'
export function area(): number { return 1 }
`, want: `re-export re-export:./types 1-1 exported
re-export re-export:./shapes 2-2 exported
function area 3-3 [exported] exported
`},
		{name: "import types with arguments", path: "types.d.ts", src: `export type Context<S = State> = import('zimmerframe').Context<
  Node,
  S
>;
export interface Descriptor {
  scriptAst?: import('@babel/types').Statement[]
}
`, want: `type Context 1-4 [exported] exported
interface Descriptor 5-7 [exported] exported
  property scriptAst 6-6 [signature]
`},
		{name: "members named in after members without semicolons", path: "filters.ts", src: `export type StringFilter<M = never> = {
  equals?: string | Ref<M>
  in?: string[]
  notIn?: string[]
}
export interface SVGAttributes {
  href?: string | undefined
  in2?: string | undefined
}
`, want: `type StringFilter 1-5 [exported] exported
interface SVGAttributes 6-9 [exported] exported
  property href 7-7 [signature]
  property in2 8-8 [signature]
`},
		{name: "reserved words as export names", path: "index.js", src: `export { if_block as if, each as const } from './blocks.js';
export function mount() {}
`, want: `re-export re-export:./blocks.js 1-1 exported
function mount 2-2 [exported] exported
`},
		{name: "a named function expression outside a call is a function", path: "slice.ts", src: `export function buildCreateSlice() {
  return function createSlice(options: string) {
    return items.map(function toEntry(item) {
      return [item, options];
    });
  };
}
`, want: `function buildCreateSlice 1-7 [exported] exported
  function createSlice 2-6
    callback toEntry 3-5
`},
		{name: "syntax error still covers every line", path: "d.ts", src: `export function ok(): number { return 1; }
export function broken( { return
const after = 2;
`, errors: true, want: `function ok 1-1 [exported] exported
expression export function broken( { return 2-3
`},
	}
	for _, tt := range tests {
		f, err := parse.Parse(tt.path, []byte(tt.src), "")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := outline(f); got != tt.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
		if (f.ErrorNodes > 0) != tt.errors {
			t.Errorf("%s: %d error nodes", tt.name, f.ErrorNodes)
		}
	}
}

func TestImports(t *testing.T) {
	f, err := parse.Parse("a.ts", []byte("import def, { a as b, c } from './m';\nimport * as ns from 'pkg';\nconst r = require('lib');\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, im := range f.Imports {
		got = append(got, fmt.Sprintf("%s %v %d", im.Module, im.Names, im.StartLine))
	}
	want := []string{"./m [def b c] 1", "pkg [ns] 2", "lib [r] 3"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("imports %q, want %q", got, want)
	}
}

func TestLanguageOf(t *testing.T) {
	tests := map[string]string{
		"a.ts": parse.LangTypeScript, "a.mts": parse.LangTypeScript, "a.d.ts": parse.LangTypeScript, "A.TS": parse.LangTypeScript,
		"a.tsx": parse.LangTSX, "a.js": parse.LangJavaScript, "a.jsx": parse.LangJavaScript, "a.cjs": parse.LangJavaScript,
		"a.json": "", "a.vue": "", "Makefile": "",
	}
	for path, want := range tests {
		if got := parse.LanguageOf(path); got != want {
			t.Errorf("LanguageOf(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestLineStarts: a parsed file's LineStarts are its source's, also for a
// file large enough to be parsed in pieces, and with any line endings.
func TestLineStarts(t *testing.T) {
	fn := func(i int, eol string) string {
		return fmt.Sprintf("export function f%d(a: number): number {%s  return a + %d;%s}%s", i, eol, i, eol, eol)
	}
	big := func(eol string) string {
		var b strings.Builder
		for i := 0; b.Len() < 3<<20; i++ {
			b.WriteString(fn(i, eol))
		}
		return b.String()
	}
	for _, tt := range []struct{ name, src string }{
		{"empty", ""},
		{"small", fn(1, "\n") + "const x = 1"},
		{"CRLF and CR", fn(1, "\r\n") + fn(2, "\r") + fn(3, "\n")},
		{"pieces", big("\n")},
		{"pieces CRLF", big("\r\n") + "\rlet y = 2;\r"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parse.Parse("a.ts", []byte(tt.src), "")
			if err != nil {
				t.Fatal(err)
			}
			if want := lines.Starts([]byte(tt.src)); !slices.Equal(f.LineStarts, want) {
				t.Errorf("LineStarts: %d starts, want %d", len(f.LineStarts), len(want))
			}
		})
	}
}
