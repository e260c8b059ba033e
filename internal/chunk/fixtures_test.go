package chunk_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkcheck"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/testkit"
)

const fixtureDir = "../../testdata/fixtures"

// expectation is a fixture's golden file (docs/architecture.md, rule 2), plus signature, JSDoc
// and relevantImports per symbol so that the golden file pins them too.
type expectation struct {
	Symbols   []expSymbol   `json:"symbols"`
	Chunks    []expChunk    `json:"chunks"`
	RootItems []expRootItem `json:"rootItems"`
	Stats     expStats      `json:"stats"`
}

type expSymbol struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	Depth       int      `json:"depth"`
	ParentName  string   `json:"parentName,omitempty"`
	HasChildren bool     `json:"hasChildren"`
	Exported    bool     `json:"exported,omitempty"`
	Modifiers   []string `json:"modifiers,omitempty"`
	LineRange   [2]int   `json:"lineRange"`
	Signature   string   `json:"signature,omitempty"`
	JSDoc       string   `json:"jsdoc,omitempty"`
}

type expChunk struct {
	Breadcrumb           string   `json:"breadcrumb"`
	NodeKind             string   `json:"nodeKind"`
	HasCollapsedChildren bool     `json:"hasCollapsedChildren"`
	IsLeaf               bool     `json:"isLeaf"`
	LineCount            int      `json:"lineCount"`
	RelevantImports      []string `json:"relevantImports,omitempty"`
}

type expRootItem struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	LineRange [2]int `json:"lineRange"`
}

type expStats struct {
	TotalSymbols      int  `json:"totalSymbols"`
	TotalChunks       int  `json:"totalChunks"`
	TotalRootItems    int  `json:"totalRootItems"`
	MaxDepth          int  `json:"maxDepth"`
	FullCoverage      bool `json:"fullCoverage"`
	AllChunksUnder32K bool `json:"allChunksUnder32K"`
}

var rootItemKinds = map[string]bool{"import": true, "expression": true, "re-export": true, "const": true, "variable": true, "statement": true, "comment": true}

func expect(src []byte, chunks []chunk.Chunk) expectation {
	var e expectation
	for _, c := range chunks {
		e.Symbols = append(e.Symbols, expSymbol{
			Name: c.Name, Kind: c.NodeKind, Depth: c.Depth, ParentName: c.ParentName,
			HasChildren: len(c.ChildChunkIDs) > 0, Exported: c.Exported, Modifiers: c.Modifiers,
			LineRange: [2]int{c.StartLine, c.EndLine}, Signature: c.Signature, JSDoc: c.JSDoc,
		})
		collapsed := c.EmbeddingText != c.FullSource
		e.Chunks = append(e.Chunks, expChunk{
			Breadcrumb: c.Breadcrumb, NodeKind: c.NodeKind, HasCollapsedChildren: collapsed,
			IsLeaf: len(c.ChildChunkIDs) == 0, LineCount: c.EndLine - c.StartLine + 1,
			RelevantImports: c.RelevantImports,
		})
		if c.Depth == 0 && rootItemKinds[c.NodeKind] {
			e.RootItems = append(e.RootItems, expRootItem{Kind: c.NodeKind, Name: c.Name, LineRange: [2]int{c.StartLine, c.EndLine}})
		}
		if c.Depth > e.Stats.MaxDepth {
			e.Stats.MaxDepth = c.Depth
		}
	}
	nonBlank, covered := chunkcheck.Coverage(src, chunks)
	e.Stats.TotalSymbols = len(chunks)
	e.Stats.TotalChunks = len(chunks)
	e.Stats.TotalRootItems = len(e.RootItems)
	e.Stats.FullCoverage = nonBlank == covered
	e.Stats.AllChunksUnder32K = true
	for _, c := range chunks {
		if chunkcheck.EstimateTokens(c.EmbeddingText) > chunkcheck.MaxTokens {
			e.Stats.AllChunksUnder32K = false
		}
	}
	return e
}

func chunkSource(t testing.TB, path, rel string, src []byte) ([]chunk.Chunk, *parse.File) {
	t.Helper()
	f, err := parse.Parse(path, src, "")
	if err != nil {
		t.Fatalf("parse %s: %v", rel, err)
	}
	return chunk.File(f, path, rel), f
}

// TestFixtures checks the fixtures (docs/architecture.md, rule 2) against their golden
// expectations and the ten global validation rules.
func TestFixtures(t *testing.T) {
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	var results []chunkcheck.FileResult
	n := 0
	for _, ent := range entries {
		name := ent.Name()
		if ent.IsDir() || parse.LanguageOf(name) == "" {
			continue
		}
		n++
		path := filepath.Join(fixtureDir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		first, _ := chunkSource(t, path, name, src)
		second, _ := chunkSource(t, path, name, src)
		res := chunkcheck.Evaluate(name, src, len(first), first, second)
		results = append(results, res)
		for _, v := range res.Violations {
			t.Errorf("%s: %s", name, v)
		}
		got, err := json.MarshalIndent(expect(src, first), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		// The expectation is NAME.expected.txtar beside the fixture (go test
		// -update rewrites it); a.d.ts has a.d.expected.txtar.
		path = strings.TrimSuffix(path, filepath.Ext(path)) + ".expected.txtar"
		golden.Check(t, path, []golden.File{{Name: "expected.json", Data: string(got)}})
	}
	if n < 20 {
		t.Fatalf("found %d fixtures, want at least 20 (docs/architecture.md, rule 2)", n)
	}
	sum := chunkcheck.Summarize(results...)
	sum.Label = "Fixtures"
	t.Log("\n" + sum.String())
	if !sum.OK() {
		t.Error("validation summary is not clean")
	}
}

// TestRealCodeValidation applies the ten global rules to real code from npm:
// typescript.js (~200k lines), TypeScript's lib .d.ts files, and the
// TypeScript sources of rxjs, effect and immer. Zero violations allowed.
func TestRealCodeValidation(t *testing.T) {
	dir := testkit.Corpus(t)
	nm := filepath.Join(dir, "node_modules")
	var files []string
	files = append(files, filepath.Join(nm, "typescript/lib/typescript.js"))
	libs, _ := filepath.Glob(filepath.Join(nm, "typescript/lib/*.d.ts"))
	files = append(files, libs...)
	for _, pkg := range []string{"rxjs/src", "effect/src", "immer/src"} {
		filepath.WalkDir(filepath.Join(nm, pkg), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && parse.LanguageOf(p) != "" {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	if len(files) < 600 {
		t.Fatalf("corpus has only %d files; is %s complete?", len(files), dir)
	}
	var results []chunkcheck.FileResult
	syntaxErrors := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(nm, path)
		rel = filepath.ToSlash(rel)
		first, f := chunkSource(t, path, rel, src)
		if f.ErrorNodes > 0 {
			syntaxErrors++
		}
		var runs [][]chunk.Chunk
		runs = append(runs, first)
		if len(src) < 1<<20 {
			second, _ := chunkSource(t, path, rel, src)
			runs = append(runs, second)
		}
		res := chunkcheck.Evaluate(rel, src, len(first), runs...)
		// Keep memory flat: the summary needs counts, not the chunks.
		res.Chunks = slim(first)
		results = append(results, res)
		for i, v := range res.Violations {
			if i >= 5 {
				t.Errorf("%s: %d more violations", rel, len(res.Violations)-5)
				break
			}
			t.Errorf("%s: %s", rel, v)
		}
	}
	sum := chunkcheck.Summarize(results...)
	sum.Label = "Files"
	t.Logf("\n%s\nFiles with syntax errors (chunked line for line anyway): %d", sum.String(), syntaxErrors)
	if !sum.OK() {
		t.Error("real-code validation is not clean")
	}
}

// slim drops what Summarize does not read, to keep memory flat over the
// corpus.
func slim(cs []chunk.Chunk) []chunk.Chunk {
	for i := range cs {
		cs[i].FullSource = ""
		cs[i].RelevantImports = nil
	}
	return cs
}
