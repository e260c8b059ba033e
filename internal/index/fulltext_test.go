package index_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// fullTextState is what bm25() reads of the full-text index besides the
// postings themselves: the averages record (row count and each column's
// total size), and every term's document and occurrence counts.
func fullTextState(t *testing.T, path string) string {
	t.Helper()
	db, err := sqlitedb.Open(path, sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var avg []byte
	if err := db.QueryRow(`SELECT block FROM chunks_fts_data WHERE id = 1`).Scan(&avg); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "averages %x\n", avg)
	rows, err := db.Query(`SELECT term, doc, cnt FROM chunks_vocab ORDER BY term`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var doc, cnt int
		if err := rows.Scan(&term, &doc, &cnt); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %d\n", term, doc, cnt)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// copyTree copies the .ts files under src into dst, passing each file's
// text through edit (nil: unchanged; "" from edit: the file is left out).
func copyTree(t *testing.T, src, dst string, edit func(rel, text string) string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := string(b)
		if edit != nil {
			text = edit(rel, text)
		}
		if text == "" {
			return nil
		}
		testkit.WriteTree(t, dst, map[string]string{rel: text})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFullTextStatisticsForgetDeletedRows: an index that followed a history
// of edits, additions and removals holds the same BM25 statistics and
// vocabulary as a fresh index of the final tree, so a long-lived index ranks
// as a new one would. (A contentless-delete FTS5 table, used before, kept
// every deleted row in its row count and column sizes.) Then removing every
// file leaves the full-text index empty: every row was deleted with exactly
// the text it was inserted with.
func TestFullTextStatisticsForgetDeletedRows(t *testing.T) {
	src := crashCorpus(t)
	dir := t.TempDir()
	tree := filepath.Join(dir, "ws")
	copyTree(t, src, tree, nil)
	root, err := workspace.NewRoot(tree)
	if err != nil {
		t.Fatal(err)
	}
	histPath := filepath.Join(dir, "history.db")
	hist, err := store.Open(histPath)
	if err != nil {
		t.Fatal(err)
	}
	defer hist.Close()
	ix := index.New(root, hist, index.Options{})
	sync := func() {
		t.Helper()
		if _, err := ix.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	sync()
	// Three rounds of edits: every third file gains a function, every
	// seventh is removed, and the next round brings some back changed.
	for round := 1; round <= 3; round++ {
		if err := os.RemoveAll(tree); err != nil {
			t.Fatal(err)
		}
		n := 0
		copyTree(t, src, tree, func(rel, text string) string {
			n++
			switch {
			case (n+round)%7 == 0:
				return ""
			case (n+round)%3 == 0:
				return text + fmt.Sprintf("\nexport function roundTrip%dOf%s(value: number): number { return value * %d; }\n",
					round, strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(rel), round)
			}
			return text
		})
		sync()
	}
	if err := hist.Optimize(); err != nil {
		t.Fatal(err)
	}

	freshPath := filepath.Join(dir, "fresh.db")
	fresh, err := store.Open(freshPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.New(root, fresh, index.Options{}).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := fresh.Optimize(); err != nil {
		t.Fatal(err)
	}
	fresh.Close()
	want := fullTextState(t, freshPath)
	if got := fullTextState(t, histPath); got != want {
		t.Errorf("after a history of edits the full-text statistics differ from a fresh index's:\n%s", firstDiff(got, want))
	}

	if err := os.RemoveAll(tree); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	sync()
	if err := hist.Optimize(); err != nil {
		t.Fatal(err)
	}
	state := fullTextState(t, histPath)
	if lines := strings.Split(strings.TrimSpace(state), "\n"); len(lines) != 1 {
		t.Errorf("every file removed, the vocabulary still holds %d terms: %s", len(lines)-1, firstDiff(state, lines[0]+"\n"))
	}
	if !strings.HasPrefix(state, "averages 00") {
		t.Errorf("every file removed, the averages record is %s", strings.SplitN(state, "\n", 2)[0])
	}
}

// firstDiff shows the first line where two multi-line texts differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, x, y)
		}
	}
	return "(equal)"
}
