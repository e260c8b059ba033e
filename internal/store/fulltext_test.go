package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/terms"
)

// splitFullText is how the full-text columns were computed before
// fullText split each text once: every column split on its own, idents
// from its parts joined by line breaks. fullText must match it byte for
// byte: the columns decide every bm25 score.
func splitFullText(c *chunk.Chunk) chunkindex.FullText {
	join := func(s string) string { return strings.Join(terms.Split(s), " ") }
	return chunkindex.FullText{
		join(c.Name),
		join(c.Breadcrumb),
		join(c.Signature),
		join(c.JSDoc),
		"",
		join(c.Name + "\n" + c.Signature + "\n" + c.JSDoc + "\n" + c.EmbeddingText),
	}
}

func TestFullTextMatchesSplit(t *testing.T) {
	check := func(t *testing.T, rel string, chunks []chunk.Chunk) {
		t.Helper()
		got := chunkindex.PrepareFullText(chunks)
		for i := range chunks {
			if want := splitFullText(&chunks[i]); got[i] != want {
				for k := range want {
					if got[i][k] != want[k] {
						t.Errorf("%s: chunk %s: column %d\n got %q\nwant %q", rel, chunks[i].ID, k, got[i][k], want[k])
					}
				}
			}
		}
	}
	t.Run("made up", func(t *testing.T) {
		check(t, "made-up", []chunk.Chunk{
			{},
			{Name: "a", Signature: "the", JSDoc: "", EmbeddingText: "x"},
			{Name: "", Signature: "", JSDoc: "Checks it.", EmbeddingText: ""},
			{Name: "validateToken", Breadcrumb: "src/auth.ts > Auth > validateToken",
				Signature: "validateToken(t: string): boolean", JSDoc: "/** Validates a token. */",
				EmbeddingText: "validateToken(t: string): boolean {\n  return check(t)\n}"},
			{Name: "café", Signature: "ИмяФайла", JSDoc: "日本語", EmbeddingText: "\xff\xfe broken\xffutf8"},
		})
	})
	t.Run("big class", func(t *testing.T) {
		check(t, "big.ts", chunkFile(t, "big.ts", bigClass("Big", 50)))
	})
	// Real code: the fixtures, and part of the test corpus when
	// SCRY_CORPUS names it.
	roots := []string{filepath.Join("..", "..", "testdata", "fixtures")}
	if c := os.Getenv("SCRY_CORPUS"); c != "" {
		roots = append(roots, c)
	}
	files := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || files >= 600 {
				return nil
			}
			switch filepath.Ext(p) {
			case ".ts", ".tsx", ".js", ".mjs", ".cjs":
			default:
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 1<<20 {
				return nil
			}
			rel := filepath.ToSlash(filepath.Base(p))
			check(t, p, chunkFile(t, rel, string(data)))
			files++
			return nil
		})
	}
	if files == 0 {
		t.Fatal("no files compared")
	}
	t.Logf("%d files compared", files)
}
