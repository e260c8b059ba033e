package answer_test

// Tests of the questions on both sources (the index and TypeScript 7),
// and of what each says about the other.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/testkit"
)

// Call trees go as many hops as asked from the index too (marked
// approximate), and read like the compiler's: the same nodes, cycles and
// depth limits.
func TestCallTreesFromIndexAndCompiler(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true}}`,
		"net.ts": "export function ping(): void {\n  pong()\n}\n" +
			"export function pong(): void {\n  relay()\n}\n" +
			"export function relay(): void {\n  log()\n  ping()\n}\n" +
			"export function log(): void {}\n",
		"main.ts": "import { ping } from './net'\nexport function main(): void {\n  ping()\n}\n",
		// A test's caller sorts before the code's by path, and is listed
		// after it.
		"__tests__/net.test.ts": "import { log } from '../net'\nexport function check(): void {\n  log()\n}\n",
		"zz.ts":                 "import { log } from './net'\nexport function zz(): void {\n  log()\n}\n",
	}
	testkit.WriteTree(t, root, files)
	tests := []struct {
		name     string
		incoming bool
		symbol   string
		depth    int
		want     string // the tree's lines, without the header
	}{
		{"one hop", false, "ping", 1, "  → pong (net.ts:4) [depth limit]\n"},
		{"three hops", false, "ping", 3, "  → pong (net.ts:4)\n    → relay (net.ts:7)\n      → log (net.ts:11)\n      → ping (net.ts:1) [cycle]\n"},
		{"transitive", false, "main", -1, "  → ping (net.ts:1)\n    → pong (net.ts:4)\n      → relay (net.ts:7)\n        → log (net.ts:11)\n        → ping (net.ts:1) [cycle]\n"},
		{"callers, two hops", true, "pong", 2, "  ← ping (net.ts:1)\n    ← main (main.ts:2)\n    ← relay (net.ts:7) [depth limit]\n"},
		{"callers, the code's first", true, "log", 1, "  ← relay (net.ts:7) [depth limit]\n  ← zz (zz.ts:2)\n  ← check (__tests__/net.test.ts:2)\n"},
	}
	run := func(t *testing.T, e *engine.Engine, approximate bool) {
		for _, tt := range tests {
			syms, err := reads(e).Symbols(tt.symbol)
			if err != nil || len(syms) != 1 {
				t.Fatalf("%s: Symbols(%s) = %v, %v", tt.name, tt.symbol, syms, err)
			}
			var tree answer.CallTree
			if tt.incoming {
				tree, err = reads(e).Callers(context.Background(), syms[0], tt.depth)
			} else {
				tree, err = reads(e).Callees(context.Background(), syms[0], tt.depth)
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if tree.Approximate != approximate {
				t.Errorf("%s: approximate %v, want %v", tt.name, tree.Approximate, approximate)
			}
			text := render.CallTree(tree)
			header, body, _ := strings.Cut(text, "\n")
			if strings.Contains(header, "approximate") != approximate {
				t.Errorf("%s: header %q", tt.name, header)
			}
			if body != tt.want {
				t.Errorf("%s:\n got %q\nwant %q", tt.name, body, tt.want)
			}
		}
	}
	bothSources(t, root, run)
}

// A function named café is a name like any other: found by its name, its
// uses found as whole words ("caf" is another name), its structure asked of
// the compiler rather than treated as anonymous.
func TestNonASCIINames(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true}}`,
		"a.ts":          "export function café(n: number): number {\n  return n + 1\n}\nexport function caf(): number {\n  return 0\n}\nexport class Base {}\n",
		"b.ts":          "import { café, caf, Base } from './a'\nexport const x = café(1) + caf()\nexport class Crème extends Base {}\n",
	}
	testkit.WriteTree(t, root, files)
	ctx := context.Background()
	check := func(t *testing.T, e *engine.Engine, approximate bool) {
		t.Helper()
		sym := theSymbol(t, e, "café")
		refs, err := reads(e).References(ctx, sym, 0)
		if err != nil {
			t.Fatal(err)
		}
		if refs.Approximate != approximate {
			t.Errorf("references approximate %v, want %v", refs.Approximate, approximate)
		}
		lines := map[int]bool{}
		for _, s := range refs.Sites {
			if s.File == "b.ts" {
				lines[s.Line] = true
			}
			if strings.Contains(s.Text, "caf()") && !strings.Contains(s.Text, "café") {
				t.Errorf("a use of caf counted as café: %+v", s)
			}
		}
		if !lines[2] || !lines[1] {
			t.Errorf("references in b.ts on lines %v, want the import on 1 and the call on 2: %+v", lines, refs.Sites)
		}
		md, err := reads(e).Metadata(ctx, sym, 1)
		if err != nil {
			t.Fatal(err)
		}
		if md.Approximate != approximate {
			t.Errorf("metadata approximate %v (notes %q), want %v", md.Approximate, md.Notes, approximate)
		}
		for _, n := range md.Notes {
			if strings.Contains(n, "anonymous") {
				t.Errorf("café treated as anonymous: %q", n)
			}
		}
		base, err := reads(e).Symbols("Base")
		if err != nil || len(base) != 1 {
			t.Fatalf("Symbols(Base) = %v, %v", base, err)
		}
		impls, err := reads(e).Implementations(ctx, base[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(impls.Found) != 1 || impls.Found[0].Name != "Crème" {
			t.Errorf("implementations of Base: %+v", impls.Found)
		}
	}
	bothSources(t, root, check)
}

// TestEscapedNameIsNotAnonymous: `function \u0061bc()` declares abc. It
// was taken for an anonymous function: not found by `symbol = abc`, and
// never asked about (a declaration with no name). It is found by its name,
// and the compiler is pointed at where the source writes it.
func TestEscapedNameIsNotAnonymous(t *testing.T) {
	root := t.TempDir()
	src := "export function \\u0061bc(): number {\n  return 1;\n}\n"
	if err := os.WriteFile(filepath.Join(root, "esc.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e := openIndexed(t, root, engine.Options{})
	ans, err := e.Search(ctx, engine.Query{Text: "symbol = abc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Response.Results) != 1 {
		t.Fatalf("symbol = abc: %d results", len(ans.Response.Results))
	}
	c := ans.Response.Results[0].Chunk
	if !answer.Named(c) {
		t.Errorf("%q is taken for a declaration with no name", c.Name)
	}
	if tg := answer.Target(reads(e), c); tg.Position.Line != 1 || tg.Position.Column != 16 {
		t.Errorf("the compiler is asked at %d:%d, want 1:16 (the escaped name)", tg.Position.Line, tg.Position.Column)
	}
}

// A file created between two questions must be among the references the
// compiler reports after the next sync, with a tsconfig.json (its project
// re-reads its file list only for files reported as created) and without
// one (the engine's program of ungoverned files grows).
func TestReferencesFollowCreatedFiles(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tsconfig string
	}{
		{"tsconfig", `{"compilerOptions": {"strict": true}, "include": ["src"]}`},
		{"no tsconfig", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(rel, text string) {
				t.Helper()
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.tsconfig != "" {
				write("tsconfig.json", tc.tsconfig)
			}
			write("src/crypto/hmac.ts", "export function hmac(key: string): string {\n  return key + '!'\n}\n")
			write("src/api/sign.ts", "import { hmac } from '../crypto/hmac'\nexport function sign(): string {\n  return hmac('a')\n}\n")
			e := openCompiled(t, root, engine.Options{Warn: func(err error) { t.Errorf("open: %v", err) }})
			ctx := context.Background()

			refs := func() string {
				t.Helper()
				cs, err := reads(e).Store.ChunksByName("hmac")
				if err != nil || len(cs) != 1 {
					t.Fatalf("chunks named hmac: %v, %v", cs, err)
				}
				md, err := answer.MetadataOf(reads(e), ctx, cs[0], structure.Options{Sections: structure.SecReferences})
				if err != nil {
					t.Fatal(err)
				}
				if md.Approximate || md.References == nil {
					t.Fatalf("references not from the compiler: %+v", md)
				}
				return strings.Join(md.References.Files, " ")
			}
			if got, want := refs(), "src/api/sign.ts"; got != want {
				t.Fatalf("references before = %q, want %q", got, want)
			}
			write("src/jobs/rotate.ts", "import { hmac } from '../crypto/hmac'\nexport const rotate = () => hmac('r')\n")
			if _, err := e.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := refs(), "src/api/sign.ts src/jobs/rotate.ts"; got != want {
				t.Errorf("references after creating rotate.ts = %q, want %q", got, want)
			}
		})
	}
}

// A callback has no name to ask the compiler about: its structure comes
// from the index and says so, while named symbols come from the compiler.
func TestCallbackStructureSaysWhyItIsApproximate(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true}}`,
		"jobs.ts":       "export function schedule(run: () => void): void {\n  run()\n}\nexport function start(): void {\n  schedule(() => {\n    console.log('tick')\n    start()\n  })\n}\n",
	}
	testkit.WriteTree(t, root, files)
	e := openCompiled(t, root, engine.Options{Warn: func(err error) { t.Errorf("open: %v", err) }})
	ctx := context.Background()
	cs, err := reads(e).Store.ChunksByFile("jobs.ts")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range cs {
		md, err := answer.MetadataOf(reads(e), ctx, c, structure.Options{})
		if err != nil {
			t.Fatal(err)
		}
		kinds[c.NodeKind] = true
		switch c.NodeKind {
		case "callback":
			if !md.Approximate || len(md.Notes) == 0 || !strings.Contains(md.Notes[0], "no name of its own to ask the compiler about (a callback") {
				t.Errorf("callback %q: approximate %v, notes %q", c.Name, md.Approximate, md.Notes)
			}
		case "function":
			if md.Approximate {
				t.Errorf("function %s: approximate, notes %q", c.Name, md.Notes)
			}
		}
	}
	if !kinds["callback"] || !kinds["function"] {
		t.Fatalf("chunk kinds %v: want a callback and functions", kinds)
	}
}
