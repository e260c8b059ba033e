package store

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"github.com/scry-dev/scry/internal/terms"
)

func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func fn(file, name string, line int, body string) chunk.Chunk {
	sig := "function " + name + "()"
	src := sig + " {\n" + body + "\n}"
	return chunk.Chunk{
		ID:            fmt.Sprintf("%s#%s@%d", file, name, line),
		FilePath:      "/ws/" + file,
		RelativePath:  file,
		NodeKind:      "function",
		Name:          name,
		Signature:     sig,
		FullSource:    src,
		StartLine:     line,
		EndLine:       line + 2,
		EmbeddingText: src,
		Breadcrumb:    file + " > " + name,
		Exported:      true,
	}
}

func rec(file string) chunkindex.FileRecord {
	return chunkindex.FileRecord{Path: file, Mtime: 100, Size: 10, ContentHash: "h-" + file, Language: "typescript"}
}

// openWith is a temporary store holding the chunks cs of one file.
func openWith(t testing.TB, cs ...chunk.Chunk) *Store {
	t.Helper()
	s := openTemp(t)
	mustReplace(t, s, rec(cs[0].RelativePath), cs...)
	return s
}

func mustReplace(t testing.TB, s *Store, r chunkindex.FileRecord, cs ...chunk.Chunk) []ChunkSig {
	t.Helper()
	old, err := s.ReplaceFile(r, cs)
	if err != nil {
		t.Fatal(err)
	}
	return old
}

func search(t testing.TB, s *Store, q string, mod func(*chunkindex.Query)) []chunkindex.Hit {
	t.Helper()
	query := chunkindex.Query{Terms: terms.Query(q)}
	if mod != nil {
		mod(&query)
	}
	hits, err := s.Search(query)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func hitIDs(hits []chunkindex.Hit) []string {
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.Chunk.ID)
	}
	return ids
}

func count(t testing.TB, s *Store, q string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// ftsConsistent checks that the FTS table has exactly one row per chunk and
// passes its own integrity check.
func ftsConsistent(t testing.TB, s *Store) {
	t.Helper()
	if _, err := s.db.Exec(`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('integrity-check', 0)`); err != nil {
		t.Fatalf("fts integrity: %v", err)
	}
	orphans := count(t, s, `SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT seq FROM chunks)`)
	missing := count(t, s, `SELECT count(*) FROM chunks WHERE seq NOT IN (SELECT rowid FROM chunks_fts)`)
	if orphans != 0 || missing != 0 {
		t.Fatalf("fts rows: %d orphaned, %d missing", orphans, missing)
	}
}

func TestReplaceFileRoundTrip(t *testing.T) {
	s := openTemp(t)
	class := chunk.Chunk{
		ID: "a.ts#Auth@1", FilePath: "/ws/src/a.ts", RelativePath: "src/a.ts", NodeKind: "class",
		Name: "Auth", Signature: "export class Auth", FullSource: "export class Auth {\n  check(): boolean { return true }\n}",
		StartLine: 1, EndLine: 3, JSDoc: "/** Auth checks. */", RelevantImports: []string{"import x from 'y';"},
		EmbeddingText: "export class Auth {\n  check(): boolean { ... }\n}", Breadcrumb: "src/a.ts > Auth",
		Exported: true, Modifiers: []string{"export"}, ChildChunkIDs: []string{"a.ts#check@2"},
	}
	method := chunk.Chunk{
		ID: "a.ts#check@2", FilePath: "/ws/src/a.ts", RelativePath: "src/a.ts", NodeKind: "method",
		Name: "check", ParentName: "Auth", ParentChunkID: class.ID, Depth: 1,
		Signature: "check(): boolean", FullSource: "check(): boolean { return true }", StartLine: 2, EndLine: 2,
		EmbeddingText: "check(): boolean { return true }", Breadcrumb: "src/a.ts > Auth > check",
	}
	r := rec("src/a.ts")
	r.IndexedAt = 42
	if old := mustReplace(t, s, r, method, class); len(old) != 0 {
		t.Fatalf("first replace returned old chunks %v", old)
	}

	got, err := s.ChunksByFile("src/a.ts")
	if err != nil {
		t.Fatal(err)
	}
	if want := []chunk.Chunk{class, method}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ChunksByFile:\n got %+v\nwant %+v", got, want)
	}
	one, err := s.Chunk(method.ID)
	if err != nil || !reflect.DeepEqual(one, method) {
		t.Fatalf("Chunk = %+v, %v", one, err)
	}
	byName, err := s.ChunksByName("check")
	if err != nil || len(byName) != 1 || byName[0].ID != method.ID {
		t.Fatalf("ChunksByName = %+v, %v", byName, err)
	}
	if _, err := s.Chunk("nope"); !errors.Is(err, chunkindex.ErrNotFound) {
		t.Fatalf("missing chunk: %v", err)
	}
	files, err := s.Files()
	if err != nil || !reflect.DeepEqual(files, map[string]chunkindex.FileRecord{"src/a.ts": r}) {
		t.Fatalf("Files = %+v, %v", files, err)
	}

	// A chunk with no relative path takes the file's.
	bare := fn("src/a.ts", "fresh", 10, "")
	bare.RelativePath = ""
	old := mustReplace(t, s, rec("src/a.ts"), bare)
	wantOld := []ChunkSig{
		{ID: class.ID, Breadcrumb: class.Breadcrumb, Name: "Auth", Signature: class.Signature},
		{ID: method.ID, Breadcrumb: method.Breadcrumb, Name: "check", Signature: method.Signature},
	}
	if !reflect.DeepEqual(old, wantOld) {
		t.Fatalf("old sigs:\n got %+v\nwant %+v", old, wantOld)
	}
	if got, _ := s.ChunksByFile("src/a.ts"); len(got) != 1 || got[0].RelativePath != "src/a.ts" {
		t.Fatalf("after replace: %+v", got)
	}
	if f, c, err := s.Stats(); err != nil || f != 1 || c != 1 {
		t.Fatalf("Stats = %d, %d, %v", f, c, err)
	}
	ftsConsistent(t, s)
	if hits := search(t, s, "check boolean", nil); len(hits) != 0 {
		t.Fatalf("replaced chunks still found: %v", hitIDs(hits))
	}
}

func TestReplaceFileRejectsBadInput(t *testing.T) {
	s := openTemp(t)
	for _, p := range []string{"", ".", "/abs.ts", "../up.ts", "a//b.ts", "a/./b.ts", `a\b.ts`} {
		if _, err := s.ReplaceFile(rec(p), nil); err == nil {
			t.Errorf("path %q accepted", p)
		}
	}
	if _, err := s.ReplaceFile(rec("a.ts"), []chunk.Chunk{fn("b.ts", "x", 1, "")}); err == nil {
		t.Error("chunk of another file accepted")
	}
}

func TestFailedReplaceKeepsPreviousState(t *testing.T) {
	s := openWith(t, fn("a.ts", "alpha", 1, "one"), fn("a.ts", "beta", 5, "two"))
	mustReplace(t, s, rec("b.ts"), fn("b.ts", "gamma", 1, "three"))
	if err := s.PutVector("a.ts#alpha@1", "m", []float32{1, 2}); err != nil {
		t.Fatal(err)
	}
	before, _ := s.ChunksByFile("a.ts")

	newRec := rec("a.ts")
	newRec.ContentHash = "changed"
	// The second chunk repeats an id: the UNIQUE constraint fails after the
	// old chunks were deleted and the first new one inserted.
	dup := fn("a.ts", "delta", 1, "")
	bad := []chunk.Chunk{dup, dup}
	if _, err := s.ReplaceFile(newRec, bad); err == nil || !strings.Contains(err.Error(), "store: replace a.ts") {
		t.Fatalf("duplicate ids: err = %v", err)
	}
	// An id already used by another file fails the same way.
	if _, err := s.ReplaceFile(newRec, []chunk.Chunk{fn("a.ts", "delta", 1, ""), {ID: "b.ts#gamma@1", RelativePath: "a.ts"}}); err == nil {
		t.Fatal("id of another file accepted")
	}

	after, _ := s.ChunksByFile("a.ts")
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("chunks changed by a failed replace:\n before %+v\n after %+v", before, after)
	}
	files, _ := s.Files()
	if files["a.ts"].ContentHash != "h-a.ts" {
		t.Fatalf("file record changed by a failed replace: %+v", files["a.ts"])
	}
	if v, err := s.GetVector("a.ts#alpha@1", "m"); err != nil || len(v) != 2 {
		t.Fatalf("vector lost by a failed replace: %v %v", v, err)
	}
	ftsConsistent(t, s)
	if hits := search(t, s, "alpha", nil); len(hits) != 1 {
		t.Fatalf("search after failed replace: %v", hitIDs(hits))
	}
	// The store is still writable.
	mustReplace(t, s, newRec, fn("a.ts", "delta", 1, ""))
}

func TestTouchAndDeleteFile(t *testing.T) {
	s := openWith(t, fn("a.ts", "alpha", 1, "one"))
	mustReplace(t, s, rec("b.ts"), fn("b.ts", "beta", 1, "alpha"))
	if err := s.PutVector("a.ts#alpha@1", "m", []float32{1}); err != nil {
		t.Fatal(err)
	}

	if err := s.TouchFile("a.ts", 999); err != nil {
		t.Fatal(err)
	}
	files, _ := s.Files()
	if got := files["a.ts"]; got.Mtime != 999 || got.ContentHash != "h-a.ts" {
		t.Fatalf("after touch: %+v", got)
	}
	if err := s.TouchFile("nope.ts", 1); !errors.Is(err, chunkindex.ErrNotFound) {
		t.Fatalf("touch unknown: %v", err)
	}

	if err := s.DeleteFile("a.ts"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteFile("never-indexed.ts"); err != nil {
		t.Fatal(err)
	}
	all, _ := s.AllFiles()
	if len(all) != 1 || all[0].Path != "b.ts" {
		t.Fatalf("AllFiles = %+v", all)
	}
	if _, err := s.Chunk("a.ts#alpha@1"); !errors.Is(err, chunkindex.ErrNotFound) {
		t.Fatalf("deleted chunk: %v", err)
	}
	if _, err := s.GetVector("a.ts#alpha@1", "m"); !errors.Is(err, chunkindex.ErrNotFound) {
		t.Fatalf("vector of a deleted chunk: %v", err)
	}
	ftsConsistent(t, s)
	if ids := hitIDs(search(t, s, "alpha", nil)); !slices.Equal(ids, []string{"b.ts#beta@1"}) {
		t.Fatalf("search after delete: %v", ids)
	}
}

func TestSchemaVersionRebuild(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "er", "index.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, rec("a.ts"), fn("a.ts", "alpha", 1, ""))
	s.Close()

	// Same version: the data survives.
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, c, _ := s.Stats(); c != 1 {
		t.Fatalf("reopen lost chunks: %d", c)
	}
	// Another version, plus an object the current schema does not have.
	if _, err := s.db.Exec(`UPDATE meta SET value = '0' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`CREATE TABLE leftover(x)`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if f, c, err := s.Stats(); err != nil || f != 0 || c != 0 {
		t.Fatalf("after rebuild: %d files, %d chunks, %v", f, c, err)
	}
	if n := count(t, s, `SELECT count(*) FROM sqlite_master WHERE name = 'leftover'`); n != 0 {
		t.Fatal("rebuild kept an old table")
	}
	var v string
	if err := s.db.QueryRow(`SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v); err != nil || v != fmt.Sprint(SchemaVersion) {
		t.Fatalf("schema_version = %q, %v", v, err)
	}
	mustReplace(t, s, rec("a.ts"), fn("a.ts", "alpha", 1, ""))
	ftsConsistent(t, s)
}

func TestOpenRefusesForeignDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := sqlitedb.Open(path, sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE precious(x); INSERT INTO precious VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := Open(path); err == nil {
		s.Close()
		t.Fatal("opened another application's database")
	}
	db, _ = sqlitedb.Open(path, sqlitedb.Options{})
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM precious`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("foreign table damaged: %d, %v", n, err)
	}
}

func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "we?ird #dir%20", "index.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Path() != path {
		t.Fatalf("Path() = %q", s.Path())
	}
	mustReplace(t, s, rec("a.ts"), fn("a.ts", "alpha", 1, ""))
	if _, err := filepath.Glob(path); err != nil {
		t.Fatal(err)
	}
	var file string
	if err := s.db.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil || file != path {
		t.Fatalf("database file = %q, %v", file, err)
	}
}

func TestSearchNameAboveBody(t *testing.T) {
	s := openWith(t,
		fn("a.ts", "loadConfig", 1, "return readSettings(path)"),
		fn("a.ts", "readSettings", 10, "// reads the settings file\nreturn parse(fs.readFileSync(p))"),
		fn("a.ts", "unrelated", 20, "return 1"),
	)
	hits := search(t, s, "settings", nil)
	if ids := hitIDs(hits); !slices.Equal(ids, []string{"a.ts#readSettings@10", "a.ts#loadConfig@1"}) {
		t.Fatalf("hits = %v", ids)
	}
	if !(hits[0].Score > hits[1].Score && hits[1].Score > 0) {
		t.Fatalf("scores not descending and positive: %v, %v", hits[0].Score, hits[1].Score)
	}
	if hits[0].Language != "typescript" {
		t.Fatalf("language = %q", hits[0].Language)
	}
}

func TestSearchSplitIdentifiers(t *testing.T) {
	s := openWith(t,
		fn("auth.ts", "validateToken", 1, "return jwt.verify(t)"),
		fn("auth.ts", "tokenize", 10, "return s.split(' ')"),
		fn("auth.ts", "isValid", 20, "return x != null"),
	)
	for _, q := range []string{"validate token", "token validation", "validateToken", "VALIDATE_TOKEN", "validating tokens"} {
		hits := search(t, s, q, nil)
		if len(hits) == 0 || hits[0].Chunk.Name != "validateToken" {
			t.Errorf("%q: hits = %v", q, hitIDs(hits))
		}
	}
	// Partial matches still rank, below the full match.
	if ids := hitIDs(search(t, s, "validate token", nil)); len(ids) != 3 {
		t.Errorf("OR semantics: hits = %v", ids)
	}
}

func TestSearchPathAndLanguageFilters(t *testing.T) {
	s := openTemp(t)
	// Strong matches everywhere except in the filtered-for places, which
	// hold weak (body-only) matches: a post-filter on a Limit-1 result
	// would return nothing.
	strong := func(file string, i int) chunk.Chunk { return fn(file, "refreshSession", i, "refresh session") }
	weak := func(file string) chunk.Chunk { return fn(file, "other", 1, "// calls refresh session later") }
	for i := range 20 {
		mustReplace(t, s, rec(fmt.Sprintf("lib/x%d.ts", i)), strong(fmt.Sprintf("lib/x%d.ts", i), 1))
	}
	mustReplace(t, s, rec("src/auth/session.ts"), weak("src/auth/session.ts"))
	mustReplace(t, s, rec("src/authz.ts"), strong("src/authz.ts", 1))
	mustReplace(t, s, rec("src/ui/view.tsx"), weak("src/ui/view.tsx"))
	js := chunkindex.FileRecord{Path: "scripts/run.js", Language: "javascript"}
	mustReplace(t, s, js, weak("scripts/run.js"))

	tests := []struct {
		paths, langs []string
		want         []string
	}{
		{paths: []string{"src/auth/session.ts"}, want: []string{"src/auth/session.ts"}},
		{paths: []string{"src/auth"}, want: []string{"src/auth/session.ts"}},
		{paths: []string{"src/auth/"}, want: []string{"src/auth/session.ts"}},
		{paths: []string{"./src/auth"}, want: []string{"src/auth/session.ts"}},
		{paths: []string{"src/**/*.tsx"}, want: []string{"src/ui/view.tsx"}},
		{paths: []string{"*.tsx"}, want: []string{"src/ui/view.tsx"}},
		{paths: []string{"*.tsx", "scripts"}, want: []string{"scripts/run.js", "src/ui/view.tsx"}},
		{paths: []string{"src/*/session.ts"}, want: []string{"src/auth/session.ts"}},
		{paths: []string{"src/a*"}, want: []string{"src/auth/session.ts", "src/authz.ts"}},
		{langs: []string{"javascript"}, want: []string{"scripts/run.js"}},
		{paths: []string{"src"}, langs: []string{"javascript"}, want: nil},
	}
	for _, tt := range tests {
		for _, limit := range []int{1, 100} {
			hits := search(t, s, "refresh session", func(q *chunkindex.Query) {
				q.Paths, q.Languages, q.Limit = tt.paths, tt.langs, limit
			})
			var files []string
			for _, h := range hits {
				files = append(files, h.Chunk.RelativePath)
			}
			slices.Sort(files)
			want := tt.want
			if limit == 1 && len(want) > 1 {
				if len(files) != 1 || !slices.Contains(want, files[0]) {
					t.Errorf("paths %q langs %q limit 1: got %q", tt.paths, tt.langs, files)
				}
				continue
			}
			if !slices.Equal(files, want) {
				t.Errorf("paths %q langs %q limit %d: got %q want %q", tt.paths, tt.langs, limit, files, want)
			}
		}
	}
	if _, err := s.Search(chunkindex.Query{Terms: []string{"x"}, Paths: []string{"src/[a"}}); err == nil {
		t.Error("bad glob accepted")
	}
}

func TestSearchInjectionSafe(t *testing.T) {
	s := openWith(t, fn("a.ts", "nearby", 1, "AND OR NOT near"))
	evil := []string{
		`"`, `""`, `"nearby`, `nearby"`, `a"b`, `*`, `near*`, `NEAR`, `NEAR(a b)`, `NEAR("a" "b", 2)`,
		`-`, `-nearby`, `(`, `)`, `(nearby`, `name:nearby`, `{name}:x`, `^nearby`, `AND`, `OR`, `NOT`,
		`a OR b`, `+`, `'`, `;DROP TABLE chunks;--`, "\x00", "",
	}
	for _, e := range evil {
		for _, ts := range [][]string{{e}, {e, "nearby"}, terms.Query(e)} {
			if _, err := s.Search(chunkindex.Query{Terms: ts}); err != nil {
				t.Errorf("terms %q: %v", ts, err)
			}
		}
	}
	// Operators are words, not syntax.
	if ids := hitIDs(search(t, s, "", func(q *chunkindex.Query) { q.Terms = []string{"NEAR"} })); len(ids) != 1 {
		t.Errorf("NEAR as a word: %v", ids)
	}
	if _, err := s.ChunksReferencing(`near" OR "x`, ""); err != nil {
		t.Error(err)
	}
	if hits := search(t, s, "", func(q *chunkindex.Query) { q.Terms = nil }); hits != nil {
		t.Errorf("empty query: %v", hits)
	}
}

func TestChunksReferencing(t *testing.T) {
	s := openWith(t, fn("auth.ts", "validateToken", 1, "return verify(t)"))
	mustReplace(t, s, rec("api.ts"),
		fn("api.ts", "handler", 1, "if (!validateToken(req.token)) throw new Error()"),
		fn("api.ts", "other", 10, "revalidateTokenCache(); validateTokens(); validate(token)"),
		fn("api.ts", "member", 20, "return auth.validateToken;"),
	)
	mustReplace(t, s, rec("x.ts"),
		fn("x.ts", "dollar", 1, "const y = $ + 1"),
		fn("x.ts", "dollar2", 10, "const y = $x + 1"),
		fn("x.ts", "verifier", 20, "verify(x)"),
	)
	tests := []struct {
		name, exclude string
		want          []string
	}{
		{"validateToken", "auth.ts", []string{"api.ts#handler@1", "api.ts#member@20"}},
		{"validateToken", "", []string{"auth.ts#validateToken@1", "api.ts#handler@1", "api.ts#member@20"}},
		{"verify", "", []string{"auth.ts#validateToken@1", "x.ts#verifier@20"}},
		{"$", "", []string{"x.ts#dollar@1"}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		got, err := s.ChunksReferencing(tt.name, tt.exclude)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ChunksReferencing(%q, %q) = %q, want %q", tt.name, tt.exclude, got, tt.want)
		}
	}
}

func TestNeedsEmbedding(t *testing.T) {
	s := openWith(t, fn("a.ts", "a1", 1, ""), fn("a.ts", "a2", 5, ""))
	ids, err := s.NeedsEmbedding()
	if err != nil || !slices.Equal(ids, []string{"a.ts#a1@1", "a.ts#a2@5"}) {
		t.Fatalf("new chunks: %v %v", ids, err)
	}
	if err := s.ClearNeedsEmbedding(ids); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.NeedsEmbedding(); len(ids) != 0 {
		t.Fatalf("after clear: %v", ids)
	}
	if err := s.MarkNeedsEmbedding([]string{"a.ts#a2@5", "unknown"}); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.NeedsEmbedding(); !slices.Equal(ids, []string{"a.ts#a2@5"}) {
		t.Fatalf("after mark: %v", ids)
	}
}

func TestVectors(t *testing.T) {
	s := openWith(t, fn("a.ts", "a1", 1, ""), fn("a.ts", "a2", 5, ""))
	if err := s.PutVectors("m1", []Vector{{"a.ts#a2@5", []float32{0.5, -1}}, {"a.ts#a1@1", []float32{1, 2}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutVector("a.ts#a1@1", "m2", []float32{3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutVector("a.ts#a1@1", "m1", []float32{7, 8}); err != nil {
		t.Fatal(err)
	}
	got, err := s.VectorsByModel("m1")
	want := []Vector{{"a.ts#a1@1", []float32{7, 8}}, {"a.ts#a2@5", []float32{0.5, -1}}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("VectorsByModel = %v, %v", got, err)
	}
	// Table order is not promised: compare by chunk id.
	slices.SortFunc(got, func(a, b Vector) int { return strings.Compare(a.ChunkID, b.ChunkID) })
	for i := range want {
		if got[i].ChunkID != want[i].ChunkID || !nearVector(got[i].Data, want[i].Data) {
			t.Fatalf("VectorsByModel = %v, want %v", got, want)
		}
	}
	if v, err := s.GetVector("a.ts#a1@1", "m2"); err != nil || !nearVector(v, []float32{3, 4, 5}) {
		t.Fatalf("GetVector = %v, %v", v, err)
	}
	if _, err := s.GetVector("a.ts#a2@5", "m2"); !errors.Is(err, chunkindex.ErrNotFound) {
		t.Fatalf("missing vector: %v", err)
	}
	if err := s.PutVector("gone", "m1", []float32{1}); err == nil {
		t.Fatal("vector for a missing chunk accepted")
	}
	// Replacing the file drops its vectors.
	mustReplace(t, s, rec("a.ts"), fn("a.ts", "a1", 1, ""))
	if got, _ := s.VectorsByModel("m1"); len(got) != 0 {
		t.Fatalf("vectors survived replace: %v", got)
	}
}

// One writer and several readers on one Store, and a second Store (as a
// second process would) writing to the same file.
func TestConcurrentAccess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s1, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()

	const files = 30
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	writer := func(s *Store, prefix string) {
		defer wg.Done()
		for i := range files {
			p := fmt.Sprintf("%s/f%d.ts", prefix, i)
			cs := []chunk.Chunk{fn(p, "sharedName", 1, "common words here"), fn(p, fmt.Sprintf("own%d", i), 5, "")}
			if _, err := s.ReplaceFile(rec(p), cs); err != nil {
				errs <- err
				return
			}
			if i%3 == 0 {
				if err := s.DeleteFile(p); err != nil {
					errs <- err
					return
				}
			}
		}
	}
	reader := func(s *Store) {
		defer wg.Done()
		for range 40 {
			hits, err := s.Search(chunkindex.Query{Terms: terms.Query("shared name common"), Limit: 10})
			if err != nil {
				errs <- err
				return
			}
			for _, h := range hits {
				if h.Chunk.Name != "sharedName" && !strings.HasPrefix(h.Chunk.Name, "own") {
					errs <- fmt.Errorf("torn hit %+v", h.Chunk)
					return
				}
			}
			if _, _, err := s.Stats(); err != nil {
				errs <- err
				return
			}
		}
	}
	wg.Add(5)
	go writer(s1, "p1")
	go writer(s2, "p2")
	go reader(s1)
	go reader(s1)
	go reader(s2)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	f, c, err := s1.Stats()
	wantFiles := 2 * (files - files/3)
	if err != nil || f != wantFiles || c != 2*wantFiles {
		t.Fatalf("Stats = %d files, %d chunks, %v; want %d, %d", f, c, err, wantFiles, 2*wantFiles)
	}
	ftsConsistent(t, s2)
	var ok string
	if err := s2.db.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check = %q, %v", ok, err)
	}
}

// Filters rely on a chunk's rowid carrying its file's id: check that it
// holds across re-indexing, deletion and re-adding.
func TestFilterAfterReindex(t *testing.T) {
	s := openTemp(t)
	for _, p := range []string{"a/x.ts", "b/y.ts", "c/z.ts"} {
		mustReplace(t, s, rec(p), fn(p, "shared", 1, ""), fn(p, "sharedToo", 5, ""))
	}
	mustReplace(t, s, rec("b/y.ts"), fn("b/y.ts", "shared", 1, ""), fn("b/y.ts", "sharedThree", 9, ""), fn("b/y.ts", "sharedFour", 12, ""))
	if err := s.DeleteFile("a/x.ts"); err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, rec("d/w.ts"), fn("d/w.ts", "shared", 1, ""))
	mustReplace(t, s, rec("a/x.ts"), fn("a/x.ts", "shared", 1, ""))
	if err := s.Optimize(); err != nil {
		t.Fatal(err)
	}
	ftsConsistent(t, s)
	want := map[string]int{"a": 1, "b": 3, "c": 2, "d": 1}
	for dir, n := range want {
		hits := search(t, s, "shared", func(q *chunkindex.Query) { q.Paths = []string{dir} })
		if len(hits) != n {
			t.Errorf("%s: %d hits, want %d", dir, len(hits), n)
		}
		for _, h := range hits {
			if !strings.HasPrefix(h.Chunk.RelativePath, dir+"/") {
				t.Errorf("%s: hit in %s", dir, h.Chunk.RelativePath)
			}
		}
	}
	var ids []int
	rows, err := s.db.Query(`SELECT id FROM files ORDER BY path`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	if len(ids) != 4 || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != 4 {
		t.Errorf("file ids not unique: %v", ids)
	}
}

func FuzzSearchTerms(f *testing.F) {
	s := openTemp(f)
	mustReplace(f, s, rec("a.ts"), fn("a.ts", "nearby", 1, "AND OR NOT near"))
	for _, seed := range []string{`"`, `NEAR(a b)`, `*`, `-x`, `a:b`, "\x00", `{a}`, `^`} {
		f.Add(seed, "src/**")
	}
	f.Fuzz(func(t *testing.T, term, pattern string) {
		_, err := s.Search(chunkindex.Query{Terms: []string{term, "nearby"}, Paths: []string{pattern}, Languages: []string{term}})
		if err != nil && !strings.Contains(err.Error(), "bad path pattern") {
			t.Fatalf("term %q pattern %q: %v", term, pattern, err)
		}
		if _, err := s.ChunksReferencing(term, pattern); err != nil {
			t.Fatalf("ChunksReferencing(%q): %v", term, err)
		}
	})
}

// aFiles names the first n files of directory a in TestFilterForms, each
// its own run of file ids.
func aFiles(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("a/f%02d.ts", 2*i))
	}
	return out
}

// Every form a file filter takes (none, rowid ranges, a set of file ids)
// must select exactly the filtered files' chunks.
func TestFilterForms(t *testing.T) {
	s := openTemp(t)
	// Alternating directories give one id run per file; the "c" block is
	// one run.
	for i := range 40 {
		dir := []string{"a", "b"}[i%2]
		p := fmt.Sprintf("%s/f%02d.ts", dir, i)
		mustReplace(t, s, rec(p), fn(p, "common", 1, ""))
	}
	for i := range 5 {
		p := fmt.Sprintf("c/f%d.ts", i)
		mustReplace(t, s, rec(p), fn(p, "common", 1, ""))
	}
	tests := []struct {
		paths []string
		form  string // "", "BETWEEN" or "IN"
		files int
	}{
		{[]string{"*.ts"}, "", 45},
		{[]string{"c"}, "BETWEEN", 5},
		{[]string{"c", "a/f00.ts"}, "BETWEEN", 6},
		{[]string{"a"}, "IN", 20},
		{[]string{"a", "c"}, "IN", 25},
		{[]string{"nothing"}, "none", 0},
		{aFiles(maxRanges), "BETWEEN", maxRanges},
		{aFiles(maxRanges + 1), "IN", maxRanges + 1},
	}
	for _, tt := range tests {
		q := chunkindex.Query{Terms: []string{"common"}, Paths: tt.paths, Limit: 100}
		var fargs []any
		var ors []string
		for _, p := range tt.paths {
			ors = append(ors, "path_match(?, f.path)")
			fargs = append(fargs, p)
		}
		cond, _, ok, err := s.restriction(" AND ("+strings.Join(ors, " OR ")+")", fargs)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.form == "none" && ok, tt.form == "" && cond != "", tt.form != "" && tt.form != "none" && !strings.Contains(cond, tt.form):
			t.Errorf("%q: restriction %q (ok %v), want %s", tt.paths, cond, ok, tt.form)
		}
		hits, err := s.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != tt.files {
			t.Errorf("%q: %d hits, want %d", tt.paths, len(hits), tt.files)
		}
		for _, h := range hits {
			in := false
			for _, p := range tt.paths {
				in = in || chunkindex.PathMatch(p, h.Chunk.RelativePath)
			}
			if !in {
				t.Errorf("%q: hit in %s", tt.paths, h.Chunk.RelativePath)
			}
		}
	}
}

// A chunk re-inserted with the same id must get a new seq (the embedding
// side relies on it to drop vectors computed from replaced text), and its
// seq must carry its file's id.
func TestReplacedChunkGetsNewSeq(t *testing.T) {
	s := openWith(t, fn("z.ts", "zeta", 1, ""))
	c := fn("a.ts", "alpha", 1, "")
	seqs := map[int64]bool{}
	for i := range 5 {
		mustReplace(t, s, rec("a.ts"), c)
		var seq, fileID int64
		if err := s.db.QueryRow(`SELECT c.seq, f.id FROM chunks c JOIN files f ON f.path = ?
			WHERE c.id = ?`, "a.ts", c.ID).Scan(&seq, &fileID); err != nil {
			t.Fatal(err)
		}
		if seqs[seq] {
			t.Fatalf("replacement %d reused seq %#x", i, seq)
		}
		seqs[seq] = true
		if seq>>fileShift != fileID || seq&(1<<chunkBits-1) != 0 {
			t.Fatalf("seq %#x does not carry file id %d and ordinal 0", seq, fileID)
		}
	}
	ftsConsistent(t, s)
}

// TermStats are cached between queries; a commit by any connection — this
// store's writer or another process's (here a second Store on the same
// file) — must be seen by the next lookup.
func TestTermStatsFollowWrites(t *testing.T) {
	s := openWith(t, fn("a.ts", "parseToken", 1, "return token"))
	check := func(when string, wantChunks, wantDF int) {
		t.Helper()
		st, err := s.TermStats([]string{"token", "absent"})
		if err != nil {
			t.Fatal(err)
		}
		if st.Chunks != wantChunks || st.DocFreq["token"] != wantDF {
			t.Errorf("%s: %d chunks, df(token) %d; want %d and %d", when, st.Chunks, st.DocFreq["token"], wantChunks, wantDF)
		}
		if _, ok := st.DocFreq["absent"]; ok {
			t.Errorf("%s: a term not in the index has a frequency", when)
		}
	}
	check("first", 1, 1)
	check("cached", 1, 1)
	mustReplace(t, s, rec("b.ts"), fn("b.ts", "verifyToken", 1, "return token"), fn("b.ts", "other", 5, "return 1"))
	check("after this store wrote", 3, 2)

	other, err := Open(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	mustReplace(t, other, rec("c.ts"), fn("c.ts", "tokenize", 1, "return token"))
	check("after another connection wrote", 4, 3)
	if err := other.DeleteFile("b.ts"); err != nil {
		t.Fatal(err)
	}
	check("after another connection deleted", 2, 2)
}

// TestBatch: a batch's files are all visible after Commit and none after
// Rollback; new files take consecutive ids after the highest one, a file
// replaced twice in one batch moves two generations, and the full-text
// rows stay one per chunk.
func TestBatch(t *testing.T) {
	s := openWith(t, fn("a.ts", "alpha", 1, "one"))

	b, err := s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"b.ts", "c.ts"} {
		if _, err := b.ReplaceFile(rec(f), []chunk.Chunk{fn(f, "beta", 1, "two")}, nil); err != nil {
			t.Fatal(err)
		}
	}
	b.Rollback()
	if n := count(t, s, `SELECT count(*) FROM files`); n != 1 {
		t.Fatalf("after a rollback %d files, want 1", n)
	}

	if b, err = s.Begin(); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		file string
		name string
	}{{"b.ts", "beta"}, {"a.ts", "alpha2"}, {"c.ts", "gamma"}, {"a.ts", "alpha3"}}
	for _, st := range steps {
		if _, err := b.ReplaceFile(rec(st.file), []chunk.Chunk{fn(st.file, st.name, 1, "x")}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.TouchFile("b.ts", 777); err != nil {
		t.Fatal(err)
	}
	if b.Files() != 5 {
		t.Fatalf("batch counted %d writes, want 5", b.Files())
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"a.ts": {1, 2}, "b.ts": {2, 0}, "c.ts": {3, 0}}
	for f, w := range want {
		var id, gen int
		if err := s.db.QueryRow(`SELECT id, generation FROM files WHERE path = ?`, f).Scan(&id, &gen); err != nil {
			t.Fatal(err)
		}
		if id != w[0] || gen != w[1] {
			t.Errorf("%s: id %d generation %d, want %d and %d", f, id, gen, w[0], w[1])
		}
	}
	if got, _ := s.ChunksByFile("a.ts"); len(got) != 1 || got[0].Name != "alpha3" {
		t.Errorf("a.ts after two replacements in one batch: %+v", got)
	}
	if files, _ := s.Files(); files["b.ts"].Mtime != 777 {
		t.Errorf("b.ts mtime %d after the touch, want 777", files["b.ts"].Mtime)
	}
	ftsConsistent(t, s)
}

// nearVector: got is want as the store's int8 form keeps it, each value
// within half a step (the largest magnitude ÷ 254).
func nearVector(got, want []float32) bool {
	if len(got) != len(want) {
		return false
	}
	var top float64
	for _, w := range want {
		top = math.Max(top, math.Abs(float64(w)))
	}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > top/254+1e-6 {
			return false
		}
	}
	return true
}

func TestVectorQuantisation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	unit := func(dim int) []float32 {
		v := make([]float32, dim)
		var n float64
		for i := range v {
			v[i] = float32(rng.NormFloat64())
			n += float64(v[i]) * float64(v[i])
		}
		for i := range v {
			v[i] /= float32(math.Sqrt(n))
		}
		return v
	}
	cos := func(a, b []float32) float64 {
		var d, na, nb float64
		for i := range a {
			d += float64(a[i]) * float64(b[i])
			na += float64(a[i]) * float64(a[i])
			nb += float64(b[i]) * float64(b[i])
		}
		return d / math.Sqrt(na*nb)
	}
	tests := []struct {
		name string
		v    []float32
	}{
		{"zero", make([]float32, 8)},
		{"one value", []float32{-3}},
		{"exact steps", []float32{127, -127, 0, 1, -64}},
		{"unit 256", unit(256)},
		{"unit 1536", unit(1536)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := encodeVector(tt.v)
			if len(b) != 4+len(tt.v) {
				t.Fatalf("%d bytes for %d values", len(b), len(tt.v))
			}
			got, err := decodeVector(b, len(tt.v))
			if err != nil {
				t.Fatal(err)
			}
			if !nearVector(got, tt.v) {
				t.Fatalf("decoded %v, want about %v", got, tt.v)
			}
			if !slices.ContainsFunc(tt.v, func(f float32) bool { return f != 0 }) {
				return
			}
			if c := cos(got, tt.v); c < 0.9999 {
				t.Fatalf("cosine with the original %.6f", c)
			}
		})
	}
	// The cosine of two vectors moves by far less than typical neighbour gaps.
	a, b := unit(256), unit(256)
	qa, _ := decodeVector(encodeVector(a), 256)
	qb, _ := decodeVector(encodeVector(b), 256)
	if d := math.Abs(cos(qa, qb) - cos(a, b)); d > 0.005 {
		t.Fatalf("cosine moved by %.4f", d)
	}
	if _, err := decodeVector(make([]byte, 7), 4); err == nil {
		t.Fatal("a short vector decoded")
	}
}

// TestOptimizeFreesPages: a new index is created with incremental
// auto-vacuum, and Optimize hands the pages freed by deletes and the
// full-text merge back to the file system.
func TestOptimizeFreesPages(t *testing.T) {
	s := openTemp(t)
	if n := count(t, s, `PRAGMA auto_vacuum`); n != 2 {
		t.Fatalf("auto_vacuum = %d, want 2 (incremental)", n)
	}
	for f := range 50 {
		p := fmt.Sprintf("f%d.ts", f)
		mustReplace(t, s, rec(p), fn(p, "alpha", 1, strings.Repeat("call();\n", 500)))
	}
	for f := range 40 {
		if err := s.DeleteFile(fmt.Sprintf("f%d.ts", f)); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, s, `PRAGMA freelist_count`); n == 0 {
		t.Fatal("no free pages after deleting most files")
	}
	if err := s.Optimize(); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `PRAGMA freelist_count`); n != 0 {
		t.Errorf("%d free pages after Optimize", n)
	}
	if hits := search(t, s, "alpha", nil); len(hits) != 10 {
		t.Errorf("%d hits after Optimize, want 10", len(hits))
	}
	ftsConsistent(t, s)
}

// TestDamagedSchemaIsScrys: a scry index whose meta table's page is zeroed
// fails Open with ErrDamagedIndex (its header says it is scry's), so that a
// caller may rebuild it.
func TestDamagedSchemaIsScrys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, rec("a.ts"), fn("a.ts", "alpha", 1, ""))
	root := count(t, s, `SELECT rootpage FROM sqlite_master WHERE name = 'meta'`)
	if err := s.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 4096), int64(root-1)*4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if s, err := Open(path); err == nil {
		s.Close()
		t.Fatal("an index with its meta page zeroed opened")
	} else if !errors.Is(err, ErrDamagedIndex) || !IsCorrupt(err) {
		t.Fatalf("Open: %v, want ErrDamagedIndex and a corruption", err)
	}
}

// TestIndexFilesArePrivate: the index holds the workspace's full source, so
// its file, its -wal and -shm files and the folder it creates are its
// owner's only (they were 0644 in 0755 folders), and an index an older
// scry left readable is closed on its next open.
func TestIndexFilesArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "indexes", "abc")
	path := filepath.Join(dir, "index.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, rec("a.ts"), fn("a.ts", "secret", 1, "return 'sk-live';"))
	wantMode := func(p string, want os.FileMode) {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(p), got, want)
		}
	}
	wantMode(dir, 0o700)
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		wantMode(p, 0o600)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wantMode(path, 0o600)
}

// TestEmbeddedChunksReferencingInBulk: past perNameReferences names the
// cascade's lookup is one pass over the embedded chunks; it finds what a
// query per name finds (whole identifiers, private names, each name's own
// file left out), and only chunks that are embedded.
func TestEmbeddedChunksReferencingInBulk(t *testing.T) {
	s := openTemp(t)
	refs := map[string]string{}
	for i := range perNameReferences + 10 {
		file := fmt.Sprintf("f%d.ts", i)
		name := fmt.Sprintf("fn%d", i)
		refs[name] = file
		body := fmt.Sprintf("return fn%d(1) + fn%dx() + this.#p%d;", i+1, i, i)
		mustReplace(t, s, rec(file), fn(file, name, 1, body))
	}
	refs["#p3"] = "nowhere.ts"
	unembedded := "f7.ts#fn7@1"
	all, err := s.NeedsEmbedding()
	if err != nil {
		t.Fatal(err)
	}
	var embedded []string
	for _, id := range all {
		if id != unembedded {
			embedded = append(embedded, id)
		}
	}
	if err := s.ClearNeedsEmbedding(embedded); err != nil {
		t.Fatal(err)
	}
	var want []string
	for name, file := range refs {
		ids, err := s.ChunksReferencing(name, file)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if id != unembedded {
				want = append(want, id)
			}
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	got, err := s.EmbeddedChunksReferencing(refs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("in one pass: %q\nname by name: %q", got, want)
	}
	if !slices.Contains(got, "f3.ts#fn3@1") || slices.Contains(got, unembedded) {
		t.Errorf("want f3.ts (fn4, #p3) and not the unembedded f7.ts: %q", got)
	}
}
