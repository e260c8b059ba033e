package index_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRemovingManyFilesIsBatched: removing thousands of indexed files is a
// few transactions (a batch of files each), not one per file after a read
// of its chunks — 100,000 removed files held the next call for 68 s — and
// the signature cascade of their declarations (fn0 … fnN share the term
// "fn") is one pass, not a full-text query per name. The index is left
// with exactly the files that remain.
func TestRemovingManyFilesIsBatched(t *testing.T) {
	const n = 3000
	files := map[string]string{"keep.ts": "export const k = fn1(1);\n"}
	for i := range n {
		files[fmt.Sprintf("src/d%d/f%d.ts", i/1000, i)] = fmt.Sprintf(
			"export function fn%d(x: number): number {\n  return x + %d;\n}\nexport const v%d = fn%d(1);\n", i, i, i, i)
	}
	e := newEnv(t, files)
	e.sync(t)
	if err := os.RemoveAll(filepath.Join(e.root, "src")); err != nil {
		t.Fatal(err)
	}
	before := e.st.Commits()
	sum := e.sync(t)
	if sum.Removed != n {
		t.Fatalf("removed %d files, want %d", sum.Removed, n)
	}
	// ceil(3000/1024) batches of deletions, and at most one commit of
	// anything else (the cascade's marks, a merge of segments).
	if got, limit := e.st.Commits()-before, int64((n+1023)/1024+1); got > limit {
		t.Errorf("removing %d files took %d write transactions, want at most %d", n, got, limit)
	}
	recs, err := e.st.Files()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := recs["keep.ts"]; len(recs) != 1 || !ok {
		t.Errorf("files left: %v", recs)
	}
	if ids := e.chunkIDs(t, "src/d1/f1000.ts"); len(ids) != 0 {
		t.Errorf("a removed file still has chunks: %v", ids)
	}
}
