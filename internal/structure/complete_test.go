package structure_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/testkit"
)

// sites lists references as "file:line" in their order.
func sites(r *structure.References) string {
	var out []string
	for _, s := range r.Sites {
		out = append(out, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	return strings.Join(out, " ")
}

// TestReferencesIncludeImportsAndReExports: a rename guided by the
// references must see every import, re-export, use through an `export *`
// barrel, type position and JSX element, not only the calls.
func TestReferencesIncludeImportsAndReExports(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true,"jsx":"preserve"},"include":["**/*.ts","**/*.tsx"]}`,
		"a.ts": "export function helper(x: number): number {\n  return x + 1;\n}\n" +
			"export interface Opts { n: number }\n" +
			"export function Button(p: { label: string }) { return null as any; }\n",
		"b.ts":      "import { helper } from './a';\n\nexport function useIt() {\n  return helper(2);\n}\n",
		"index.ts":  "export { helper } from './a';\nexport { helper as plusOne } from './a';\n",
		"barrel.ts": "export * from './a';\n",
		"d.ts":      "import { helper as h, type Opts } from './barrel';\nexport const v = h(3);\nexport function take(o: Opts): Opts { return o; }\n",
		"e.tsx":     "import { Button } from './a';\nexport const el = <Button label=\"x\" />;\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	for _, tc := range []struct {
		file, decl, name, want string
	}{
		// b.ts: the import and the call; d.ts: the renamed import through
		// the barrel (once) and the call; index.ts: both re-exports.
		{"a.ts", "function helper", "helper", "b.ts:1 b.ts:4 d.ts:1 d.ts:2 index.ts:1 index.ts:2"},
		{"a.ts", "interface Opts", "Opts", "d.ts:1 d.ts:3 d.ts:3"},
		{"a.ts", "function Button", "Button", "e.tsx:1 e.tsx:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := query{File: tc.file, Decl: tc.decl, Symbol: tc.name}
			md, err := res.Metadata(context.Background(), targetOf(t, root, q), structure.Options{Sections: structure.SecReferences})
			if err != nil {
				t.Fatal(err)
			}
			if got := sites(md.References); got != tc.want {
				t.Errorf("references of %s = %s\nwant %s", tc.name, got, tc.want)
			}
			if md.References.Count != len(md.References.Sites) {
				t.Errorf("count %d for %d sites", md.References.Count, len(md.References.Sites))
			}
		})
	}
}

// TestTypeTextFromOutsideTheRootIsWithheld: a constant imported from a file
// outside the workspace root must not print its value through the literal
// type the compiler infers for a declaration inside it; a literal the
// declaration's own file holds is still printed.
func TestTypeTextFromOutsideTheRootIsWithheld(t *testing.T) {
	base := testkit.Tree(t, map[string]string{
		"other/src/secrets.ts": "export const API_KEY = \"sk-live-4f9a1c\";\nexport const PORT = 48151;\n",
		"ws/app/tsconfig.json": `{"compilerOptions":{"strict":true},"include":["**/*.ts"]}`,
		"ws/app/src/k.ts": "import { API_KEY, PORT } from \"../../../other/src/secrets\";\n" +
			"export const k = API_KEY;\nexport const port = PORT;\nexport const local = \"visible-here\";\n" +
			"export function key() { return API_KEY; }\n",
	})
	root := filepath.Join(base, "ws", "app")
	res := structure.NewCompiler(startServer(t, root))
	for _, tc := range []struct {
		decl, name, want string
	}{
		{"const k", "k", "string"},
		{"const port", "port", "number"},
		{"function key", "key", "string"},
		{"const local", "local", `"visible-here"`},
	} {
		q := query{File: "src/k.ts", Decl: tc.decl, Symbol: tc.name}
		md, err := res.Metadata(context.Background(), targetOf(t, root, q), structure.Options{Sections: structure.SecSignature | structure.SecTypeFlows})
		if err != nil {
			t.Fatal(err)
		}
		text := encode(t, md)
		for _, secret := range []string{"sk-live-4f9a1c", "48151"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s: the value %q from outside the root is printed:\n%s", tc.name, secret, text)
			}
		}
		if !strings.Contains(md.Signature, tc.want) {
			t.Errorf("%s: signature %q, want it to show %s", tc.name, md.Signature, tc.want)
		}
	}
}

// TestCallersInAnonymousFunctionsAreNamed: the compiler gives calls inside
// unbound anonymous functions to the file's top level; three `perform`
// arrows calling the same function must read as three callers, named by
// what holds them and at their own lines, not one "(top level)".
func TestCallersInAnonymousFunctionsAreNamed(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true},"include":["*.ts"]}`,
		"run.ts":        "export function run(n: number): number {\n  return n;\n}\n",
		"tasks.ts": "import { run } from './run';\n\n" +
			"export const tasks = [\n" +
			"  { name: 'a', perform: () => run(1) },\n" +
			"  {\n    name: 'b',\n    perform: () => {\n      return run(2);\n    },\n  },\n];\n" +
			"export const other = { perform: async (x: number): Promise<number> => run(x), skip: 1 };\n" +
			"run(4);\n" +
			"export const handler = function () { return run(5); };\n" +
			"[1].map(() => run(7));\n" +
			"export const obj = { method(a: number) { if (a) { return run(a); } return 0; } };\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	md, err := res.Metadata(context.Background(), targetOf(t, root, query{File: "run.ts", Decl: "function run", Symbol: "run"}), structure.Options{Sections: structure.SecIncoming})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range md.IncomingCallers {
		got = append(got, fmt.Sprintf("%s@%d%v", c.QualifiedName(), c.Line, c.CallSites))
	}
	want := "tasks.perform@4[4] tasks.perform@7[8] other.perform@12[12] (top level)@13[13] handler@14[14] map() callback@15[15] obj.method@16[16]"
	if strings.Join(got, " ") != want {
		t.Errorf("callers of run:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestOverloadedCalleeListedOnce: calls that resolve to different overload
// signatures of one function (a package's `timer`) are calls of one
// function, listed once with all their sites. A call in a nested function
// is resolved by definition, which names every signature of an overloaded
// function: `timer` was listed four times.
func TestOverloadedCalleeListedOnce(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json":                         `{"compilerOptions":{"strict":true,"moduleResolution":"bundler","module":"esnext"},"include":["*.ts"]}`,
		"node_modules/fake-timers/package.json": `{"name":"fake-timers","version":"1.0.0","types":"index.d.ts"}`,
		"node_modules/fake-timers/index.d.ts": "export declare function timer(due: number): number;\n" +
			"export declare function timer(due: Date): number;\n" +
			"export declare function timer(due: number, period: number): number;\n" +
			"export declare function timer(due: string, period: number, label: string): number;\n",
		"poll.ts": "import { timer } from 'fake-timers';\nimport { local } from './local';\n\n" +
			"export function poll(): number {\n  return timer(1) + timer(new Date()) + timer(1, 2) + timer('a', 2, 'b') + local(1) + local('x');\n}\n" +
			"export function later(): number[] {\n  return [\n    [1].map(() => timer(1)),\n    [1].map(() => timer(new Date())),\n    [1].map(() => timer(1, 2)),\n    [1].map(() => local(1) + local('x')),\n  ].flat();\n}\n" +
			// Calls in a nested function are found by reading the body
			// and resolved one by one: to every signature of an
			// overloaded function.
			"export function retry(d: number): number {\n  const again = (): number => timer(d) + local(d);\n  return again();\n}\n",
		"bus.ts": "export class Bus {\n  /** a */\n  on(e: 'a', f: () => void): void;\n  /** @deprecated */\n  on(e: 'b', f: () => void): void;\n  on(e: string, f: () => void): void {}\n}\n" +
			"export function wire(b: Bus): void {\n  b.on('a', () => {});\n  b.on('b', () => {});\n  [b].forEach((x) => x.on('a', () => {}));\n}\n",
		// A property typed by an interface with call signatures (hono's
		// SetHeaders): a call to it resolves to a signature, which has no
		// name of its own.
		// An interface's method, which the compiler gives no container.
		"driver.ts": "export interface Driver {\n  connect(): Promise<void>\n}\n" +
			"export async function init(d: Driver): Promise<void> {\n  await d.connect()\n}\n",
		"ctx.ts": "interface SetHeaders {\n  (name: 'a', value?: string): void\n  (name: string, value?: string): void\n}\n" +
			"export class Ctx {\n  #r?: () => void\n  header: SetHeaders = (name: string, value?: string): void => {}\n" +
			"  send = (): void => {\n    this.#r ??= () => this.header('a', 'b')\n  }\n}\n",
		"local.ts": "export function local(a: number): number;\nexport function local(a: string): number;\n" +
			"export function local(a: number | string): number {\n  return Number(a);\n}\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	nameSites := func(c structure.OutgoingCall) string { return fmt.Sprintf("%s%v", c.Name, c.CallSites) }
	tests := []struct {
		q    query
		show func(structure.OutgoingCall) string
		want string
	}{
		{query{File: "poll.ts", Decl: "function poll", Symbol: "poll"}, nameSites, "timer[5] local[5]"},
		// Calls in callbacks, which the call hierarchy leaves out and which
		// are resolved one by one, each to its overload signature.
		{query{File: "poll.ts", Decl: "function later", Symbol: "later"}, nameSites, "timer[9 10 11] local[12]"},
		{query{File: "poll.ts", Decl: "function retry", Symbol: "retry"},
			func(c structure.OutgoingCall) string { return fmt.Sprintf("%s:%d%v", c.Name, c.Line, c.CallSites) },
			"timer:1[16] local:3[16] again:16[17]"},
		{query{File: "bus.ts", Decl: "function wire", Symbol: "wire"},
			func(c structure.OutgoingCall) string { return fmt.Sprintf("%s%v", c.QualifiedName(), c.CallSites) },
			"Bus.on[9 10 11]"},
		{query{File: "driver.ts", Decl: "async function init", Symbol: "init"},
			func(c structure.OutgoingCall) string { return c.QualifiedName() },
			"Driver.connect"},
		{query{File: "ctx.ts", Decl: "class Ctx", Symbol: "Ctx"},
			func(c structure.OutgoingCall) string { return c.QualifiedName() },
			"SetHeaders call signature"},
	}
	for _, tt := range tests {
		md, err := res.Metadata(context.Background(), targetOf(t, root, tt.q), structure.Options{Sections: structure.SecOutgoing})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range md.OutgoingCalls {
			got = append(got, tt.show(c))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("calls of %s = %s, want %s", tt.q.Symbol, strings.Join(got, " "), tt.want)
		}
	}
}

// TestCallsIntoAnUninstalledPackage: without node_modules the compiler
// resolves a call to an imported function to the import in the calling
// file, as if that file declared it; the call is the package's.
func TestCallsIntoAnUninstalledPackage(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true,"moduleResolution":"bundler","module":"esnext","allowJs":true,"types":[]},"include":["*.ts","*.js"]}`,
		"store.ts": "import {\n  isPlainObject,\n  combineReducers as combine,\n} from 'redux';\nimport { local } from './local';\n\n" +
			"export function configure(r: unknown): unknown {\n  if (isPlainObject(r)) {\n    return combine(r as any);\n  }\n  return local(r);\n}\n",
		"local.ts":  "export function local(r: unknown): unknown {\n  return r;\n}\n",
		"bus.ts":    "import { EventEmitter } from 'events';\n\nexport class Bus extends EventEmitter {\n  ping(): void {}\n}\n",
		"runner.js": "'use strict';\nvar EventEmitter = require(\"node:events\").EventEmitter;\n\nclass Runner extends EventEmitter {\n  run() {}\n}\n\nmodule.exports = Runner;\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	md, err := res.Metadata(context.Background(), targetOf(t, root, query{File: "store.ts", Decl: "function configure", Symbol: "configure"}), structure.Options{Sections: structure.SecOutgoing})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range md.OutgoingCalls {
		got = append(got, fmt.Sprintf("%s (%s) external=%v", c.Name, c.Where(), c.External))
	}
	want := []string{"isPlainObject (redux) external=true", "combine (redux) external=true", "local (local.ts) external=false"}
	if !slices.Equal(got, want) {
		t.Errorf("calls of configure:\n got %q\nwant %q", got, want)
	}
	// A supertype from an uninstalled package, imported or required (mocha's
	// `var EventEmitter = require("node:events").EventEmitter`), is the
	// package's, not the line that brings it in.
	for _, tc := range []struct{ file, decl, want string }{
		{"bus.ts", "class Bus", "EventEmitter (events)"},
		{"runner.js", "class Runner", "EventEmitter (node:events)"},
	} {
		md, err := res.Metadata(context.Background(), targetOf(t, root, query{File: tc.file, Decl: tc.decl, Symbol: strings.Fields(tc.decl)[1]}), structure.Options{Sections: structure.SecHierarchy})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if h := md.TypeHierarchy; h != nil && h.Extends != nil {
			got = fmt.Sprintf("%s (%s)", h.Extends.Name, h.Extends.Where())
		}
		if got != tc.want {
			t.Errorf("%s extends %q, want %q", tc.decl, got, tc.want)
		}
	}
}

// TestCalleesThatStartWithoutAName: the compiler can point a call at a
// definition with no name of its own, and at more declarations than the
// one called. A function assigned to a property is named by the property
// (router's buildAndCommitLocation = ({ … }) => …, which printed as an
// empty name), and a call the TypeScript library declares is the
// platform's even where a declaration file in the tree redeclares the
// global (console.warn resolved to five examples' worker-configuration.d.ts
// as well).
func TestCalleesThatStartWithoutAName(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json":                      `{"compilerOptions":{"strict":true,"lib":["es2022","dom"]},"include":["*.ts","examples/*.d.ts"]}`,
		"examples/worker-configuration.d.ts": "interface Console {\n  warn(...data: any[]): void;\n}\ndeclare var console: Console;\n",
		"router.ts": "export class Router {\n" +
			"  commit = ({ replace }: { replace: boolean }): boolean => {\n    return replace\n  }\n" +
			"  navigate = async (to: string): Promise<boolean> => {\n" +
			"    if (!to) console.warn('no destination')\n" +
			"    return [to].map(() => this.commit({ replace: true }))[0]\n  }\n}\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	q := query{File: "router.ts", Decl: "navigate = async", Symbol: "navigate"}
	md, err := res.Metadata(context.Background(), targetOf(t, root, q), structure.Options{Sections: structure.SecOutgoing})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range md.OutgoingCalls {
		got = append(got, fmt.Sprintf("%s:%d", c.QualifiedName(), c.Line))
	}
	if want := "Router.commit:2"; strings.Join(got, " ") != want {
		t.Errorf("calls of navigate = %q, want %q", strings.Join(got, " "), want)
	}
}

// TestTypeFlowsOfClassTypeParameters: a method's types that are its
// class's type parameters flow from nowhere in particular (typeorm's
// SelectQueryBuilder<Entity>.getMany(): Promise<Entity[]> named a test's
// class Entity as the type out), and a type imported from an uninstalled
// package is that package's.
func TestTypeFlowsOfClassTypeParameters(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true,"moduleResolution":"bundler","module":"esnext","types":[]},"include":["*.ts","test/*.ts"]}`,
		"builder.ts": "import type { Money } from 'money-lib';\n\nexport class Builder<Entity> {\n  private rows: Entity[] = [];\n" +
			"  async getMany(): Promise<Entity[]> {\n    return this.rows;\n  }\n  price(m: Money): Money {\n    return m;\n  }\n}\n",
		"test/entity.ts": "export class Entity {\n  id = 1;\n}\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	flows := func(decl, symbol string) string {
		t.Helper()
		md, err := res.Metadata(context.Background(), targetOf(t, root, query{File: "builder.ts", Decl: decl, Symbol: symbol}), structure.Options{Sections: structure.SecTypeFlows})
		if err != nil {
			t.Fatal(err)
		}
		if md.TypeFlows == nil {
			return ""
		}
		where := func(r structure.TypeRef) string {
			if r.External {
				return r.Package
			}
			return r.File
		}
		var out []string
		for _, p := range md.TypeFlows.Parameters {
			for _, r := range p.Types {
				out = append(out, fmt.Sprintf("in %s (%s)", r.Name, where(r)))
			}
		}
		if md.TypeFlows.Returns != nil {
			for _, r := range md.TypeFlows.Returns.Types {
				out = append(out, fmt.Sprintf("out %s (%s)", r.Name, where(r)))
			}
		}
		return strings.Join(out, ", ")
	}
	if got := flows("async getMany", "getMany"); got != "" {
		t.Errorf("getMany's type flows = %q, want none (Entity is the class's type parameter)", got)
	}
	if got, want := flows("price(m", "price"), "in Money (money-lib), out Money (money-lib)"; got != want {
		t.Errorf("price's type flows = %q, want %q", got, want)
	}
}

// TestCallTreeCutSaysHowMuchIsLeftOut: a tree cut at its node budget must
// say so, with the number of calls it does not list. The cut list of
// typeorm's `EntityManager.save` (748 callers, 500 listed) read as
// complete.
func TestCallTreeCutSaysHowMuchIsLeftOut(t *testing.T) {
	var callers strings.Builder
	callers.WriteString("import { target } from './target';\n")
	for i := range 7 {
		fmt.Fprintf(&callers, "export function caller%d(): number { return target(); }\n", i)
	}
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true},"include":["*.ts"]}`,
		"target.ts":     "export function target(): number {\n  return 1;\n}\n",
		"callers.ts":    callers.String(),
	})
	res := structure.NewCompiler(startServer(t, root))
	tg := targetOf(t, root, query{File: "target.ts", Decl: "function target", Symbol: "target"})
	for _, tc := range []struct {
		budget, listed int
		note           string
	}{
		{budget: 3, listed: 3, note: "call tree cut at 3 nodes: 4 more calls not listed"},
		{budget: 7, listed: 7},
	} {
		md, err := res.Metadata(context.Background(), tg, structure.Options{Sections: structure.SecIncoming, MaxCallNodes: tc.budget})
		if err != nil {
			t.Fatal(err)
		}
		if len(md.IncomingCallers) != tc.listed {
			t.Errorf("budget %d: %d callers listed, want %d", tc.budget, len(md.IncomingCallers), tc.listed)
		}
		var cut []string
		for _, n := range md.Notes {
			if strings.HasPrefix(n, "call tree cut") {
				cut = append(cut, n)
			}
		}
		switch {
		case tc.note == "" && len(cut) > 0:
			t.Errorf("budget %d: a whole tree noted as cut: %q", tc.budget, cut)
		case tc.note != "" && (len(cut) != 1 || !strings.HasPrefix(cut[0], tc.note)):
			t.Errorf("budget %d: notes %q, want one opening %q", tc.budget, md.Notes, tc.note)
		}
	}
}
