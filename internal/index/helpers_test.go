package index_test

import (
	"testing"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/index/indextest"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/watch"
	"github.com/scry-dev/scry/internal/workspace"
)

// newRoot opens dir as a workspace root.
func newRoot(t testing.TB, dir string) *workspace.Root {
	t.Helper()
	root, err := workspace.NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// openStore opens the index at path (a new one where there is none); it
// is closed when the test ends, and may be closed earlier.
func openStore(t testing.TB, path string) *store.Store {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// cleanSnapshot indexes dir into a new index and describes it.
func cleanSnapshot(t *testing.T, dir string) string {
	t.Helper()
	st, _ := indextest.Synced(t, dir)
	return snapshotOf(t, st)
}

// watchedIndexer opens a new index of dir with a real watcher on dir (the
// first sync scans, the second sets the watches up; later ones can run
// from the watcher's list). The test is skipped where watching is not
// possible.
func watchedIndexer(t testing.TB, dir string, opts index.Options) (*index.Indexer, *store.Store) {
	t.Helper()
	w, err := watch.New(dir)
	if err != nil {
		t.Skipf("watching is not possible here: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	opts.Changes = w
	return indextest.Open(t, dir, opts)
}
