package answer_test

import (
	"context"
	"github.com/scry-dev/scry/internal/answer"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
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
	}
	for rel, text := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	ctx := context.Background()
	bothSources(t, ctx, root, run)
}

// bothSources runs check on an engine answering from the index alone
// (approximate) and on one answering from the TypeScript 7 compiler.
func bothSources(t *testing.T, ctx context.Context, root string, check func(t *testing.T, e *engine.Engine, approximate bool)) {
	t.Run("index", func(t *testing.T) {
		e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Sync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		check(t, e, true)
	})
	t.Run("compiler", func(t *testing.T) {
		bin := tslstest.Binary(t)
		e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Compiler: engine.CompilerWait,
			Configure: func(c *config.Config) error { c.TSGo = bin; return nil }})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		if e.Compiler() == nil {
			t.Fatal("no compiler")
		}
		check(t, e, false)
	})
}
