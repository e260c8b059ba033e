package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// TestSearchDuringAnEditStorm: questions asked while files are replaced
// by atomic renames, deleted and written again, truncated and rewritten,
// and renamed away and back, each after a sync, as an MCP call does. None
// fails (on the code before the fix, 42 of 300 did: "file changed since
// it was indexed").
func TestSearchDuringAnEditStorm(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	write := func(name, text string) {
		os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
	}
	for i := range 10 {
		write(fmt.Sprintf("f%d.ts", i), fmt.Sprintf("import { x } from './x';\nexport function validateToken%d(token: string): boolean {\n  return token.length > %d\n}\n", i, i))
	}
	e, err := Open(ctx, Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: func(string) string { return "" }, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	stop := testkit.Background(func(k int) {
		i := k % 10
		p := filepath.Join(root, fmt.Sprintf("f%d.ts", i))
		text := fmt.Sprintf("export function validateToken%d(token: string): boolean {\n  return token.length > %d\n}\n", i, k)
		switch k % 4 {
		case 0:
			os.WriteFile(p+".tmp", []byte("\n\n"+text), 0o644)
			os.Rename(p+".tmp", p)
		case 1:
			os.Remove(p)
			os.WriteFile(p, []byte(text), 0o644)
		case 2:
			os.WriteFile(p, []byte(text), 0o644) // truncating write
		case 3:
			os.Rename(p, p+".x")
			os.Rename(p+".x", p)
		}
	})
	noThreshold := 0.0
	fails := 0
	for n := range 300 {
		if _, err := e.Sync(ctx); err != nil {
			t.Errorf("sync %d: %v", n, err)
		}
		q := "validate token"
		if n%2 == 0 {
			q = fmt.Sprintf("symbol = validateToken%d", n%10)
		}
		if _, err := e.Search(ctx, Query{Text: q, Threshold: &noThreshold}); err != nil {
			fails++
			t.Logf("search %d: %v", n, err)
		}
	}
	stop()
	if fails > 0 {
		t.Errorf("%d of 300 questions failed during the edits", fails)
	}
}
