package store

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/parse"
)

// chunkFile parses and chunks src as the indexer does.
func chunkFile(t testing.TB, rel, src string) []chunk.Chunk {
	t.Helper()
	f, err := parse.Parse("/ws/"+rel, []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	return chunk.File(f, "/ws/"+rel, rel)
}

// bigClass is a class of n methods, each on three lines.
func bigClass(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "/** The %s class. */\nexport class %s {\n", name, name)
	for i := range n {
		fmt.Fprintf(&b, "  method%d(a: number): number {\n    return a * %d + helper(\"ü€%d\");\n  }\n", i, i, i)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestLayout: every chunk found in the text lies in the blocks at its span,
// no block boundary cuts a chunk SQL reads or a small one, and blocks stay
// near blockTarget unless one chunk is larger.
func TestLayout(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  string
	}{
		{"small file", "export function a(): number {\n  return 1;\n}\n\nexport const b = 2;\n"},
		{"large class", bigClass("Big", 1200)},
		{"many functions", strings.Repeat("function f(x) {\n  return x + 1;\n}\n", 2000)},
		{"line endings", "function a() {\r\n  return 1;\r\n}\rfunction b() {\n  return 2;\n}\r\n"},
		{"one huge function", "function huge() {\n" + strings.Repeat("  call(1, 2, 3);\n", 5000) + "}\n"},
		{"empty", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			chunks := chunkFile(t, "a.ts", tt.src)
			for _, text := range [][]byte{[]byte(tt.src), nil} {
				blocks, spans := layout(chunks, text, nil)
				for i, sp := range spans {
					c := &chunks[i]
					if sp.block < 0 {
						if text != nil && c.FullSource != "" {
							t.Errorf("%s (%d bytes) not found in the text", c.Name, len(c.FullSource))
						}
						continue
					}
					var got strings.Builder
					for b := sp.block; b <= sp.last; b++ {
						if blocks[b] == nil {
							t.Fatalf("%s lies in block %d, not kept", c.Name, b)
						}
						got.Write(blocks[b])
					}
					if g := got.String(); sp.off+sp.n > len(g) || g[sp.off:sp.off+sp.n] != c.FullSource {
						t.Fatalf("%s: span %+v does not hold its source", c.Name, sp)
					}
					if sp.last != sp.block && (c.EmbeddingText == c.FullSource || len(c.FullSource) <= atomMax) {
						t.Errorf("%s (%d bytes, read by SQL: %v) cut across blocks %d-%d", c.Name, len(c.FullSource),
							c.EmbeddingText == c.FullSource, sp.block, sp.last)
					}
				}
				for b, blk := range blocks {
					if len(blk) > blockTarget && !oneChunk(chunks, spans, b, len(blk)) {
						t.Errorf("block %d of %d bytes", b, len(blk))
					}
				}
			}
		})
	}
}

// oneChunk reports whether block b is oversized for a chunk that had to
// lie in it whole.
func oneChunk(chunks []chunk.Chunk, spans []span, b, size int) bool {
	for i, sp := range spans {
		if sp.block == b && sp.last == b && len(chunks[i].FullSource) > blockTarget/2 {
			return true
		}
	}
	return false
}

// TestSourceStorage: sources stored as ranges of their file's blocks, or in
// their rows when not found there, read back byte for byte through every
// read, light reads included, and SQL still reads the embedding text.
func TestSourceStorage(t *testing.T) {
	big := bigClass("Big", 1200) // about 90 KB: its class spans blocks
	src := "import { helper } from './helper';\n\n" + big +
		"\nexport function leaf(): string {\n  const $ = \"" + strings.Repeat("é", chunkindex.LightText) + "\";\n  return $;\n}\n"
	chunks := chunkFile(t, "src/a.ts", src)
	var cls, leaf chunk.Chunk
	for _, c := range chunks {
		switch c.Name {
		case "Big":
			cls = c
		case "leaf":
			leaf = c
		}
	}
	if cls.ID == "" || leaf.ID == "" || len(cls.FullSource) <= atomMax {
		t.Fatalf("test file chunked unexpectedly: %d chunks", len(chunks))
	}
	// Hand-made chunks not found in the text: stored in their rows.
	lost := fn("src/a.ts", "lost", 9000, "gone()")
	lostBox := chunk.Chunk{ID: "box", FilePath: "/ws/src/a.ts", RelativePath: "src/a.ts", NodeKind: "class", Name: "Box",
		StartLine: 9100, EndLine: 9400, FullSource: "class Box {\n" + strings.Repeat("  m() { return 1 }\n", 300) + "}",
		EmbeddingText: "class Box { ... }", Breadcrumb: "src/a.ts > Box"}
	empty := fn("src/a.ts", "empty", 1, "")
	empty.FullSource, empty.EmbeddingText = "", ""
	chunks = append(chunks, lost, lostBox, empty)

	for _, withText := range []bool{true, false} {
		t.Run(fmt.Sprintf("file text %v", withText), func(t *testing.T) {
			s := openTemp(t)
			prep := Prepare(chunks)
			if withText {
				prep = PrepareFile(chunks, []byte(src))
			}
			if _, err := s.ReplaceFilePrepared(rec("src/a.ts"), chunks, prep); err != nil {
				t.Fatal(err)
			}
			forms := map[string]string{}
			rows, err := s.db.Query(`SELECT name, CASE WHEN src_block IS NULL THEN typeof(full_source)
				WHEN src_last IS NULL THEN 'block' ELSE 'blocks' END FROM chunks`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name, form string
				if err := rows.Scan(&name, &form); err != nil {
					t.Fatal(err)
				}
				forms[name] = form
			}
			rows.Close()
			want := map[string]string{"Big": "blocks", "leaf": "block", "method0": "block", "lost": "text", "Box": "blob", "empty": "text"}
			if !withText {
				want["lost"], want["Box"] = "block", "block" // appended to the text built from the chunks
			}
			for name, form := range want {
				if forms[name] != form {
					t.Errorf("%s stored as %q, want %q", name, forms[name], form)
				}
			}
			if n := count(t, s, `SELECT count(*) FROM sources`); n < 10 {
				t.Errorf("%d source blocks", n)
			}
			// The class's collapsed text is long enough to be compressed.
			if n := count(t, s, `SELECT count(*) FROM chunks WHERE name = 'Big' AND typeof(embedding_text) = 'blob'`); n != 1 {
				t.Error("the class's embedding text is not stored compressed")
			}

			got, err := s.ChunksByFile("src/a.ts")
			if err != nil {
				t.Fatal(err)
			}
			byID := map[string]chunk.Chunk{}
			for _, c := range got {
				byID[c.ID] = c
			}
			ids := make([]string, 0, len(chunks))
			for _, c := range chunks {
				ids = append(ids, c.ID)
				if !reflect.DeepEqual(byID[c.ID], c) {
					t.Errorf("ChunksByFile: %s differs (source %d bytes, read %d)", c.Name, len(c.FullSource), len(byID[c.ID].FullSource))
				}
			}
			full, err := s.ChunksByIDs(ids)
			if err != nil || len(full) != len(chunks) {
				t.Fatalf("ChunksByIDs: %d, %v", len(full), err)
			}
			for _, c := range chunks {
				if !reflect.DeepEqual(full[c.ID], c) {
					t.Errorf("ChunksByIDs: %s differs", c.Name)
				}
			}
			if one, err := s.Chunk(cls.ID); err != nil || one.FullSource != cls.FullSource {
				t.Errorf("Chunk(Big): source differs (%v)", err)
			}

			// Light reads cut the embedding text at chunkindex.LightText characters.
			hits := search(t, s, "leaf", func(q *chunkindex.Query) { q.Light = true })
			if len(hits) == 0 || hits[0].Chunk.ID != leaf.ID {
				t.Fatalf("light search: %v", hitIDs(hits))
			}
			if h := hits[0].Chunk; h.FullSource != "" || h.EmbeddingText != firstRunes(leaf.EmbeddingText, chunkindex.LightText) {
				t.Errorf("light read: %d bytes of source, %d runes of text", len(h.FullSource), utf8.RuneCountInString(h.EmbeddingText))
			}
			pending, err := s.PendingEmbeddings("m", 0, 10_000)
			if err != nil || len(pending) != len(chunks) {
				t.Fatalf("PendingEmbeddings: %d, %v", len(pending), err)
			}
			for i, p := range pending {
				if p.Text != chunks[i].EmbeddingText {
					t.Errorf("PendingEmbeddings: %s's text differs", chunks[i].Name)
				}
			}
			// "helper" is found through the full-text index, "$" (no
			// terms) by scanning every chunk's text in SQL.
			for name, want := range map[string]int{"helper": 1201, "method7": 2, "$": 1} {
				refs, err := s.ChunksReferencing(name, "other.ts")
				if err != nil || len(refs) != want {
					t.Errorf("ChunksReferencing(%s) = %d, %v; want %d", name, len(refs), err, want)
				}
			}
			old := mustReplace(t, s, rec("src/a.ts"), fn("src/a.ts", "small", 1, ""))
			if len(old) != len(chunks) {
				t.Errorf("%d old signatures", len(old))
			}
			if n := count(t, s, `SELECT count(*) FROM sources`); n != 1 {
				t.Errorf("%d source blocks after replacing the file by one chunk", n)
			}
			if err := s.DeleteFile("src/a.ts"); err != nil {
				t.Fatal(err)
			}
			if n := count(t, s, `SELECT count(*) FROM sources`); n != 0 {
				t.Errorf("%d source blocks after deleting the file", n)
			}
		})
	}
}

func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// TestMissingBlockIsAnError: a chunk whose block is gone fails to read
// rather than reading as a shorter or empty source.
func TestMissingBlockIsAnError(t *testing.T) {
	src := bigClass("Big", 1200)
	chunks := chunkFile(t, "a.ts", src)
	s := openTemp(t)
	if _, err := s.ReplaceFilePrepared(rec("a.ts"), chunks, PrepareFile(chunks, []byte(src))); err != nil {
		t.Fatal(err)
	}
	var leafID, classID string
	if err := s.db.QueryRow(`SELECT id FROM chunks WHERE src_last IS NULL AND src_block > 0 LIMIT 1`).Scan(&leafID); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow(`SELECT id FROM chunks WHERE src_last IS NOT NULL`).Scan(&classID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`DELETE FROM sources WHERE key = (SELECT (seq >> 20 << 20) | src_block FROM chunks WHERE id = ?)`, leafID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{leafID, classID} {
		if _, err := s.Chunk(id); err == nil || errors.Is(err, chunkindex.ErrNotFound) {
			t.Errorf("Chunk(%s) with a block missing: %v", id, err)
		}
	}
}
