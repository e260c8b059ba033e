package store

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

func TestBreadcrumbEncoding(t *testing.T) {
	for _, tt := range []struct {
		name, b, rel, parent, chunk string
		want                        any // the stored form
	}{
		{"top level", "src/a.ts > f", "src/a.ts", "", "f", nil},
		{"child", "src/a.ts > C > m", "src/a.ts", "C", "m", ""},
		{"grandchild", "src/a.ts > N > C > m", "src/a.ts", "C", "m", "N > C"},
		{"top level with a parent name", "src/a.ts > f", "src/a.ts", "P", "f", nil},
		{"empty parent name", "src/a.ts >  > m", "src/a.ts", "", "m", ""},
		{"empty middle, other parent", "src/a.ts >  > m", "src/a.ts", "C", "m", []byte("src/a.ts >  > m")},
		{"other path", "lib/b.ts > f", "src/a.ts", "", "f", []byte("lib/b.ts > f")},
		{"other name", "src/a.ts > g", "src/a.ts", "", "f", []byte("src/a.ts > g")},
		{"empty", "", "src/a.ts", "", "f", []byte("")},
		{"name holds the separator", "src/a.ts > a > b", "src/a.ts", "", "a > b", nil},
		{"path and name overlap", "a > b", "a", "", "a > b", []byte("a > b")},
		{"unicode", "src/ü.ts > Ä > ß", "src/ü.ts", "Ä", "ß", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			enc := encodeBreadcrumb(tt.b, tt.rel, tt.parent, tt.chunk)
			if !reflect.DeepEqual(enc, tt.want) {
				t.Errorf("stored as %#v, want %#v", enc, tt.want)
			}
			got, err := decodeBreadcrumb(enc, tt.rel, tt.parent, tt.chunk)
			if err != nil || got != tt.b {
				t.Errorf("reads back as %q, %v", got, err)
			}
		})
	}
	if _, err := decodeBreadcrumb(int64(1), "a", "", "b"); err == nil {
		t.Error("an integer breadcrumb decoded without error")
	}
}

// TestDerivedColumnsRoundTrip: chunks whose relative path, absolute path
// and breadcrumb are stored in each of their forms read back equal through
// every read, and the common forms take no space in the row.
func TestDerivedColumnsRoundTrip(t *testing.T) {
	s := openTemp(t)
	mk := func(id, kind, name, parent, parentID, crumb string, depth, start, end int) chunk.Chunk {
		src := kind + " " + name + "() { work() }"
		return chunk.Chunk{
			ID: id, FilePath: "/ws/src/a.ts", RelativePath: "src/a.ts", NodeKind: kind, Name: name,
			ParentName: parent, ParentChunkID: parentID, Depth: depth, Signature: kind + " " + name + "()",
			FullSource: src, EmbeddingText: src, StartLine: start, EndLine: end, Breadcrumb: crumb,
		}
	}
	ns := mk("ns", "namespace", "N", "", "", "src/a.ts > N", 0, 1, 20)
	ns.ChildChunkIDs = []string{"cls"}
	ns.EmbeddingText = "namespace N { ... }"
	cls := mk("cls", "class", "C", "N", "ns", "src/a.ts > N > C", 1, 2, 10)
	cls.ChildChunkIDs = []string{"m"}
	cls.EmbeddingText = "class C { ... }"
	m := mk("m", "method", "m", "C", "cls", "src/a.ts > N > C > m", 2, 3, 5)
	odd := mk("odd", "function", "odd", "", "", "somewhere else > odd", 0, 21, 22)
	elsewhere := mk("elsewhere", "function", "elsewhere", "", "", "src/a.ts > elsewhere", 0, 23, 24)
	elsewhere.FilePath = "/other/root/src/a.ts"
	noPath := mk("nopath", "function", "noPath", "", "", "src/a.ts > noPath", 0, 25, 26)
	noPath.RelativePath = "" // stored under the file's path
	want := []chunk.Chunk{ns, cls, m, odd, elsewhere, noPath}
	mustReplace(t, s, rec("src/a.ts"), want...)
	mustReplace(t, s, rec("src/b.ts"), fn("src/b.ts", "other", 1, "m()"))
	want[5].RelativePath = "src/a.ts"

	got, err := s.ChunksByFile("src/a.ts")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ChunksByFile = %v\n got %+v\nwant %+v", err, got, want)
	}
	ids := []string{"ns", "cls", "m", "odd", "elsewhere", "nopath"}
	byID, err := s.ChunksByIDs(ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if one, err := s.Chunk(w.ID); err != nil || !reflect.DeepEqual(one, w) {
			t.Errorf("Chunk(%s) = %+v, %v", w.ID, one, err)
		}
		if !reflect.DeepEqual(byID[w.ID], w) {
			t.Errorf("ChunksByIDs[%s] = %+v", w.ID, byID[w.ID])
		}
		named, err := s.ChunksByName(w.Name)
		if err != nil || len(named) != 1 || !reflect.DeepEqual(named[0], w) {
			t.Errorf("ChunksByName(%s) = %+v, %v", w.Name, named, err)
		}
		syms, err := s.FindSymbols(SymbolQuery{Name: w.Name, Languages: []string{"typescript"}, Paths: []string{"src/a.ts"}})
		if err != nil || len(syms) != 1 || !reflect.DeepEqual(syms[0], w) {
			t.Errorf("FindSymbols(%s) = %+v, %v", w.Name, syms, err)
		}
	}
	light := func(c chunk.Chunk) chunk.Chunk {
		c.FullSource = ""
		return c
	}
	named, err := s.ChunksNamed([]string{"m", "odd", "other"}, 10)
	if err != nil || len(named) != 3 || !reflect.DeepEqual(named[:2], []chunk.Chunk{light(m), light(odd)}) ||
		named[2].RelativePath != "src/b.ts" || named[2].FilePath != "/ws/src/b.ts" {
		t.Errorf("ChunksNamed = %+v, %v", named, err)
	}
	defs, err := s.TopLevelDefinitions("src/a.ts", []string{"namespace", "class", "method", "function"}, 10)
	if want := []chunk.Chunk{light(ns), light(cls), light(odd), light(elsewhere), light(want[5])}; err != nil || !reflect.DeepEqual(defs, want) {
		t.Errorf("TopLevelDefinitions = %v\n got %+v\nwant %+v", err, defs, want)
	}
	for _, lightRead := range []bool{false, true} {
		// Every leaf's text says "work" (the containers' collapsed text does not).
		hits := search(t, s, "work", func(q *chunkindex.Query) { q.Light = lightRead; q.Paths = []string{"src/a.ts"} })
		if len(hits) != 4 {
			t.Fatalf("light %v: %d hits", lightRead, len(hits))
		}
		for _, h := range hits {
			w := want[slices.IndexFunc(want, func(c chunk.Chunk) bool { return c.ID == h.Chunk.ID })]
			lang := "typescript"
			if lightRead {
				w, lang = light(w), ""
			}
			if !reflect.DeepEqual(h.Chunk, w) || h.Language != lang {
				t.Errorf("light %v: hit %+v (%q)", lightRead, h.Chunk, h.Language)
			}
		}
	}
	old := mustReplace(t, s, rec("src/a.ts"))
	if len(old) != len(want) {
		t.Fatalf("%d old signatures", len(old))
	}
	for i, o := range old {
		if w := want[i]; o != (ChunkSig{ID: w.ID, Breadcrumb: w.Breadcrumb, Name: w.Name, Signature: w.Signature}) {
			t.Errorf("old signature %+v, want of %+v", o, w)
		}
	}

	// What the row holds: the shared absolute path once, on the file's
	// row, and a breadcrumb only where it is not derived.
	mustReplace(t, s, rec("src/a.ts"), want...)
	if n := count(t, s, `SELECT count(*) FROM chunks WHERE file_path IS NOT NULL`); n != 1 {
		t.Errorf("%d chunks store their absolute path, want 1", n)
	}
	forms := map[string]string{}
	rows, err := s.db.Query(`SELECT id, CASE WHEN breadcrumb IS NULL THEN 'null' WHEN typeof(breadcrumb) = 'blob' THEN 'blob'
		ELSE 'text ' || breadcrumb END FROM chunks`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, form string
		if err := rows.Scan(&id, &form); err != nil {
			t.Fatal(err)
		}
		forms[id] = form
	}
	wantForms := map[string]string{"ns": "null", "cls": "text ", "m": "text N > C", "odd": "blob",
		"elsewhere": "null", "nopath": "null", "src/b.ts#other@1": "null"}
	if !reflect.DeepEqual(forms, wantForms) {
		t.Errorf("breadcrumbs stored as %v, want %v", forms, wantForms)
	}
}

// TestLineOrder: reads in line order give start line, depth, then insertion
// order, whether or not a file's chunks were given in that order, and a
// limit keeps the first ones.
func TestLineOrder(t *testing.T) {
	s := openTemp(t)
	c := func(name string, line, depth int) chunk.Chunk {
		ch := fn("a.ts", name, line, "")
		ch.Depth = depth
		if depth > 0 {
			ch.ParentName = "P"
			ch.Breadcrumb = "a.ts > P > " + name
		}
		return ch
	}
	kinds := []string{"function"}
	for _, tt := range []struct {
		name    string
		chunks  []chunk.Chunk
		ordered bool
	}{
		{"in order", []chunk.Chunk{c("a", 1, 0), c("b", 1, 1), c("c", 2, 1), c("d", 5, 0), c("e", 5, 0)}, true},
		{"a deeper chunk before a shallower one on its line", []chunk.Chunk{c("a", 1, 0), c("b", 5, 1), c("c", 5, 0), c("d", 6, 2)}, false},
		{"later lines first", []chunk.Chunk{c("e", 9, 0), c("d", 7, 1), c("c", 7, 0), c("b", 3, 0), c("a", 1, 1)}, false},
		{"one chunk", []chunk.Chunk{c("a", 3, 0)}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mustReplace(t, s, rec("a.ts"), tt.chunks...)
			if got := count(t, s, `SELECT line_ordered FROM files WHERE path = 'a.ts'`); got != map[bool]int{false: 0, true: 1}[tt.ordered] {
				t.Errorf("line_ordered = %d", got)
			}
			want := slices.Clone(tt.chunks)
			sort.SliceStable(want, func(i, j int) bool {
				a, b := want[i], want[j]
				if a.StartLine != b.StartLine {
					return a.StartLine < b.StartLine
				}
				return a.Depth < b.Depth
			})
			got, err := s.ChunksByFile("a.ts")
			if err != nil || !slices.Equal(chunkNames(got), chunkNames(want)) {
				t.Errorf("ChunksByFile = %v, %v; want %v", chunkNames(got), err, chunkNames(want))
			}
			var shallow []chunk.Chunk
			for _, w := range want {
				if w.Depth <= 1 {
					shallow = append(shallow, w)
				}
			}
			for limit := range len(shallow) + 2 {
				defs, err := s.TopLevelDefinitions("a.ts", kinds, limit)
				if w := shallow[:min(limit, len(shallow))]; err != nil || !slices.Equal(chunkNames(defs), chunkNames(w)) {
					t.Errorf("TopLevelDefinitions limit %d = %v, %v; want %v", limit, chunkNames(defs), err, chunkNames(w))
				}
			}
		})
	}
}

// TestFileIDReused: a new file may take the id of a deleted one (the
// highest); none of the deleted file's chunks, full-text rows or vectors
// come back with it.
func TestFileIDReused(t *testing.T) {
	s := openWith(t, fn("a.ts", "alpha", 1, "x()"))
	mustReplace(t, s, rec("b.ts"), fn("b.ts", "beta", 1, "y()"), fn("b.ts", "gamma", 5, "z()"))
	if err := s.PutVector("b.ts#beta@1", "m", []float32{1, 0}); err != nil {
		t.Fatal(err)
	}
	var before int64
	if err := s.db.QueryRow(`SELECT id FROM files WHERE path = 'b.ts'`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteFile("b.ts"); err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, rec("c.ts"), fn("c.ts", "delta", 1, "w()"))
	var after int64
	if err := s.db.QueryRow(`SELECT id FROM files WHERE path = 'c.ts'`).Scan(&after); err != nil || after != before {
		t.Fatalf("c.ts has id %d (%v), want the deleted b.ts's %d", after, err, before)
	}
	got, err := s.ChunksByFile("c.ts")
	if err != nil || len(got) != 1 || got[0].Name != "delta" {
		t.Fatalf("ChunksByFile(c.ts) = %+v, %v", got, err)
	}
	if got, err := s.ChunksByFile("b.ts"); err != nil || len(got) != 0 {
		t.Fatalf("ChunksByFile(b.ts) = %+v, %v", got, err)
	}
	if n := count(t, s, `SELECT count(*) FROM chunks`); n != 2 {
		t.Errorf("%d chunks, want 2", n)
	}
	if n, err := s.VectorCount("m"); err != nil || n != 0 {
		t.Errorf("%d vectors (%v), want 0", n, err)
	}
	ftsConsistent(t, s)
}

func TestChunkIDsFiltered(t *testing.T) {
	s := openWith(t, fn("src/a.ts", "alpha", 1, ""), fn("src/a.ts", "beta", 5, ""))
	js := rec("lib/b.js")
	js.Language = "javascript"
	cls := fn("lib/b.js", "Gamma", 1, "")
	cls.NodeKind = "class"
	mustReplace(t, s, js, cls, fn("lib/b.js", "delta", 9, ""))
	mustReplace(t, s, rec("src/c.ts"))
	for _, tt := range []struct {
		paths, langs, kinds []string
		want                []string
	}{
		{nil, nil, nil, nil},
		{[]string{"src"}, nil, nil, []string{"src/a.ts#alpha@1", "src/a.ts#beta@5"}},
		{nil, []string{"javascript"}, nil, []string{"lib/b.js#Gamma@1", "lib/b.js#delta@9"}},
		{nil, nil, []string{"class"}, []string{"lib/b.js#Gamma@1"}},
		{[]string{"*.ts", "lib"}, []string{"typescript"}, []string{"function"}, []string{"src/a.ts#alpha@1", "src/a.ts#beta@5"}},
		{[]string{"nowhere"}, nil, nil, []string{}},
	} {
		got, err := s.ChunkIDsFiltered(tt.paths, tt.langs, tt.kinds)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ChunkIDsFiltered(%q, %q, %q) = %q, want %q", tt.paths, tt.langs, tt.kinds, got, tt.want)
		}
	}
}

// TestImportsRoundTrip: each chunk reads back its own import statements, in
// its order, from the one list its file's row keeps.
func TestImportsRoundTrip(t *testing.T) {
	s := openTemp(t)
	long := "import {\n" + strings.Repeat("  name,\n", 100) + "} from 'x';"
	for _, tt := range []struct {
		name    string
		imports [][]string // per chunk
	}{
		{"none", [][]string{nil, {}}},
		{"shared", [][]string{{"import a from 'a';", "import b from 'b';"}, {"import b from 'b';"}, nil, {"import a from 'a';"}}},
		{"repeated in one chunk", [][]string{{"import a from 'a';", "import a from 'a';"}}},
		{"odd bytes and lengths", [][]string{{"", "import \x00 from '\xff';", long}, {long, ""}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var cs []chunk.Chunk
			for i, imp := range tt.imports {
				c := fn("a.ts", fmt.Sprintf("f%d", i), 1+3*i, "")
				c.RelevantImports = imp
				cs = append(cs, c)
			}
			mustReplace(t, s, rec("a.ts"), cs...)
			other := fn("b.ts", "g", 1, "")
			other.RelevantImports = []string{"import z from 'z';"}
			mustReplace(t, s, rec("b.ts"), other)
			got, err := s.ChunksByFile("a.ts")
			if err != nil || len(got) != len(cs) {
				t.Fatalf("ChunksByFile = %d chunks, %v", len(got), err)
			}
			for i, c := range got {
				want := tt.imports[i]
				if len(want) == 0 {
					want = nil // an empty list reads back nil, as the chunker leaves it
				}
				if !reflect.DeepEqual(c.RelevantImports, want) {
					t.Errorf("chunk %d: imports %q, want %q", i, c.RelevantImports, want)
				}
			}
			if b, err := s.Chunk(other.ID); err != nil || !reflect.DeepEqual(b.RelevantImports, other.RelevantImports) {
				t.Errorf("b.ts: imports %q, %v", b.RelevantImports, err)
			}
		})
	}
	if _, err := decodeImports([]byte{5}, importList([]string{"a", "b"})); err == nil {
		t.Error("a reference past the file's list decoded without error")
	}
}

func TestSignatureEncoding(t *testing.T) {
	pad := strings.Repeat("é", chunkindex.LightText/2-3) // chunkindex.LightText-6 bytes of two-byte characters
	for _, tt := range []struct {
		name, sig, text string
		want            any
	}{
		{"first line", "function f(a)", "function f(a) {\n  return a;\n}", int64(13)},
		{"after the JSDoc", "f(a)", "/** Doc. */\nf(a) {}", int64(12)<<sigLenBits | 4},
		{"collapsed whitespace", "function f(a, b)", "function f(a,\n  b) {}", "function f(a, b)"},
		{"empty", "", "anything", ""},
		{"numeric", "123", "x = 123", int64(4)<<sigLenBits | 3},
		{"numeric, not found", "123", "x = 12", "123"},
		{"ends at the searched bytes", "f()", pad + "ab f()", int64(chunkindex.LightText-3)<<sigLenBits | 3},
		{"past the searched bytes", "f()", pad + "abc f()", "f()"},
		{"unicode", "fü()", "// ß\nfü() {}", int64(6)<<sigLenBits | 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			enc := encodeSignature(tt.sig, tt.text)
			if !reflect.DeepEqual(enc, tt.want) {
				t.Errorf("stored as %#v, want %#v", enc, tt.want)
			}
			if got, err := decodeSignature(enc, tt.text); err != nil || got != tt.sig {
				t.Errorf("reads back as %q, %v", got, err)
			}
			// A light read holds the text's first chunkindex.LightText characters.
			if got, err := decodeSignature(enc, firstRunes(tt.text, chunkindex.LightText)); err != nil || got != tt.sig {
				t.Errorf("light read: reads back as %q, %v", got, err)
			}
		})
	}
	if _, err := decodeSignature(int64(100)<<sigLenBits|5, "short"); err == nil {
		t.Error("a signature past its text decoded without error")
	}
}

// TestSignatureRoundTrip: signatures stored in both forms read back through
// full and light reads and as the old signatures of a replaced file.
func TestSignatureRoundTrip(t *testing.T) {
	s := openTemp(t)
	inText := fn("a.ts", "inText", 1, "work()")
	collapsed := fn("a.ts", "collapsed", 5, "work()")
	collapsed.Signature = "function  collapsed ( )" // not in its text as written
	late := fn("a.ts", "late", 9, strings.Repeat("ü", chunkindex.LightText)+"\n  work()")
	late.Signature = "work()" // in its text, past the first chunkindex.LightText bytes
	want := []chunk.Chunk{inText, collapsed, late}
	mustReplace(t, s, rec("a.ts"), want...)
	if n := count(t, s, `SELECT count(*) FROM chunks WHERE typeof(signature) = 'integer'`); n != 1 {
		t.Errorf("%d signatures stored as places in the text, want 1", n)
	}
	got, err := s.ChunksByFile("a.ts")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ChunksByFile: %v", err)
	}
	for _, h := range search(t, s, "work", func(q *chunkindex.Query) { q.Light = true }) {
		w := want[slices.IndexFunc(want, func(c chunk.Chunk) bool { return c.ID == h.Chunk.ID })]
		if h.Chunk.Signature != w.Signature {
			t.Errorf("light read of %s: signature %q", w.Name, h.Chunk.Signature)
		}
	}
	old := mustReplace(t, s, rec("a.ts"))
	for i, o := range old {
		if o.Signature != want[i].Signature {
			t.Errorf("old signature of %s: %q", want[i].Name, o.Signature)
		}
	}
}

// TestChunksNamedFindsAssignedDefinitions: a function assigned to a dotted
// path (Mocha.prototype.retries = function …) is named by the path, and
// defines its last name; asked for that name, ChunksNamed returns it after
// the chunks named exactly so, and a limit keeps the exact ones.
func TestChunksNamedFindsAssignedDefinitions(t *testing.T) {
	s := openTemp(t)
	mustReplace(t, s, rec("a/mocha.js"),
		fn("a/mocha.js", "Mocha.prototype.retries", 1, "this._retries = n"),
		fn("a/mocha.js", "Mocha.retriesOff", 5, "x"),
		fn("a/mocha.js", "exports.retries", 9, "y"))
	mustReplace(t, s, rec("z/runner.ts"),
		fn("z/runner.ts", "retries", 1, "z"),
		fn("z/runner.ts", "prototype", 5, "z"))
	for _, tt := range []struct {
		asked []string
		limit int
		want  []string
	}{
		{[]string{"retries"}, 10, []string{"retries", "Mocha.prototype.retries", "exports.retries"}},
		{[]string{"retries"}, 1, []string{"retries"}},
		{[]string{"retriesOff"}, 10, []string{"Mocha.retriesOff"}},
		// Only the last name is defined: the owners are not.
		{[]string{"Mocha"}, 10, nil},
		{[]string{"prototype"}, 10, []string{"prototype"}},
		{[]string{"Mocha.prototype.retries"}, 10, []string{"Mocha.prototype.retries"}},
	} {
		got, err := s.ChunksNamed(tt.asked, tt.limit)
		if err != nil || !reflect.DeepEqual(chunkNames(got), tt.want) {
			t.Errorf("ChunksNamed(%q, %d) = %q, %v; want %q", tt.asked, tt.limit, chunkNames(got), err, tt.want)
		}
	}
}

// chunkNames are the chunks' names in order.
func chunkNames(cs []chunk.Chunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}
