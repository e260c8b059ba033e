package structure

import (
	"reflect"
	"strings"
	"testing"
)

func TestScanHeader(t *testing.T) {
	cases := []struct {
		src        string
		name       string
		typeParams []TypeParameter
		extends    []string
		implements []string
	}{
		{"class A {}", "A", nil, nil, nil},
		{"export abstract class Base<T extends object, ID = string> implements Entity, ns.Serializable<T> {", "Base",
			[]TypeParameter{{Name: "T", Constraint: "object"}, {Name: "ID", Default: "string"}}, nil, []string{"Entity", "ns.Serializable<T>"}},
		{"class R extends Container<{ a: string }> implements Q<(x: number) => boolean> {", "R",
			nil, []string{"Container<{ a: string }>"}, []string{"Q<(x: number) => boolean>"}},
		{"interface I<in out T, const U extends readonly unknown[] = []> extends A<T>, B /* { */ {", "I",
			[]TypeParameter{{Name: "T"}, {Name: "U", Constraint: "readonly unknown[]", Default: "[]"}}, []string{"A<T>", "B"}, nil},
		{"class M extends Mixin(Base) {", "M", nil, []string{"Mixin(Base)"}, nil},
		{"class G<T extends Map<string, Array<number>>>\n  extends Base\n  implements X {", "G",
			[]TypeParameter{{Name: "T", Constraint: "Map<string, Array<number>>"}}, []string{"Base"}, []string{"X"}},
	}
	for _, c := range cases {
		src := []byte(c.src)
		at := strings.Index(c.src, c.name+"<")
		if at < 0 {
			at = strings.Index(c.src, c.name+" ")
		}
		if at < 0 {
			at = strings.Index(c.src, c.name+"\n")
		}
		h := scanHeader(src, at+len(c.name))
		if !reflect.DeepEqual(h.typeParams, c.typeParams) {
			t.Errorf("%q: type params %+v, want %+v", c.src, h.typeParams, c.typeParams)
		}
		var ext, impl []string
		for _, x := range h.extends {
			ext = append(ext, x.written)
			if c.src[x.offset:x.offset+len(x.name)] != x.name {
				t.Errorf("%q: heritage %q offset points at %q", c.src, x.name, c.src[x.offset:])
			}
		}
		for _, x := range h.implements {
			impl = append(impl, x.written)
		}
		if !reflect.DeepEqual(ext, c.extends) || !reflect.DeepEqual(impl, c.implements) {
			t.Errorf("%q: extends %q implements %q, want %q %q", c.src, ext, impl, c.extends, c.implements)
		}
		if h.bodyStart < 0 || src[h.bodyStart] != '{' {
			t.Errorf("%q: body not found", c.src)
		}
	}
}

func TestParseSignature(t *testing.T) {
	cases := []struct {
		code, name string
		params     []sigParam
		returns    string
		typ        string
	}{
		{"function f(a: string, b?: Map<string, number>, ...rest: X[]): Promise<Y>", "f",
			[]sigParam{{name: "a", typ: "string"}, {name: "b", typ: "Map<string, number>", optional: true}, {name: "rest", typ: "X[]", rest: true}}, "Promise<Y>", ""},
		{"function g<T extends Entity>({ a, b }: Props<T>, cb: (x: T) => void): T (+2 overloads)", "g",
			[]sigParam{{name: "{ a, b }", typ: "Props<T>"}, {name: "cb", typ: "(x: T) => void"}}, "T", ""},
		{"const q: (order: Order) => Promise<Receipt>", "q", []sigParam{{name: "order", typ: "Order"}}, "Promise<Receipt>", ""},
		{"const v: Normalizer", "v", nil, "", "Normalizer"},
		{"constructor Receipt(orderId: string, status: ReceiptStatus): Receipt", "constructor",
			[]sigParam{{name: "orderId", typ: "string"}, {name: "status", typ: "ReceiptStatus"}}, "Receipt", ""},
		{"deposit(amount: number): this", "deposit", []sigParam{{name: "amount", typ: "number"}}, "this", ""},
		{"balance: number", "balance", nil, "", "number"},
		// A return type that is an object literal type, printed over lines
		// (eslint's Linter.verifyAndFix): the whole of it, not its brace.
		{"verifyAndFix(text: string): {\n    fixed: boolean;\n    output: string;\n}", "verifyAndFix",
			[]sigParam{{name: "text", typ: "string"}}, "{\n    fixed: boolean;\n    output: string;\n}", ""},
	}
	for _, c := range cases {
		ps := parseSignature(c.code, c.name)
		if !reflect.DeepEqual(ps.params, c.params) || ps.returns != c.returns || ps.typ != c.typ {
			t.Errorf("%q: params %+v returns %q type %q", c.code, ps.params, ps.returns, ps.typ)
		}
	}
	if ps := parseSignature("function g<T extends Entity>(a: T): T", "g"); !ps.typeParams["T"] {
		t.Error("type parameter T not collected")
	}
}

func TestTypeNames(t *testing.T) {
	cases := map[string][]string{
		"Promise<Receipt | null>":                   {"Promise", "Receipt"},
		"{ amount: number; currency?: Currency }":   {"Currency"},
		"(item: T, index: number) => api.Result<T>": {"api.Result"},
		"'paid' | \"refunded\" | `x${Kind}`":        {"Kind"},
		"readonly Order[]":                          {"Order"},
		"keyof typeof config":                       {"config"},
		"Map<string, Array<LineItem>>":              {"Map", "Array", "LineItem"},
	}
	for text, want := range cases {
		got := typeNames(text, map[string]bool{"T": true})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("typeNames(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestCallSitesAndModifiers(t *testing.T) {
	src := []byte("function f(a) {\n  if (x) { g(a); }\n  const s = `${h(1)} and ${'k(2)'}`; // m(3)\n  const r = /n(4)/g.test(s);\n  return new K() + id<T>(2) + tag`t` + a?.b(5);\n}")
	var got []string
	for _, cs := range callSites(src, 0, len(src)) {
		got = append(got, cs.name)
	}
	if want := []string{"g", "h", "test", "K", "id", "tag", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("callSites = %q, want %q", got, want)
	}
	// Signatures declare: an interface's overloads, an object's method,
	// a class member with modifiers. Calls stay calls, a conditional's and
	// a case's included.
	sigs := []byte("interface App {\n  component(name: string): C\n  component<T>(\n    name: string,\n    component: T,\n  ): this\n}\n" +
		"const o = { go(x) { return run(x) }, ok: check(1) }\n" +
		"class K { private static load(): void {} }\n" +
		"class L { get size() { return count(1) } async rows() { return fetchRow() } }\n" +
		"const v = ok ? pick(a) : pick(b)\nswitch (k) { case key(1): done() }\n")
	got = nil
	for _, cs := range callSites(sigs, 0, len(sigs)) {
		got = append(got, cs.name)
	}
	if want := []string{"run", "check", "count", "fetchRow", "pick", "pick", "key", "done"}; !reflect.DeepEqual(got, want) {
		t.Errorf("callSites over signatures = %q, want %q", got, want)
	}

	line := []byte("  private static async load() {}")
	if got := modifiersBefore(line, 0, strings.Index(string(line), "load")); !reflect.DeepEqual(got, []string{"private", "static", "async"}) {
		t.Errorf("modifiersBefore = %q", got)
	}
	decl := []byte("/** doc */\nexport default abstract class Base {}")
	at := strings.Index(string(decl), "Base")
	if kw := declKeyword(decl, at); kw != "class" {
		t.Errorf("declKeyword = %q", kw)
	}
	if !isAbstractDecl(decl, at) {
		t.Error("isAbstractDecl = false")
	}
	if got := modifiersBefore(decl, 0, at); !reflect.DeepEqual(got, []string{"exported", "default", "abstract"}) {
		t.Errorf("modifiersBefore = %q", got)
	}
}

func TestInCallPosition(t *testing.T) {
	src := "a(1); b<T>(2); c; new D; e?.(3); f`x`; import { g } from 'm';"
	for name, want := range map[string]bool{"a": true, "b": true, "c": false, "D": true, "e": true, "f": true, "g": false} {
		at := strings.Index(src, name)
		if name == "D" || name == "e" {
			at = strings.Index(src, " "+name) + 1
		}
		if got := inCallPosition([]byte(src), at); got != want {
			t.Errorf("inCallPosition(%s) = %v, want %v", name, got, want)
		}
	}
}

func TestExportedLater(t *testing.T) {
	src := []byte("function a() {}\nfunction b() {}\nfunction c() {}\nexport { a, x as b };\nexport default c;\nexport { d } from './d.js';\n")
	for name, want := range map[string]bool{"a": true, "b": false, "c": true, "d": false} {
		if got := exportedLater(src, name); got != want {
			t.Errorf("exportedLater(%s) = %v, want %v", name, got, want)
		}
	}
}

func TestCleanSignature(t *testing.T) {
	cases := map[[2]string]string{
		{"(method) Account.deposit(amount: number): this", "deposit"}:        "deposit(amount: number): this",
		{"(property) Account.balance: number", "balance"}:                    "balance: number",
		{"constructor Account(id: string): Account", "constructor"}:          "constructor Account(id: string): Account",
		{"function f(): void", "f"}:                                          "function f(): void",
		{"(method) Subscriber<T>.create<T>(x?: T): Subscriber<T>", "create"}: "create<T>(x?: T): Subscriber<T>",
		{"(property) Subscriber<T>.isStopped: boolean", "isStopped"}:         "isStopped: boolean",
		{"const x: Map<string, A.b>", "b"}:                                   "const x: Map<string, A.b>",
		// A destructured require (eslint's `{ SourceCode } = require(…)`)
		// hovers with two labels.
		{"(alias) (property) SourceCode: typeof SourceCode", "SourceCode"}: "SourceCode: typeof SourceCode",
	}
	for in, want := range cases {
		if got := cleanSignature(in[0], in[1]); got != want {
			t.Errorf("cleanSignature(%q) = %q, want %q", in[0], got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	root := "/w"
	cases := []struct {
		path     string
		external bool
		lib      bool
		pkg      string
		rel      string
	}{
		{"/w/src/a.ts", false, false, "", "src/a.ts"},
		{"/w/src/types.d.ts", true, false, "", "src/types.d.ts"},
		{"/w/node_modules/@scope/pkg/dist/index.d.ts", true, false, "@scope/pkg", "node_modules/@scope/pkg/dist/index.d.ts"},
		{"/w/node_modules/lodash/index.js", true, false, "lodash", "node_modules/lodash/index.js"},
		{"/opt/tsgo/node_modules/@typescript/typescript-linux-x64/lib/lib.es5.d.ts", true, true, "typescript", "lib.es5.d.ts"},
	}
	for _, c := range cases {
		pc := classify(root, c.path)
		if pc.external != c.external || pc.lib != c.lib || pc.pkg != c.pkg {
			t.Errorf("classify(%s) = %+v", c.path, pc)
		}
		if got := relPath(root, c.path); got != c.rel {
			t.Errorf("relPath(%s) = %s, want %s", c.path, got, c.rel)
		}
	}
}
