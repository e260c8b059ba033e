//go:build unix

package answer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestSourceSwappedForFIFOUnderServe: with the engine open as `scry serve`
// holds it (watching, TypeScript 7 running), a source file is replaced by
// a FIFO. TypeScript 7 would block reading it, and every later question
// with it; instead the next structure questions answer from the index,
// marked approximate, naming the file. The deadline only keeps a
// regression from hanging the suite.
func TestSourceSwappedForFIFOUnderServe(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true}, "include": ["src/**/*"]}`,
		"src/a.ts":      "export function helper(): number { return 1; }\n",
		"src/b.ts":      "import { helper } from './a';\nexport const v = helper();\n",
		"src/c.ts":      "import { helper } from './a';\nexport function useIt(): number { return helper(); }\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := openCompiled(t, root, engine.Options{Watch: true})
	sym := theSymbol(t, e, "helper")
	refs, err := reads(e).References(ctx, sym, 0)
	if err != nil || refs.Approximate {
		t.Fatalf("before the swap: approximate %v (%s), %v", refs.Approximate, refs.Reason, err)
	}

	pipe := filepath.Join(root, "src", "b.ts")
	if err := os.Remove(pipe); err != nil {
		t.Fatal(err)
	}
	testkit.FIFO(t, pipe)
	// The watcher would notice; syncing here makes the order certain.
	if _, err := e.Sync(ctx); err != nil {
		t.Fatal(err)
	}

	refs, err = reads(e).References(ctx, sym, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatal("the question waited for the deadline")
	}
	if !refs.Approximate || !strings.Contains(refs.Reason, "src/b.ts is a FIFO") {
		t.Errorf("after the swap: approximate %v, reason %q", refs.Approximate, refs.Reason)
	}
	if text := render.References(refs); !strings.Contains(text, "src/b.ts is a FIFO") {
		t.Errorf("the answer does not name the file:\n%s", text)
	}
	var inC bool
	for _, s := range refs.Sites {
		inC = inC || s.File == "src/c.ts"
	}
	if !inC {
		t.Errorf("the index's answer misses src/c.ts: %+v", refs.Sites)
	}
	tree, err := reads(e).Callers(ctx, sym, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !tree.Approximate || !strings.Contains(render.CallTree(tree), "src/b.ts is a FIFO") {
		t.Errorf("callers after the swap:\n%s", render.CallTree(tree))
	}

	// A file again: the compiler comes back (after its start back-off),
	// with the restored file's reference.
	if err := os.Remove(pipe); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pipe, []byte("import { helper } from './a';\nexport const v = helper();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	for refs.Approximate && ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
		if refs, err = reads(e).References(ctx, sym, 0); err != nil {
			t.Fatal(err)
		}
	}
	var inB bool
	for _, s := range refs.Sites {
		inB = inB || s.File == "src/b.ts"
	}
	if refs.Approximate || !inB {
		t.Errorf("after the file came back: approximate %v (%s), sites %+v", refs.Approximate, refs.Reason, refs.Sites)
	}
}
