package index_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// watchedTree is the tree TestWatchedSync starts from.
var watchedTree = map[string]string{
	"src/a.ts": "export function alpha() { return 1 }\n",
	"src/b.ts": "export function beta() { return 2 }\n",
	"lib/c.ts": "export function gamma() { return 3 }\n",
}

// TestWatchedSync runs syncs with a real watcher over a real tree: after
// the scans that set the watches up, an edit, a removal and a replacement
// by rename are synced from the watcher's list alone; a new file, a new
// directory and an ignore-file edit make the sync scan; and the index
// always equals a clean index of the same tree.
func TestWatchedSync(t *testing.T) {
	dir := testkit.Tree(t, watchedTree)
	write := func(rel, src string) {
		t.Helper()
		testkit.WriteTree(t, dir, map[string]string{rel: src})
	}

	ix, st := watchedIndexer(t, dir, index.Options{})

	sync := func(step string, watched bool, indexed, removed int) index.Summary {
		t.Helper()
		sum, err := ix.Sync(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if sum.Watched != watched || sum.Indexed != indexed || sum.Removed != removed {
			t.Fatalf("%s: watched %v, indexed %d, removed %d (scan reason %q); want %v, %d, %d",
				step, sum.Watched, sum.Indexed, sum.Removed, sum.ScanReason, watched, indexed, removed)
		}
		if got, want := snapshotOf(t, st), cleanSnapshot(t, dir); got != want {
			t.Fatalf("%s: index differs from a clean one:\n got %s\nwant %s", step, got, want)
		}
		return sum
	}
	sync("first scan", false, 3, 0)
	sync("second scan, now watched", false, 0, 0)
	sync("nothing changed", true, 0, 0)

	write("src/a.ts", "export function alpha2() { return 11 }\n")
	sync("one edit", true, 1, 0)

	if err := os.Remove(filepath.Join(dir, "src", "b.ts")); err != nil {
		t.Fatal(err)
	}
	sync("one removal", true, 0, 1)

	// Editors that save by writing a temporary file and renaming it over
	// the original: the name is known, so the list still suffices.
	tmp := filepath.Join(t.TempDir(), "c.ts.tmp")
	if err := os.WriteFile(tmp, []byte("export function gamma2() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "lib", "c.ts")); err != nil {
		t.Fatal(err)
	}
	sync("replaced by rename", true, 1, 0)

	// An editor's swap file and other names that can never be indexed
	// cost no scan.
	write("src/.a.ts.swp", "swap")
	write("src/notes.md", "# notes")
	write("src/notes.md", "# notes, edited")
	sync("files that are not sources", true, 0, 0)

	write("src/new.ts", "export function delta() {}\n")
	if sum := sync("a new file", false, 1, 0); !strings.Contains(sum.ScanReason, "src/new.ts") {
		t.Fatalf("scan reason %q does not name the new file", sum.ScanReason)
	}
	write("pkg/deep/e.ts", "export function epsilon() {}\n")
	sync("a new directory", false, 1, 0)
	sync("the new directory's first watched scan", false, 0, 0)
	write("pkg/deep/e.ts", "export function epsilon2() {}\n")
	sync("an edit in the new directory", true, 1, 0)

	write(".gitignore", "lib/\n")
	sync("an ignore file", false, 0, 1)
	sync("after the ignore file, watched", true, 0, 0)

	// git's own ignore file is read by the scan, so it is watched too.
	write(".git/info/exclude", "# nothing yet\n")
	sync("the .git directory appeared", false, 0, 0)
	sync("the .git directory, now watched", false, 0, 0)
	write(".git/info/exclude", "pkg/\n")
	sync("git's exclude file", false, 0, 1)
	sync("after git's exclude file, watched", true, 0, 0)
}

// TestWatchedSyncSizeLimit: a file skipped for its size is watched too, so
// an edit that brings it under the limit is indexed without a scan.
func TestWatchedSyncSizeLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.ts")
	if err := os.WriteFile(big, []byte("export const big = '"+strings.Repeat("x", 4096)+"'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "small.ts"), []byte("export const small = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, st := watchedIndexer(t, dir, index.Options{Workspace: workspace.Options{MaxFileSize: 1024}})
	for range 2 { // the first scan, then the one that runs watched
		if _, err := ix.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(big, []byte("export const big = 'now small'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := ix.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Watched || sum.Indexed != 1 {
		t.Fatalf("after shrinking big.ts: watched %v, indexed %d (%s)", sum.Watched, sum.Indexed, sum.ScanReason)
	}
	if _, ok, err := st.File("big.ts"); err != nil || !ok {
		t.Fatalf("big.ts not in the index after it shrank (%v)", err)
	}
}

// TestWatchedSyncThroughALink: src/gen is a link to dist/gen, a directory
// the scan leaves out (build output, here by .gitignore), so its files are
// indexed as src/gen/…. The watch is on the real directory, whose events
// name dist/gen/…: an edit made in place there went unseen, and the index
// stayed stale (snapshots then failed, "file changed since it was
// indexed") until a restart. Events are mapped back to the names the scan
// gave the files.
func TestWatchedSyncThroughALink(t *testing.T) {
	dir := testkit.Tree(t, map[string]string{
		".gitignore":    "dist/\n",
		"src/a.ts":      "export function alpha() { return 1 }\n",
		"dist/gen/g.ts": "export function generated() { return 1 }\n",
	})
	if err := os.Symlink("../dist/gen", filepath.Join(dir, "src", "gen")); err != nil {
		t.Fatal(err)
	}
	ix, st := watchedIndexer(t, dir, index.Options{})
	for range 2 { // the first scan, then the one that runs watched
		if _, err := ix.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// In place, as a generator or an editor without renames writes.
	f, err := os.OpenFile(filepath.Join(dir, "dist", "gen", "g.ts"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("export function regenerated() { return 2 }\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sum, err := ix.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 1 {
		t.Errorf("the edit through the link: indexed %d (watched %v, scan reason %q), want 1", sum.Indexed, sum.Watched, sum.ScanReason)
	}
	if got, want := snapshotOf(t, st), cleanSnapshot(t, dir); got != want {
		t.Fatalf("index differs from a clean one:\n got %s\nwant %s", got, want)
	}
}
