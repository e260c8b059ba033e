package chunk_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkcheck"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/testkit"
)

// structural are the rules that must hold on any input at all.
var structural = map[int]bool{
	chunkcheck.RuleCoverage: true, chunkcheck.RuleOverlap: true, chunkcheck.RuleFidelity: true,
	chunkcheck.RuleHierarchy: true, chunkcheck.RuleBreadcrumb: true, chunkcheck.RuleTokenLimit: true,
}

func checkStructural(t *testing.T, name string, src []byte) []chunk.Chunk {
	t.Helper()
	f, err := parse.Parse(name, src, "")
	if err != nil {
		t.Fatalf("%s: parse: %v", name, err)
	}
	cs := chunk.File(f, "/ws/"+name, name)
	n := 0
	for _, v := range chunkcheck.Check(name, src, cs) {
		if structural[v.Rule] {
			if n++; n <= 3 {
				t.Errorf("%s: %s", name, v)
			}
		}
	}
	return cs
}

// TestHostileInputs parses and chunks inputs built to break a parser: huge
// lines, binary bytes, broken encodings, deep nesting, giant classes.
func TestHostileInputs(t *testing.T) {
	var deep strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&deep, "%sfunction level%d() {\n", strings.Repeat(" ", i), i)
	}
	for i := 99; i >= 0; i-- {
		fmt.Fprintf(&deep, "%s}\n", strings.Repeat(" ", i))
	}
	var bigClass strings.Builder
	bigClass.WriteString("export class Huge {\n")
	for i := 0; bigClass.Len() < 1<<30 && i < 12500; i++ {
		fmt.Fprintf(&bigClass, "  method%d(a: number): number {\n    const b = a + %d;\n    return b * 2;\n  }\n", i, i)
	}
	bigClass.WriteString("}\n")
	minified := bytes.Repeat([]byte("var a=function(b){return b+1},c={d:[1,2,3],e:'x'};"), 10<<20/50)
	longLine := "export const data = \"" + strings.Repeat("x", 1_000_000) + "\";\n"
	cases := []struct {
		name string
		src  []byte
	}{
		{"empty.ts", nil},
		{"nul.ts", make([]byte, 4096)},
		{"latin1.js", []byte("const caf\xe9 = '\xe9t\xe9';\nfunction f() { return 1 }\n")},
		{"bom.ts", []byte("\xef\xbb\xbfexport function withBom(): void {\n  return;\n}\n")},
		{"crlf.ts", []byte("import a from 'a';\r\n\r\nexport class C {\r\n  m() {\r\n    return a;\r\n  }\r\n}\r\n")},
		{"no-newline.ts", []byte("export const x = 1")},
		{"deep.ts", []byte(deep.String())},
		{"long-line.ts", []byte(longLine)},
		{"minified.js", minified},
		{"big-class.ts", []byte(bigClass.String())},
		{"unterminated.ts", []byte("export function f() {\n  const s = `unterminated ${\n")},
	}
	for _, c := range cases {
		cs := checkStructural(t, c.name, c.src)
		switch c.name {
		case "deep.ts":
			maxDepth := 0
			for _, ch := range cs {
				maxDepth = max(maxDepth, ch.Depth)
			}
			if maxDepth != parse.MaxDepth {
				t.Errorf("deep.ts: max depth %d, want parse.MaxDepth (%d)", maxDepth, parse.MaxDepth)
			}
		case "big-class.ts":
			if len(cs) != 12501 {
				t.Errorf("big-class.ts: %d chunks, want the class and its 12,500 methods", len(cs))
			}
		case "long-line.ts", "minified.js":
			for _, ch := range cs {
				if len(ch.EmbeddingText) > chunk.MaxEmbeddingBytes {
					t.Errorf("%s: embedding text of %d bytes", c.name, len(ch.EmbeddingText))
				}
			}
		}
	}
}

// TestDeepNestsChunkInBoundedSize: 20,000 nested functions (429 KB) or
// 10,000 nested callbacks used to make one chunk per level, each holding
// the source of every level below it — gigabytes of chunks. Chunks now
// stop at parse.MaxDepth, the deepest holding the rest of the nest, so the
// chunks' sources add up to at most MaxDepth+1 times the file, and the
// structural rules still hold.
func TestDeepNestsChunkInBoundedSize(t *testing.T) {
	nest := func(n int, open, body, close string) []byte {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, open, i)
		}
		b.WriteString(body)
		b.WriteString(strings.Repeat(close, n))
		return []byte(b.String())
	}
	tests := []struct {
		name string
		src  []byte
	}{
		{"functions.ts", nest(20000, "function n%d() {\n", "return 1;\n", "}\n")},
		{"callbacks.ts", nest(10000, "f(() => { // %d\n", "g();\n", "});\n")},
		// 140 KB: the embedding limit falls among the closing lines, so the
		// deepest chunk's cut text ends as its source does.
		{"bare-callbacks.ts", []byte(strings.Repeat("f(() => {\n", 10000) + "g();\n" + strings.Repeat("});\n", 10000))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := checkStructural(t, tt.name, tt.src)
			// Every rule, not only the structural ones: the deepest chunk
			// is a leaf larger than the embedding limit.
			for _, v := range chunkcheck.Check(tt.name, tt.src, cs) {
				t.Errorf("%s", v)
			}
			// One a level down to parse.MaxDepth; a callback on the very
			// lines of its statement folds into it.
			if len(cs) > parse.MaxDepth+1 || len(cs) < parse.MaxDepth {
				t.Errorf("%d chunks, want one a level down to parse.MaxDepth (%d)", len(cs), parse.MaxDepth)
			}
			total, deepest := 0, 0
			for _, c := range cs {
				total += len(c.FullSource) + len(c.EmbeddingText)
				deepest = max(deepest, c.Depth)
			}
			if limit := 2 * (parse.MaxDepth + 1) * len(tt.src); total > limit {
				t.Errorf("chunks hold %d bytes of text for a %d-byte file (limit %d)", total, len(tt.src), limit)
			}
			last := cs[len(cs)-1]
			if last.Depth < parse.MaxDepth-1 || !strings.Contains(last.FullSource, "g();") && !strings.Contains(last.FullSource, "return 1;") {
				t.Errorf("deepest chunk %q at depth %d does not hold the innermost code", last.Name, last.Depth)
			}
		})
	}
}

// TestMutatedCorpus feeds thousands of deliberately broken files — real
// sources truncated, with brackets, quotes and comment markers inserted or
// deleted at seeded positions — through parse and chunk: no panic, and the
// structural rules hold on every one.
func TestMutatedCorpus(t *testing.T) {
	dir := testkit.Corpus(t)
	var files []string
	for _, pkg := range []string{"rxjs/src/internal/operators", "effect/src/internal"} {
		matches, _ := filepath.Glob(filepath.Join(dir, "node_modules", pkg, "*.ts"))
		files = append(files, matches...)
	}
	if len(files) < 100 {
		t.Fatalf("too few corpus files: %d", len(files))
	}
	rng := rand.New(rand.NewSource(7))
	tokens := []string{"{", "}", "(", ")", "[", "]", "/*", "*/", "`", "${", "'", "\"", "<", ">", "=>", ";", "\n", "class X {", "function", "in out T"}
	n := 2000
	if testing.Short() {
		n = 200
	}
	broken := 0
	for i := 0; i < n; i++ {
		src, err := os.ReadFile(files[rng.Intn(len(files))])
		if err != nil {
			t.Fatal(err)
		}
		if len(src) > 64<<10 {
			src = src[:64<<10]
		}
		for j := 1 + rng.Intn(6); j > 0; j-- {
			p := rng.Intn(len(src) + 1)
			switch rng.Intn(3) {
			case 0:
				src = append(src[:p:p], append([]byte(tokens[rng.Intn(len(tokens))]), src[p:]...)...)
			case 1:
				q := min(len(src), p+rng.Intn(40))
				src = append(src[:p:p], src[q:]...)
			default:
				src = src[:p]
			}
		}
		name := fmt.Sprintf("mutant%04d.ts", i)
		f, err := parse.Parse(name, src, "")
		if err != nil {
			t.Fatal(err)
		}
		if f.ErrorNodes > 0 {
			broken++
		}
		checkStructural(t, name, src)
		if t.Failed() {
			os.WriteFile(filepath.Join(t.TempDir(), name), src, 0o644)
			t.Fatalf("stopping at %s", name)
		}
	}
	t.Logf("%d mutated files, %d with syntax errors, all fully covered", n, broken)
}

// TestLineEndingsNumberLikeEditors: a file gives the same chunks on the same
// lines whether its lines end with "\n", "\r\n" or a lone "\r" (old Mac
// files), since editors and the language server number all three alike.
func TestLineEndingsNumberLikeEditors(t *testing.T) {
	lf := "import a from 'a';\n\n/** Adds. */\nexport function add(x: number) {\n  return x + a;\n}\n\nexport class C {\n  m() {\n    return add(1);\n  }\n}\n"
	type span struct {
		name       string
		start, end int
	}
	spans := func(cs []chunk.Chunk) []span {
		var out []span
		for _, c := range cs {
			out = append(out, span{c.Breadcrumb, c.StartLine, c.EndLine})
		}
		return out
	}
	want := spans(checkStructural(t, "lf.ts", []byte(lf)))
	if len(want) < 3 {
		t.Fatalf("too few chunks to compare: %v", want)
	}
	for _, ending := range []string{"\r\n", "\r"} {
		name := fmt.Sprintf("ending-%q.ts", ending)
		src := strings.ReplaceAll(lf, "\n", ending)
		got := spans(checkStructural(t, name, []byte(src)))
		for i := range got {
			got[i].name = strings.Replace(got[i].name, name, "lf.ts", 1)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q endings: chunks %v, want %v", ending, got, want)
		}
	}
}

// TestNamesHoldNoLineBreaks: a name is source text, and a computed key can
// hold a line break; such a name is kept quoted, so that no answer printing
// it starts a line of the file's choosing (issue 18 item 14).
func TestNamesHoldNoLineBreaks(t *testing.T) {
	src := "export class K {\n  [`a\nsrc/x.ts:1: FORGED`]() {\n    return 1;\n  }\n  \"b\\nc\"() {}\n}\n"
	cs := checkStructural(t, "k.ts", []byte(src))
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
		if strings.ContainsAny(c.Name+c.Breadcrumb, "\r\n") {
			t.Errorf("chunk %q (%q) holds a line break", c.Name, c.Breadcrumb)
		}
	}
	if want := "K, \"[`a\\nsrc/x.ts:1: FORGED`]\", \"b\\nc\""; strings.Join(names, ", ") != want {
		t.Errorf("names %s, want %s", strings.Join(names, ", "), want)
	}
}
