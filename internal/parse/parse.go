package parse

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/pathclass"
	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Language names used across scry.
const (
	LangTypeScript = "typescript"
	LangTSX        = "tsx"
	LangJavaScript = "javascript"
)

// LanguageOf maps a file name to the grammar that parses it, or "" when the
// file is not TypeScript or JavaScript.
func LanguageOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return LangTypeScript
	case ".tsx":
		return LangTSX
	case ".js", ".jsx", ".mjs", ".cjs":
		return LangJavaScript
	}
	return ""
}

type grammar struct {
	lang   *sitter.Language
	kinds  []kind            // indexed by node kind id
	fields map[string]uint16 // field ids of the grammar's fields (builder.child)
}

var (
	grammarsOnce sync.Once
	grammars     map[string]*grammar
	// parsers are not safe for concurrent use and costly to create: pool them
	// per language.
	parserPools = map[string]*ParserPool{}
)

func loadGrammars() {
	grammars = map[string]*grammar{
		LangTypeScript: newGrammar(sitter.NewLanguage(tsts.LanguageTypescript())),
		LangTSX:        newGrammar(sitter.NewLanguage(tsts.LanguageTSX())),
		LangJavaScript: newGrammar(sitter.NewLanguage(tsjs.Language())),
	}
	for name, g := range grammars {
		parserPools[name] = NewParserPool(g.lang)
	}
}

func newGrammar(l *sitter.Language) *grammar {
	g := &grammar{lang: l, kinds: KindTable(l, kindNames), fields: map[string]uint16{}}
	for id := uint16(1); id <= uint16(l.FieldCount()); id++ {
		g.fields[l.FieldNameForId(id)] = id
	}
	return g
}

// KindTable maps each node kind id of the grammar l to its kind in names
// (named node kinds only; the zero K where names has none), so that a walk
// looks a node's kind up by id instead of converting its kind name.
func KindTable[K any](l *sitter.Language, names map[string]K) []K {
	n := l.NodeKindCount()
	kinds := make([]K, n)
	for id := uint32(0); id < n; id++ {
		if k, ok := names[l.NodeKindForId(uint16(id))]; ok && l.NodeKindIsNamed(uint16(id)) {
			kinds[id] = k
		}
	}
	return kinds
}

// Language is the tree-sitter grammar scry parses lang (LangTypeScript,
// LangTSX, LangJavaScript) with.
func Language(lang string) (*sitter.Language, bool) {
	grammarsOnce.Do(loadGrammars)
	g, ok := grammars[lang]
	if !ok {
		return nil, false
	}
	return g.lang, true
}

// Parse parses one file. path is relative to the workspace root: the
// language comes from its extension (lang overrides it when non-empty), and
// whether it is test code (pathclass.TestCode) from its directories. Parse never fails on bad syntax: the symbol
// tree still covers every line, and File.ErrorNodes counts what tree-sitter
// could not read.
func Parse(path string, src []byte, lang string) (*File, error) {
	if lang == "" {
		lang = LanguageOf(path)
	}
	if len(src) > segmentAbove {
		if cuts := segmentCuts(src); len(cuts) > 0 {
			return parseSegments(path, src, lang, cuts)
		}
	}
	return parseWhole(path, src, lang)
}

func parseWhole(path string, src []byte, lang string) (*File, error) {
	grammarsOnce.Do(loadGrammars)
	g, ok := grammars[lang]
	if !ok {
		return nil, fmt.Errorf("parse %s: unsupported language %q", path, lang)
	}
	pool := parserPools[lang]
	p := pool.Get()
	defer pool.Put(p)
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, fmt.Errorf("parse %s: tree-sitter returned no tree", path)
	}
	// tree-sitter recovers from a "/*" that is never closed by parsing
	// on after its line, so code the compiler reads as comment would
	// come back as symbols. Parse again with the rest of the file blanked
	// (line breaks kept, so every offset and line stays), and make the
	// rest one comment.
	// A "`" that is never closed is the same: the rest of the file is
	// template text to the compiler.
	unclosed, unclosedKind := unclosedComment(tree.RootNode(), src), KindComment
	if unclosed < 0 {
		unclosed, unclosedKind = unclosedTemplate(tree.RootNode(), src), KindStatement
	}
	input := src
	if unclosed >= 0 {
		tree.Close()
		input = blankFrom(src, unclosed)
		if tree = p.Parse(input, nil); tree == nil {
			return nil, fmt.Errorf("parse %s: tree-sitter returned no tree", path)
		}
	}
	tree, input = reparse(p, tree, input, blankNewerSyntax)
	if lang == LangTypeScript {
		// In TSX a line opening with "<" is JSX.
		tree, _ = reparse(p, tree, input, separateMembers)
	}
	defer tree.Close()

	b := &builder{
		path:       path,
		lang:       lang,
		src:        src,
		g:          g,
		lineStarts: lines.Starts(src),
		jsxAware:   lang != LangTypeScript,
		testCode:   pathclass.TestCode(path),
		cursor:     tree.Walk(),
	}
	defer b.cursor.Close()
	defer b.freeKids()
	root := tree.RootNode()
	b.collect(root)
	f := &File{Path: path, Language: lang, Source: src, LineStarts: b.lineStarts}
	f.Symbols = b.statements(b.namedChildren(root), "", 0)
	if unclosed >= 0 {
		f.Symbols = b.unclosedSymbol(f.Symbols, unclosed, unclosedKind)
		b.errors++
	}
	f.Symbols = b.fillGaps(f.Symbols)
	f.Imports = b.imports
	f.ErrorNodes = b.errors
	if root.HasError() && b.errors == 0 {
		f.ErrorNodes = errorNodes(root)
	}
	if testBuilder != nil {
		testBuilder(b)
	}
	return f, nil
}

// testBuilder, when set (by tests), is handed each file's builder once it
// is done, to read its work counters.
var testBuilder func(*builder)
