package answer_test

import (
	"context"
	"github.com/scry-dev/scry/internal/answer"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
)

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
	for rel, text := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	check := func(t *testing.T, e *engine.Engine, approximate bool) {
		t.Helper()
		syms, err := reads(e).Symbols("café")
		if err != nil || len(syms) != 1 {
			t.Fatalf("Symbols(café) = %v, %v", syms, err)
		}
		refs, err := reads(e).References(ctx, syms[0], 0)
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
		md, err := reads(e).Metadata(ctx, syms[0], 1)
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
	bothSources(t, ctx, root, check)
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
	e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: func(string) string { return "" }, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
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
