package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/testkit"
)

// The in-memory vector index is read from the index on the first question
// that searches by meaning, not when the workspace opens; once loaded, it
// takes in the vectors of every later sync.
func TestVectorsLoadOnFirstSearch(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{"a.ts": "export function validateToken(token: string): boolean {\n  return token.length > 0\n}\n"})
	ctx := context.Background()
	e := openBuiltin(t, root)
	if e.neural.ix != nil {
		t.Fatal("the vectors were loaded when the workspace opened")
	}
	if _, err := e.Search(ctx, Query{Text: "check a token", CallDepth: 1}); err != nil {
		t.Fatal(err)
	}
	if e.neural.ix == nil {
		t.Fatal("a search did not load the vectors")
	}
	_, chunks, _ := e.store.Stats()
	if got, err := e.Vectors(); err != nil || got != chunks {
		t.Fatalf("%d vectors for %d chunks (%v)", got, chunks, err)
	}
	// A later sync's vectors join the loaded index.
	testkit.WriteTree(t, root, map[string]string{"b.ts": "export function hashPassword(p: string): string {\n  return p\n}\n"})
	if _, err := e.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	_, after, _ := e.store.Stats()
	if got, err := e.Vectors(); err != nil || after <= chunks || got != after {
		t.Fatalf("after a sync: %d vectors for %d chunks (%d before; %v)", got, after, chunks, err)
	}
	// An index rebuilt before any question needed the vectors has them
	// read from the new index, not the closed one.
	fresh := openBuiltin(t, root)
	if err := fresh.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if got, err := fresh.Vectors(); err != nil || got != after {
		t.Fatalf("after a rebuild: %d vectors for %d chunks (%v)", got, after, err)
	}
}

// openBuiltin opens the workspace at root, synced, with the built-in
// embedder.
func openBuiltin(t *testing.T, root string) *Engine {
	t.Helper()
	e, err := Open(context.Background(), Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: func(string) string { return "" },
		Configure: func(cfg *config.Config) error { cfg.Embedding.Provider = "builtin"; return nil },
		Models:    true, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
