// Package indextest gives tests a real local index of a tree: a SQLite
// store in a temporary folder and the indexer that syncs the tree into it.
package indextest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/workspace"
)

// Open opens a new index of the tree at dir (a store in a temporary
// folder, closed when the test ends; closing it earlier is harmless) and
// the indexer that syncs it with opts. Nothing is synced yet.
func Open(t testing.TB, dir string, opts index.Options) (*index.Indexer, *store.Store) {
	t.Helper()
	root, err := workspace.NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "index.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { st.Close() })
	return index.New(root, st, opts), st
}

// Synced is a clean index of the tree at dir: Open, then one sync.
func Synced(t testing.TB, dir string) (*store.Store, index.Summary) {
	t.Helper()
	ix, st := Open(t, dir, index.Options{})
	sum, err := ix.Sync(context.Background())
	if err != nil {
		t.Fatalf("sync %s: %v", dir, err)
	}
	return st, sum
}
