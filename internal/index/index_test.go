package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/index/indextest"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// fixture is a small workspace for the incremental-sync scenarios
// (docs/architecture.md, rule 8).
var fixture = testkit.AuthApp()

type env struct {
	root string
	st   *store.Store
	ix   *index.Indexer
}

func newEnv(t *testing.T, files map[string]string) *env {
	t.Helper()
	root := testkit.Tree(t, files)
	ix, st := indextest.Open(t, root, index.Options{})
	return &env{root: root, st: st, ix: ix}
}

func (e *env) sync(t *testing.T) index.Summary {
	t.Helper()
	sum, err := e.ix.Sync(context.Background())
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return sum
}

func (e *env) chunkIDs(t *testing.T, rel string) []string {
	t.Helper()
	cs, err := e.st.ChunksByFile(rel)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	sort.Strings(ids)
	return ids
}

func TestInitialBuild(t *testing.T) {
	e := newEnv(t, fixture)
	sum := e.sync(t)
	if sum.Files != 5 || sum.Indexed != 5 || sum.Unchanged != 0 {
		t.Fatalf("initial build: %+v", sum)
	}
	files, chunks, err := e.st.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if files != 5 || chunks != sum.Chunks || chunks < 10 {
		t.Fatalf("store has %d files, %d chunks; sync wrote %d", files, chunks, sum.Chunks)
	}
	for rel := range fixture {
		if len(e.chunkIDs(t, rel)) == 0 {
			t.Errorf("%s has no chunks", rel)
		}
	}
}

func TestNoChange(t *testing.T) {
	e := newEnv(t, fixture)
	e.sync(t)
	sum := e.sync(t)
	if sum.Indexed != 0 || sum.Touched != 0 || sum.Unchanged != 5 || sum.Chunks != 0 {
		t.Fatalf("second sync re-parsed: %+v", sum)
	}
}

func TestMtimeOnly(t *testing.T) {
	e := newEnv(t, fixture)
	e.sync(t)
	before := e.chunkIDs(t, "src/crypto.ts")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(e.root, "src/crypto.ts"), later, later); err != nil {
		t.Fatal(err)
	}
	sum := e.sync(t)
	if sum.Touched != 1 || sum.Indexed != 0 {
		t.Fatalf("touch without change: %+v", sum)
	}
	if got := e.chunkIDs(t, "src/crypto.ts"); !equal(got, before) {
		t.Fatalf("chunks changed on a touch: %v -> %v", before, got)
	}
	recs, err := e.st.Files()
	if err != nil {
		t.Fatal(err)
	}
	if recs["src/crypto.ts"].Mtime != later.UnixNano() {
		t.Fatalf("mtime not updated: %d, want %d", recs["src/crypto.ts"].Mtime, later.UnixNano())
	}
	if sum := e.sync(t); sum.Unchanged != 5 {
		t.Fatalf("third sync: %+v", sum)
	}
}

func TestContentChange(t *testing.T) {
	e := newEnv(t, fixture)
	e.sync(t)
	before := e.chunkIDs(t, "src/config.ts")
	testkit.WriteTree(t, e.root, map[string]string{"src/config.ts": "export const TOKEN_EXPIRY = 7200;\n\n\nexport const AUDIENCE = 'api';\n"})
	sum := e.sync(t)
	if sum.Indexed != 1 || sum.Unchanged != 4 {
		t.Fatalf("content change: %+v", sum)
	}
	after, err := e.st.ChunksByFile("src/config.ts")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range after {
		names[c.Name] = true
		for _, old := range before {
			if c.ID == old && c.Name != "TOKEN_EXPIRY" {
				t.Errorf("old chunk %s survived", old)
			}
		}
	}
	if !names["AUDIENCE"] || names["ISSUER"] {
		t.Fatalf("chunks after change: %v", names)
	}
}

func TestFileAddedAndRemoved(t *testing.T) {
	e := newEnv(t, fixture)
	e.sync(t)
	testkit.WriteTree(t, e.root, map[string]string{"src/new.ts": "export function added(): void {}\n"})
	sum := e.sync(t)
	if sum.Indexed != 1 || sum.Unchanged != 5 || sum.Files != 6 {
		t.Fatalf("file added: %+v", sum)
	}
	if len(e.chunkIDs(t, "src/new.ts")) == 0 {
		t.Fatal("added file not indexed")
	}
	if err := os.Remove(filepath.Join(e.root, "src/crypto.ts")); err != nil {
		t.Fatal(err)
	}
	sum = e.sync(t)
	if sum.Removed != 1 || sum.Indexed != 0 {
		t.Fatalf("file removed: %+v", sum)
	}
	if ids := e.chunkIDs(t, "src/crypto.ts"); len(ids) != 0 {
		t.Fatalf("removed file still has chunks: %v", ids)
	}
	if recs, _ := e.st.Files(); len(recs) != 5 {
		t.Fatalf("file records: %d", len(recs))
	}
}

// TestSignatureCascade changes validateToken's signature: exactly the chunks
// in other files whose embedding text names validateToken are marked for
// re-embedding, besides the changed file's own new chunks.
func TestSignatureCascade(t *testing.T) {
	e := newEnv(t, fixture)
	e.sync(t)
	all, err := e.st.NeedsEmbedding()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.ClearNeedsEmbedding(all); err != nil {
		t.Fatal(err)
	}
	testkit.WriteTree(t, e.root, map[string]string{"src/auth/token.ts": `import { hmac } from '../crypto';

/** Validates a signed token against an audience. */
export function validateToken(token: string, audience: string): boolean {
  return hmac(token).length > 0 && audience !== '';
}
`})
	sum := e.sync(t)
	marked, err := e.st.NeedsEmbedding()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, id := range e.chunkIDs(t, "src/auth/token.ts") {
		want[id] = true
	}
	// middleware.ts: the import, the class (its embedding text is the
	// collapsed class, which does not name validateToken), and the method.
	mw, _ := e.st.ChunksByFile("src/middleware.ts")
	dependents := 0
	for _, c := range mw {
		if c.NodeKind == "import" || c.Name == "verify" {
			want[c.ID] = true
			dependents++
		}
	}
	if dependents != 2 {
		t.Fatalf("fixture: expected 2 dependent chunks in middleware.ts, found %d", dependents)
	}
	got := map[string]bool{}
	for _, id := range marked {
		got[id] = true
	}
	for id := range want {
		if !got[id] {
			c, _ := e.st.Chunk(id)
			t.Errorf("not marked: %s", c.Breadcrumb)
		}
	}
	for id := range got {
		if !want[id] {
			c, _ := e.st.Chunk(id)
			t.Errorf("marked but independent: %s", c.Breadcrumb)
		}
	}
	if sum.Reembed != dependents {
		t.Errorf("summary Reembed = %d, want %d", sum.Reembed, dependents)
	}
}

func TestSkippedContentIsCounted(t *testing.T) {
	e := newEnv(t, map[string]string{
		"ok.ts":     "export const a = 1;\n",
		"binary.ts": "export const b = 1;\x00\x00\x00\n",
		"latin1.js": "const s = '\xe9t\xe9';\n",
	})
	sum := e.sync(t)
	if sum.Indexed != 1 || sum.Skipped[workspace.SkipBinary] != 1 || sum.Skipped[workspace.SkipNotUTF8] != 1 {
		t.Fatalf("skips: %+v", sum)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSameTreeSameRowids: the same tree indexed twice, by parsers that
// finish in different orders, gives every chunk the same rowid (ranking
// breaks ties by rowid, so answers would otherwise vary run to run).
func TestSameTreeSameRowids(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		// Sizes vary so that the parsers finish out of order.
		var src strings.Builder
		for j := range 1 + (i*37)%90 {
			fmt.Fprintf(&src, "export function f%d_%d() { return %d }\n", i, j, j)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%02d.ts", i)), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rowids := func() string {
		ix, st := indextest.Open(t, dir, index.Options{Workers: 4})
		if _, err := ix.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		st.Close()
		db, err := sqlitedb.Open(st.Path(), sqlitedb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows, err := db.Query(`SELECT seq, id FROM chunks ORDER BY seq`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var seq int64
			var id string
			if err := rows.Scan(&seq, &id); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%d %s\n", seq, id)
		}
		return b.String()
	}
	first := rowids()
	if strings.Count(first, "\n") < 40 {
		t.Fatalf("too few chunks: %q", first)
	}
	for run := 0; run < 3; run++ {
		if again := rowids(); again != first {
			t.Fatalf("run %d gave other rowids:\n%s\nfirst:\n%s", run+2, again, first)
		}
	}
}

// TestWorkspaceUnderATestDirectory: what is test code is judged by the
// path inside the workspace, not by the directories above its root; a
// workspace kept under a folder named test/ is code like any other, its
// object-literal methods symbols.
func TestWorkspaceUnderATestDirectory(t *testing.T) {
	root := filepath.Join(t.TempDir(), "test", "app")
	testkit.WriteTree(t, root, map[string]string{
		"src/store.ts": "export const store = defineStore({\n  save(item) {\n    items.push(item);\n    return item;\n  },\n});\n",
	})
	ix, st := indextest.Open(t, root, index.Options{})
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	cs, err := st.ChunksByFile("src/store.ts")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	if !slices.Contains(names, "save") {
		t.Errorf("chunks of src/store.ts: %q, want one named save", names)
	}
}
