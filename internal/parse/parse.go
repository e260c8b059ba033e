package parse

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/scry-dev/scry/internal/lines"
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
	lang  *sitter.Language
	kinds []kind // indexed by node kind id
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
	n := l.NodeKindCount()
	g := &grammar{lang: l, kinds: make([]kind, n)}
	for id := uint32(0); id < n; id++ {
		if k, ok := kindNames[l.NodeKindForId(uint16(id))]; ok && l.NodeKindIsNamed(uint16(id)) {
			g.kinds[id] = k
		}
	}
	return g
}

// Parse parses one file. The language comes from the file extension; lang
// overrides it when non-empty. Parse never fails on bad syntax: the symbol
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
	unclosed := unclosedComment(tree.RootNode(), src)
	if unclosed >= 0 {
		tree.Close()
		if tree = p.Parse(blankFrom(src, unclosed), nil); tree == nil {
			return nil, fmt.Errorf("parse %s: tree-sitter returned no tree", path)
		}
	}
	defer tree.Close()

	b := &builder{
		path:       path,
		lang:       lang,
		src:        src,
		g:          g,
		lineStarts: lines.Starts(src),
		jsxAware:   lang != LangTypeScript,
		cursor:     tree.Walk(),
	}
	defer b.cursor.Close()
	root := tree.RootNode()
	b.collect(root)
	f := &File{Path: path, Language: lang, Source: src}
	f.Symbols = b.statements(b.namedChildren(root), "", 0)
	if unclosed >= 0 {
		f.Symbols = b.unclosedCommentSymbol(f.Symbols, unclosed)
		b.errors++
	}
	f.Symbols = b.fillGaps(f.Symbols)
	f.Imports = b.imports
	f.ErrorNodes = b.errors
	if root.HasError() && b.errors == 0 {
		b.countErrors(root)
		f.ErrorNodes = b.errors
	}
	return f, nil
}

// unclosedComment returns the offset of a "/*" that no "*/" closes, or -1.
// Only a "/*" after the file's last "*/" can be one, and only where the
// tree does not show it inside a string, template, regex, JSX text or line
// comment that parsed cleanly. tree-sitter's recovery from it varies (an
// ERROR node, a division followed by an error, a regex missing its end),
// so the tree is asked only where the "/*" is not, never where it is.
func unclosedComment(root *sitter.Node, src []byte) int {
	if !root.HasError() {
		return -1 // an unclosed comment is always a syntax error
	}
	from := 0
	if i := bytes.LastIndex(src, []byte("*/")); i >= 0 {
		from = i + 2
	}
	for {
		i := bytes.Index(src[from:], []byte("/*"))
		if i < 0 {
			return -1
		}
		p := from + i
		if !insideToken(root, p) {
			return p
		}
		from = p + 1
	}
}

// insideToken reports whether offset p is inside a string, template, regex,
// JSX text or comment that has no error in it.
func insideToken(root *sitter.Node, p int) bool {
	for n := root.DescendantForByteRange(uint(p), uint(p+2)); n != nil; n = n.Parent() {
		switch n.Kind() {
		case "string", "template_string", "regex", "jsx_text", "comment", "string_fragment":
			return !n.HasError() && int(n.StartByte()) <= p && p+2 <= int(n.EndByte())
		}
	}
	return false
}

// blankFrom returns a copy of src with every byte from off on a space,
// except line breaks.
func blankFrom(src []byte, off int) []byte {
	out := bytes.Clone(src)
	for i := off; i < len(out); i++ {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
	return out
}

// unclosedCommentSymbol adds the comment running from off to the end of
// the file; a symbol sharing its first line absorbs it.
func (b *builder) unclosedCommentSymbol(syms []*Symbol, off int) []*Symbol {
	start := b.line(off)
	end := lines.Total(b.lineStarts, len(b.src))
	c := &Symbol{Kind: KindComment, StartLine: start, EndLine: end, StartByte: off, DeclStartByte: off, EndByte: len(b.src), BodyStartByte: -1}
	c.Name = commentName(b.src[off:])
	return mergeSameLine(append(syms, c))
}

type builder struct {
	path       string
	lang       string
	src        []byte
	g          *grammar
	lineStarts []int
	jsxAware   bool
	cursor     *sitter.TreeCursor
	imports    []Import
	errors     int
	cands      []candidate
}

// line returns the 1-based line holding byte offset off.
func (b *builder) line(off int) int { return lines.Of(b.lineStarts, off) }

// endLine is the line of the last byte of [start,end): a node that ends right
// after a newline does not reach the next line.
func (b *builder) endLine(start, end int) int {
	if end > start {
		end--
	}
	return b.line(end)
}

func (b *builder) kindOf(n *sitter.Node) kind {
	id := n.KindId()
	if int(id) < len(b.g.kinds) {
		return b.g.kinds[id]
	}
	return kNone
}

func (b *builder) text(n *sitter.Node) string {
	return string(b.src[n.StartByte():n.EndByte()])
}

func (b *builder) namedChildren(n *sitter.Node) []sitter.Node {
	return n.NamedChildren(b.cursor)
}

func (b *builder) children(n *sitter.Node) []sitter.Node {
	return n.Children(b.cursor)
}

func (b *builder) countErrors(n *sitter.Node) {
	if n.IsError() || n.IsMissing() {
		b.errors++
	}
	if !n.HasError() {
		return
	}
	for _, c := range b.children(n) {
		b.countErrors(&c)
	}
}

// newSymbol makes a symbol spanning node n.
func (b *builder) newSymbol(n *sitter.Node, name, k string) *Symbol {
	start, end := int(n.StartByte()), int(n.EndByte())
	return &Symbol{
		Name:          name,
		Kind:          k,
		StartByte:     start,
		DeclStartByte: start,
		EndByte:       end,
		StartLine:     b.line(start),
		EndLine:       b.endLine(start, end),
		BodyStartByte: -1,
	}
}

// setSpan makes s cover exactly node n (a wrapper such as an export
// statement around the declaration s was built from).
func (b *builder) setSpan(s *Symbol, n *sitter.Node) {
	s.StartByte, s.DeclStartByte, s.EndByte = int(n.StartByte()), int(n.StartByte()), int(n.EndByte())
	s.StartLine, s.EndLine = b.line(s.StartByte), b.endLine(s.StartByte, s.EndByte)
}

// statements turns a statement list (a program, a namespace body) into
// symbols: one per statement, comments attached to the declaration they
// precede, standalone comment blocks as their own symbols, and statements that
// share a line merged so that siblings never overlap.
func (b *builder) statements(nodes []sitter.Node, parent string, depth int) []*Symbol {
	var out []*Symbol
	var pending []*Symbol // comment blocks not yet placed
	flushComments := func() {
		out = append(out, pending...)
		pending = nil
	}
	for i := range nodes {
		n := &nodes[i]
		if b.kindOf(n) == kComment {
			c := b.newSymbol(n, "", KindComment)
			if len(pending) > 0 && pending[len(pending)-1].EndLine+1 >= c.StartLine {
				extend(pending[len(pending)-1], c)
			} else {
				pending = append(pending, c)
			}
			continue
		}
		if depth == 0 && parent == "" && n.HasError() {
			if recovered := b.recoverRegion(n); recovered != nil {
				b.errors++
				flushComments()
				out = append(out, recovered...)
				continue
			}
		}
		s := b.statement(n, parent, depth)
		if s == nil {
			continue
		}
		// A comment block ending on the line just above (or on the same line
		// as) a declaration belongs to it; its JSDoc becomes the symbol's.
		if len(pending) > 0 {
			last := pending[len(pending)-1]
			prevEnd := 0
			if len(out) > 0 {
				prevEnd = out[len(out)-1].EndLine
			}
			if last.EndLine+1 >= s.StartLine && last.StartLine > prevEnd && s.Kind != KindStatement {
				pending = pending[:len(pending)-1]
				if doc := lastJSDoc(b.src[last.StartByte:last.EndByte]); doc != "" && s.JSDoc == "" {
					s.JSDoc = doc
				}
				s.StartByte, s.StartLine = last.StartByte, last.StartLine
			}
		}
		flushComments()
		out = append(out, s)
	}
	flushComments()
	for _, s := range out {
		if s.Kind == KindComment {
			s.Name = commentName(b.src[s.StartByte:s.EndByte])
		}
	}
	out = mergeSameLine(mergeOverloads(out))
	setDepth(out, parent, depth)
	return out
}

func extend(dst, src *Symbol) {
	if src.EndByte > dst.EndByte {
		dst.EndByte = src.EndByte
	}
	if src.EndLine > dst.EndLine {
		dst.EndLine = src.EndLine
	}
}

// mergeSameLine folds each symbol that starts on a line the previous one
// ends on into that previous symbol, so siblings never share a line.
func mergeSameLine(in []*Symbol) []*Symbol {
	if len(in) < 2 {
		return in
	}
	out := in[:1]
	for _, s := range in[1:] {
		prev := out[len(out)-1]
		if s.StartLine > prev.EndLine {
			out = append(out, s)
			continue
		}
		switch {
		case s.Kind == KindComment:
			// a trailing comment adds nothing to the identity
		case prev.Kind == KindComment:
			s.StartByte, s.StartLine = prev.StartByte, prev.StartLine
			extend(s, prev)
			out[len(out)-1] = s
			continue
		default:
			// Minified code puts thousands of statements on one line: keep
			// the merged name short (and the merge linear).
			switch {
			case len(prev.Name) < 80:
				prev.Name = prev.Name + ", " + s.Name
			case !strings.HasSuffix(prev.Name, ", …"):
				prev.Name += ", …"
			}
			if prev.Kind != s.Kind {
				prev.Kind = KindStatement
			}
			prev.Children = append(prev.Children, s.Children...)
			prev.Exported = prev.Exported || s.Exported
			// A parent collapses the merged symbol at the first body it
			// holds; the rest of that line is in the symbol's own chunk.
			if prev.BodyStartByte < 0 {
				prev.BodyStartByte = s.BodyStartByte
				prev.Signature = s.Signature
			}
		}
		extend(prev, s)
	}
	return out
}

func setDepth(syms []*Symbol, parent string, depth int) {
	for _, s := range syms {
		s.Depth = depth
		s.ParentName = parent
		// Children can come from several places (statements, members,
		// nested functions inside an error region): order them and keep
		// siblings off each other's lines whatever their origin.
		sort.SliceStable(s.Children, func(i, j int) bool { return s.Children[i].StartLine < s.Children[j].StartLine })
		s.Children = mergeSameLine(s.Children)
		setDepth(s.Children, s.Name, depth+1)
		// A declaration holding nested functions without a body of its own
		// (a property or const bound to a call with callbacks) collapses at
		// its first nested body.
		if s.BodyStartByte < 0 && len(s.Children) > 0 && s.Children[0].BodyStartByte > s.DeclStartByte {
			s.BodyStartByte = s.Children[0].BodyStartByte
		}
	}
}

// fillGaps covers non-blank lines that no root symbol reached (tokens that
// tree-sitter left outside any statement after an error) with statement
// symbols, so the chunked file always shows every line.
func (b *builder) fillGaps(syms []*Symbol) []*Symbol {
	nLines := lines.Total(b.lineStarts, len(b.src))
	covered := make([]bool, nLines+2)
	for _, s := range syms {
		for l := s.StartLine; l <= s.EndLine && l <= nLines; l++ {
			covered[l] = true
		}
	}
	var gaps []*Symbol
	for l := 1; l <= nLines; l++ {
		if covered[l] || b.blankLine(l) {
			continue
		}
		start := l
		for l+1 <= nLines && !covered[l+1] && !b.blankLine(l+1) {
			l++
		}
		sb := b.lineStarts[start-1]
		eb := b.lineEnd(l)
		g := &Symbol{Kind: KindStatement, StartLine: start, EndLine: l, StartByte: sb, DeclStartByte: sb, EndByte: eb, BodyStartByte: -1}
		g.Name = firstLine(b.src[sb:eb])
		gaps = append(gaps, g)
	}
	if len(gaps) == 0 {
		return syms
	}
	all := append(syms, gaps...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].StartLine < all[j].StartLine })
	return mergeSameLine(all)
}

func (b *builder) lineEnd(l int) int { return lines.End(b.src, b.lineStarts, l) }

func (b *builder) blankLine(l int) bool {
	start := b.lineStarts[l-1]
	return len(bytes.TrimSpace(b.src[start:b.lineEnd(l)])) == 0
}

// statement converts one statement node into a symbol (nil for nothing).
func (b *builder) statement(n *sitter.Node, parent string, depth int) *Symbol {
	switch b.kindOf(n) {
	case kImport:
		return b.importStatement(n)
	case kExport:
		return b.exportStatement(n)
	case kEmpty:
		s := b.newSymbol(n, ";", KindStatement)
		return s
	case kExpressionStatement:
		if inner := n.NamedChild(0); inner != nil {
			switch b.kindOf(inner) {
			case kInternalModule, kModule:
				s := b.declaration(inner, nil)
				b.setSpan(s, n)
				return s
			}
		}
		return b.expressionStatement(n)
	case kLexical, kVariable:
		if s := b.requireImport(n); s != nil {
			return s
		}
	case kError:
		b.errors++
		s := b.newSymbol(n, firstLine(b.src[n.StartByte():n.EndByte()]), KindStatement)
		s.Children = b.nested(n)
		return s
	}
	if s := b.declaration(n, nil); s != nil {
		return s
	}
	s := b.newSymbol(n, firstLine(b.src[n.StartByte():n.EndByte()]), KindStatement)
	s.Children = b.nested(n)
	return s
}

// declaration converts a declaration node into a symbol; mods are modifiers
// contributed by a wrapping export or declare. It returns nil when n is not a
// declaration.
func (b *builder) declaration(n *sitter.Node, mods []string) *Symbol {
	var s *Symbol
	switch b.kindOf(n) {
	case kFunctionDecl, kGeneratorFunctionDecl, kFunctionSignature:
		s = b.function(n, b.fieldText(n, "name"), KindFunction)
	case kClassDecl, kAbstractClassDecl, kClass:
		s = b.class(n, b.fieldText(n, "name"))
	case kInterface:
		s = b.newSymbol(n, b.fieldText(n, "name"), KindInterface)
		if body := n.ChildByFieldName("body"); body != nil {
			s.BodyStartByte = int(body.StartByte())
			s.Children = b.typeMembers(body)
		}
	case kTypeAlias:
		s = b.newSymbol(n, b.fieldText(n, "name"), KindType)
	case kEnum:
		s = b.newSymbol(n, b.fieldText(n, "name"), KindEnum)
		if body := n.ChildByFieldName("body"); body != nil {
			s.BodyStartByte = int(body.StartByte())
			s.Children = b.enumMembers(body)
		}
		if b.hasToken(n, "const") {
			s.Modifiers = append(s.Modifiers, "const")
		}
	case kLexical, kVariable:
		s = b.variable(n)
	case kInternalModule, kModule:
		k := KindNamespace
		name := b.fieldText(n, "name")
		if b.kindOf(n) == kModule || strings.HasPrefix(name, "'") || strings.HasPrefix(name, "\"") || strings.HasPrefix(b.text(n), "global") {
			k = KindModule
		}
		if name == "" && strings.HasPrefix(b.text(n), "global") {
			name = "global"
		}
		s = b.newSymbol(n, name, k)
		if body := n.ChildByFieldName("body"); body != nil {
			s.BodyStartByte = int(body.StartByte())
			s.Children = b.statements(b.namedChildren(body), name, 0)
		}
	case kAmbient:
		// declare function/const/module/global ...
		for _, c := range b.namedChildren(n) {
			c := c
			if inner := b.declaration(&c, append(mods, "declare")); inner != nil {
				b.setSpan(inner, n)
				inner.Signature = b.signature(n, inner.BodyStartByte)
				return inner
			}
		}
		if strings.Contains(b.text(n), "global") {
			s = b.newSymbol(n, "global", KindModule)
			for _, c := range b.namedChildren(n) {
				if b.kindOf(&c) == kStatementBlock {
					s.BodyStartByte = int(c.StartByte())
					s.Children = b.statements(b.namedChildren(&c), "global", 0)
				}
			}
			s.Modifiers = append(s.Modifiers, "declare")
			s.Signature = "declare global"
			return s
		}
		return nil
	default:
		return nil
	}
	if s == nil {
		return nil
	}
	s.Modifiers = append(append([]string{}, mods...), s.Modifiers...)
	for _, m := range mods {
		if m == "exported" {
			s.Exported = true
		}
	}
	if s.Signature == "" {
		s.Signature = b.signature(n, s.BodyStartByte)
	}
	return s
}

// function builds a function-like symbol from a declaration, expression or
// method node.
func (b *builder) function(n *sitter.Node, name, k string) *Symbol {
	s := b.newSymbol(n, name, k)
	b.functionModifiers(n, s)
	if body := n.ChildByFieldName("body"); body != nil {
		// An arrow's expression body is a body too: a parent shows the
		// arrow's signature, not its multi-line expression. A curried
		// arrow's signature runs to its innermost body.
		inner := body
		for {
			k := b.kindOf(inner)
			if k != kArrowFunction && k != kFunctionExpression {
				break
			}
			next := inner.ChildByFieldName("body")
			if next == nil {
				break
			}
			inner = next
		}
		s.BodyStartByte = int(inner.StartByte())
		s.Children = b.nested(body)
	}
	if b.jsxAware && k == KindFunction && isComponentName(name) && b.containsJSX(n) {
		s.Kind = KindComponent
	}
	return s
}

func (b *builder) functionModifiers(n *sitter.Node, s *Symbol) {
	for _, c := range b.children(n) {
		switch c.Kind() {
		case "async":
			s.Modifiers = appendOnce(s.Modifiers, "async")
		case "*":
			s.Modifiers = appendOnce(s.Modifiers, "generator")
		case "static":
			s.Modifiers = appendOnce(s.Modifiers, "static")
		case "abstract":
			s.Modifiers = appendOnce(s.Modifiers, "abstract")
		case "readonly":
			s.Modifiers = appendOnce(s.Modifiers, "readonly")
		case "override":
			s.Modifiers = appendOnce(s.Modifiers, "override")
		case "declare":
			s.Modifiers = appendOnce(s.Modifiers, "declare")
		case "get":
			s.Modifiers = appendOnce(s.Modifiers, "getter")
		case "set":
			s.Modifiers = appendOnce(s.Modifiers, "setter")
		case "accessibility_modifier":
			s.Modifiers = appendOnce(s.Modifiers, b.text(&c))
		case "generator_function_declaration", "generator_function":
		}
	}
	if k := b.kindOf(n); k == kGeneratorFunctionDecl || k == kGeneratorFunction {
		s.Modifiers = appendOnce(s.Modifiers, "generator")
	}
}

func appendOnce(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

func (b *builder) class(n *sitter.Node, name string) *Symbol {
	s := b.newSymbol(n, name, KindClass)
	if b.kindOf(n) == kAbstractClassDecl {
		s.Modifiers = append(s.Modifiers, "abstract")
	}
	if body := n.ChildByFieldName("body"); body != nil {
		s.BodyStartByte = int(body.StartByte())
		s.Children = b.classMembers(body, name)
	}
	if b.jsxAware || b.isReactHeritage(n) {
		if b.isReactHeritage(n) && isComponentName(name) {
			s.Kind = KindComponent
		}
	}
	return s
}

func (b *builder) isReactHeritage(n *sitter.Node) bool {
	for _, c := range b.namedChildren(n) {
		if b.kindOf(&c) == kClassHeritage {
			t := b.text(&c)
			return strings.Contains(t, "Component") || strings.Contains(t, "PureComponent")
		}
	}
	return false
}

// classMembers lists a class body's members; overload signatures join the
// implementation that follows them.
func (b *builder) classMembers(body *sitter.Node, className string) []*Symbol {
	var out []*Symbol
	var pendingStart = -1 // start byte of attached comments
	var pendingDoc string
	var pendingLine int
	for _, c := range b.children(body) {
		c := c
		k := b.kindOf(&c)
		if k == kComment {
			sl := b.line(int(c.StartByte()))
			if pendingStart < 0 || pendingLine+1 < sl {
				pendingStart = int(c.StartByte())
			}
			pendingLine = b.endLine(int(c.StartByte()), int(c.EndByte()))
			if d := lastJSDoc([]byte(b.text(&c))); d != "" {
				pendingDoc = d
			} else {
				pendingDoc = ""
			}
			continue
		}
		var s *Symbol
		switch k {
		case kMethodDef, kMethodSignature, kAbstractMethodSignature:
			name := b.memberName(&c)
			kindName := KindMethod
			if name == "constructor" {
				kindName = KindConstructor
			}
			s = b.function(&c, name, kindName)
			for _, m := range s.Modifiers {
				switch m {
				case "getter":
					s.Kind = KindGetter
				case "setter":
					s.Kind = KindSetter
				}
			}
		case kFieldDef:
			s = b.field(&c)
		case kStaticBlock:
			s = b.newSymbol(&c, "static", KindStaticBlock)
			s.Modifiers = []string{"static"}
			if blk := c.ChildByFieldName("body"); blk != nil {
				s.BodyStartByte = int(blk.StartByte())
				s.Children = b.nested(blk)
			}
		case kIndexSignature:
			s = b.newSymbol(&c, "[index]", KindIndex)
		case kDecorator:
			// JS grammar: decorators precede the member as siblings.
			if pendingStart < 0 {
				pendingStart = int(c.StartByte())
			}
			pendingLine = b.endLine(int(c.StartByte()), int(c.EndByte()))
			continue
		default:
			continue
		}
		if s.Signature == "" {
			s.Signature = b.signature(&c, s.BodyStartByte)
		}
		if pendingStart >= 0 && pendingLine+1 >= s.StartLine {
			s.StartByte = pendingStart
			s.StartLine = b.line(pendingStart)
			if pendingDoc != "" {
				s.JSDoc = pendingDoc
			}
		}
		pendingStart, pendingDoc = -1, ""
		out = append(out, s)
	}
	return mergeSameLine(mergeOverloads(out))
}

// mergeOverloads joins overload signatures with the implementation (or last
// signature) of the same name that directly follows them.
func mergeOverloads(in []*Symbol) []*Symbol {
	var out []*Symbol
	for _, s := range in {
		if len(out) > 0 {
			prev := out[len(out)-1]
			if prev.Name == s.Name && prev.Name != "" && !prev.BodyBearing() && prev.Kind == s.Kind &&
				(prev.Kind == KindMethod || prev.Kind == KindFunction || prev.Kind == KindConstructor) {
				s.StartByte, s.DeclStartByte, s.StartLine = prev.StartByte, prev.DeclStartByte, prev.StartLine
				if s.JSDoc == "" {
					s.JSDoc = prev.JSDoc
				}
				s.Modifiers = appendOnce(s.Modifiers, "overloaded")
				out[len(out)-1] = s
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

func (b *builder) field(n *sitter.Node) *Symbol {
	name := b.memberName(n)
	s := b.newSymbol(n, name, KindProperty)
	b.functionModifiers(n, s)
	if v := n.ChildByFieldName("value"); v != nil {
		switch b.kindOf(v) {
		case kArrowFunction, kFunctionExpression:
			fn := b.function(v, name, KindMethod)
			s.Kind = KindMethod
			s.BodyStartByte = fn.BodyStartByte
			s.Children = fn.Children
			s.Modifiers = append(s.Modifiers, fn.Modifiers...)
		case kClass:
			c := b.class(v, name)
			s.Kind = c.Kind
			s.BodyStartByte = c.BodyStartByte
			s.Children = c.Children
		default:
			s.Children = b.nested(v)
		}
	}
	return s
}

func (b *builder) memberName(n *sitter.Node) string {
	if nm := n.ChildByFieldName("name"); nm != nil {
		return b.text(nm)
	}
	if nm := n.ChildByFieldName("property"); nm != nil {
		return b.text(nm)
	}
	return ""
}

func (b *builder) typeMembers(body *sitter.Node) []*Symbol {
	var out []*Symbol
	for _, c := range b.namedChildren(body) {
		c := c
		var s *Symbol
		switch b.kindOf(&c) {
		case kPropertySignature:
			s = b.newSymbol(&c, b.memberName(&c), KindProperty)
			b.functionModifiers(&c, s)
		case kMethodSignature:
			s = b.newSymbol(&c, b.memberName(&c), KindMethod)
		case kCallSignature:
			s = b.newSymbol(&c, "()", KindCall)
		case kConstructSignature:
			s = b.newSymbol(&c, "new", KindMethod)
		case kIndexSignature:
			s = b.newSymbol(&c, "[index]", KindIndex)
		default:
			continue
		}
		s.Signature = collapseSpace(b.text(&c), 200)
		out = append(out, s)
	}
	return mergeSameLine(mergeOverloads(out))
}

func (b *builder) enumMembers(body *sitter.Node) []*Symbol {
	var out []*Symbol
	for _, c := range b.namedChildren(body) {
		c := c
		switch b.kindOf(&c) {
		case kEnumAssignment, kPropertyIdentifier, kString:
			name := b.text(&c)
			if nm := c.ChildByFieldName("name"); nm != nil {
				name = b.text(nm)
			}
			s := b.newSymbol(&c, name, KindEnumMember)
			s.Signature = collapseSpace(b.text(&c), 200)
			out = append(out, s)
		}
	}
	return mergeSameLine(out)
}

// variable handles const/let/var statements: one symbol per statement, named
// after its declarators, typed by what the first declarator holds.
func (b *builder) variable(n *sitter.Node) *Symbol {
	decl := ""
	for _, c := range b.children(n) {
		switch c.Kind() {
		case "const", "let", "var":
			decl = c.Kind()
		}
	}
	var names []string
	var first *sitter.Node
	destructures := false
	for _, c := range b.namedChildren(n) {
		if b.kindOf(&c) == kVariableDeclarator {
			c := c
			if first == nil {
				first = &c
			}
			// `const { a, b: c } = o` and `const [x, y] = p` declare a, c,
			// x and y: the statement is named after them, like `const
			// A = 1, B = 2`, so that each is found by its own name.
			if nn := c.ChildByFieldName("name"); nn != nil && (nn.Kind() == "object_pattern" || nn.Kind() == "array_pattern") {
				if ns := b.patternNames(nn); len(ns) > 0 {
					names = append(names, ns...)
					destructures = true
					continue
				}
			}
			names = append(names, b.fieldText(&c, "name"))
		}
	}
	k := KindVariable
	if decl == "const" {
		k = KindConst
	}
	s := b.newSymbol(n, strings.Join(names, ", "), k)
	if first == nil {
		return s
	}
	if len(names) > 1 || destructures {
		for _, c := range b.namedChildren(n) {
			c := c
			s.Children = append(s.Children, b.nested(&c)...)
		}
		return s
	}
	v := first.ChildByFieldName("value")
	if v == nil {
		return s
	}
	name := names[0]
	b.valueSymbol(s, v, name, first)
	return s
}

// valueSymbol refines s from the value it is bound to: functions, classes,
// components and objects of methods.
func (b *builder) valueSymbol(s *Symbol, v *sitter.Node, name string, declarator *sitter.Node) {
	switch b.kindOf(v) {
	case kArrowFunction, kFunctionExpression, kGeneratorFunction:
		fn := b.function(v, name, KindFunction)
		s.Kind = KindFunction
		s.BodyStartByte = fn.BodyStartByte
		s.Children = fn.Children
		s.Modifiers = append(s.Modifiers, fn.Modifiers...)
		if b.jsxAware && isComponentName(name) && (b.containsJSX(v) || b.componentType(declarator)) {
			s.Kind = KindComponent
		}
	case kClass:
		c := b.class(v, name)
		s.Kind = c.Kind
		s.BodyStartByte = c.BodyStartByte
		s.Children = c.Children
	case kObject:
		s.Children = b.objectMembers(v)
		if len(s.Children) > 0 {
			s.BodyStartByte = int(v.StartByte())
		}
	case kCall:
		// forwardRef(...), memo(...), styled wrappers: a component when it
		// wraps a function returning JSX.
		s.Children = b.nested(v)
		if b.jsxAware && isComponentName(name) && b.containsJSX(v) {
			callee := b.fieldText(v, "function")
			if strings.HasSuffix(callee, "forwardRef") || strings.HasSuffix(callee, "memo") || b.componentType(declarator) {
				s.Kind = KindComponent
				s.Children = flattenSingleCallback(s.Children)
			}
		}
	default:
		s.Children = b.nested(v)
		if declarator != nil && b.jsxAware && isComponentName(name) && b.componentType(declarator) {
			s.Kind = KindComponent
		}
	}
}

// flattenSingleCallback lifts the children of a component's sole wrapped
// render callback, so forwardRef((props, ref) => ...) reads like a function
// component.
func flattenSingleCallback(children []*Symbol) []*Symbol {
	if len(children) == 1 && children[0].Kind == KindCallback {
		return children[0].Children
	}
	return children
}

func (b *builder) componentType(declarator *sitter.Node) bool {
	if declarator == nil {
		return false
	}
	t := declarator.ChildByFieldName("type")
	if t == nil {
		return false
	}
	tt := b.text(t)
	return strings.Contains(tt, "FC") || strings.Contains(tt, "FunctionComponent") || strings.Contains(tt, "ComponentType")
}

// objectMembers returns the function-valued members of an object literal.
func (b *builder) objectMembers(obj *sitter.Node) []*Symbol {
	var out []*Symbol
	for _, c := range b.namedChildren(obj) {
		c := c
		switch b.kindOf(&c) {
		case kMethodDef:
			s := b.function(&c, b.memberName(&c), KindMethod)
			for _, m := range s.Modifiers {
				if m == "getter" {
					s.Kind = KindGetter
				} else if m == "setter" {
					s.Kind = KindSetter
				}
			}
			s.Signature = b.signature(&c, s.BodyStartByte)
			out = append(out, s)
		case kPair:
			v := c.ChildByFieldName("value")
			if v == nil {
				continue
			}
			switch b.kindOf(v) {
			case kArrowFunction, kFunctionExpression, kGeneratorFunction:
				name := b.fieldText(&c, "key")
				s := b.function(v, name, KindMethod)
				s.StartByte, s.DeclStartByte, s.StartLine = int(c.StartByte()), int(c.StartByte()), b.line(int(c.StartByte()))
				s.Signature = b.signature(&c, s.BodyStartByte)
				out = append(out, s)
			default:
				out = append(out, b.nested(v)...)
			}
		default:
			out = append(out, b.nested(&c)...)
		}
	}
	return mergeSameLine(out)
}

func (b *builder) importStatement(n *sitter.Node) *Symbol {
	module := unquote(b.fieldText(n, "source"))
	var names []string
	for _, c := range b.namedChildren(n) {
		switch b.kindOf(&c) {
		case kImportClause:
			names = append(names, b.importClauseNames(&c)...)
		case kImportRequireClause:
			for _, cc := range b.namedChildren(&c) {
				switch b.kindOf(&cc) {
				case kIdentifier:
					names = append(names, b.text(&cc))
				case kString:
					module = unquote(b.text(&cc))
				}
			}
		}
	}
	s := b.newSymbol(n, "import:"+module, KindImport)
	s.Signature = collapseSpace(b.text(n), 200)
	b.imports = append(b.imports, Import{Statement: b.text(n), Module: module, Names: names, StartLine: s.StartLine, EndLine: s.EndLine})
	return s
}

func (b *builder) importClauseNames(n *sitter.Node) []string {
	var names []string
	for _, c := range b.namedChildren(n) {
		switch b.kindOf(&c) {
		case kIdentifier:
			names = append(names, b.text(&c))
		case kNamespaceImport:
			for _, cc := range b.namedChildren(&c) {
				if b.kindOf(&cc) == kIdentifier {
					names = append(names, b.text(&cc))
				}
			}
		case kNamedImports:
			for _, spec := range b.namedChildren(&c) {
				if b.kindOf(&spec) != kImportSpecifier {
					continue
				}
				if alias := spec.ChildByFieldName("alias"); alias != nil {
					names = append(names, b.text(alias))
				} else if nm := spec.ChildByFieldName("name"); nm != nil {
					names = append(names, b.text(nm))
				}
			}
		}
	}
	return names
}

// requireImport treats `const x = require('m')` (and destructured forms) as
// an import: CommonJS code has no other way to say it.
func (b *builder) requireImport(n *sitter.Node) *Symbol {
	decls := 0
	var module string
	var names []string
	for _, c := range b.namedChildren(n) {
		if b.kindOf(&c) != kVariableDeclarator {
			continue
		}
		decls++
		v := c.ChildByFieldName("value")
		if v == nil || b.kindOf(v) != kCall || b.fieldText(v, "function") != "require" {
			return nil
		}
		args := v.ChildByFieldName("arguments")
		if args == nil || args.NamedChildCount() != 1 || b.kindOf(args.NamedChild(0)) != kString {
			return nil
		}
		module = unquote(b.text(args.NamedChild(0)))
		if nm := c.ChildByFieldName("name"); nm != nil {
			names = append(names, b.patternNames(nm)...)
		}
	}
	if decls != 1 {
		return nil
	}
	s := b.newSymbol(n, "import:"+module, KindImport)
	s.Signature = collapseSpace(b.text(n), 200)
	b.imports = append(b.imports, Import{Statement: b.text(n), Module: module, Names: names, StartLine: s.StartLine, EndLine: s.EndLine})
	return s
}

// patternNames lists the identifiers a binding pattern introduces.
func (b *builder) patternNames(n *sitter.Node) []string {
	switch b.kindOf(n) {
	case kIdentifier, kShorthandPattern:
		return []string{b.text(n)}
	}
	if left := n.ChildByFieldName("left"); left != nil {
		// `{ a = f(b) }`, `[x = y]`: only the left side is declared.
		return b.patternNames(left)
	}
	var out []string
	for _, c := range b.namedChildren(n) {
		c := c
		switch b.kindOf(&c) {
		case kPairPattern:
			if v := c.ChildByFieldName("value"); v != nil {
				out = append(out, b.patternNames(v)...)
			}
		default:
			out = append(out, b.patternNames(&c)...)
		}
	}
	return out
}

func (b *builder) exportStatement(n *sitter.Node) *Symbol {
	mods := []string{"exported"}
	if b.hasToken(n, "default") {
		mods = append(mods, "default")
	}
	if decl := n.ChildByFieldName("declaration"); decl != nil {
		s := b.declaration(decl, mods)
		if s == nil {
			s = b.newSymbol(decl, firstLine([]byte(b.text(decl))), KindStatement)
		}
		// The export keyword and decorators belong to the declaration's range.
		b.setSpan(s, n)
		s.Signature = b.signature(n, s.BodyStartByte)
		return s
	}
	if src := n.ChildByFieldName("source"); src != nil {
		s := b.newSymbol(n, "re-export:"+unquote(b.text(src)), KindReExport)
		s.Signature = collapseSpace(b.text(n), 200)
		s.Exported = true
		return s
	}
	if v := n.ChildByFieldName("value"); v != nil {
		var s *Symbol
		switch b.kindOf(v) {
		case kArrowFunction, kFunctionExpression, kGeneratorFunction:
			name := b.fieldText(v, "name")
			if name == "" {
				name = "default"
			}
			s = b.function(v, name, KindFunction)
		case kClass:
			name := b.fieldText(v, "name")
			if name == "" {
				name = "default"
			}
			s = b.class(v, name)
		default:
			s = b.newSymbol(v, collapseSpace(b.text(n), 60), KindExpression)
			s.Children = b.nested(v)
		}
		s.Modifiers = append(mods, s.Modifiers...)
		s.Exported = true
		b.setSpan(s, n)
		s.Signature = b.signature(n, s.BodyStartByte)
		return s
	}
	// export { a, b }; export = X; export as namespace X; export * as ns
	t := collapseSpace(b.text(n), 60)
	k := KindReExport
	if b.hasToken(n, "=") {
		k = KindExpression
	}
	s := b.newSymbol(n, t, k)
	s.Signature = collapseSpace(b.text(n), 200)
	s.Exported = true
	return s
}

// expressionStatement handles root expressions, recognising CommonJS exports
// (module.exports = ..., exports.x = ...) as the declarations they are.
func (b *builder) expressionStatement(n *sitter.Node) *Symbol {
	expr := n.NamedChild(0)
	if expr != nil && b.kindOf(expr) == kAssignment {
		left := b.fieldText(expr, "left")
		right := expr.ChildByFieldName("right")
		if right != nil && isCommonJSExport(left) {
			name := left
			if strings.HasPrefix(left, "exports.") || strings.HasPrefix(left, "module.exports.") {
				name = left[strings.LastIndexByte(left, '.')+1:]
			} else if own := b.fieldText(right, "name"); own != "" {
				name = own
			}
			s := b.newSymbol(n, name, KindVariable)
			b.valueSymbol(s, right, name, nil)
			s.Exported = true
			s.Modifiers = append([]string{"exported"}, s.Modifiers...)
			s.Signature = b.signature(n, s.BodyStartByte)
			return s
		}
	}
	s := b.newSymbol(n, firstLine(b.src[n.StartByte():n.EndByte()]), KindExpression)
	if expr != nil {
		s.Children = b.nested(expr)
	}
	s.Signature = collapseSpace(b.text(n), 200)
	return s
}

func isCommonJSExport(left string) bool {
	return left == "module.exports" || strings.HasPrefix(left, "module.exports.") || strings.HasPrefix(left, "exports.")
}

func (b *builder) hasToken(n *sitter.Node, tok string) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if !c.IsNamed() && c.Kind() == tok {
			return true
		}
	}
	return false
}

func (b *builder) fieldText(n *sitter.Node, field string) string {
	if c := n.ChildByFieldName(field); c != nil {
		return b.text(c)
	}
	return ""
}

// signature is the declaration text before its body (decorators skipped),
// whitespace collapsed; for bodiless declarations, the whole text.
func (b *builder) signature(n *sitter.Node, bodyStart int) string {
	start := int(n.StartByte())
	for _, c := range b.children(n) {
		if k := b.kindOf(&c); k == kDecorator || k == kComment {
			continue
		}
		start = int(c.StartByte())
		break
	}
	end := int(n.EndByte())
	if bodyStart >= start && bodyStart <= end {
		end = bodyStart
	}
	if start > end {
		start = end
	}
	return collapseSpace(string(b.src[start:end]), 300)
}

func collapseSpace(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimSuffix(s, ";")
	s = strings.TrimSpace(s)
	if len(s) > max {
		cut := max
		for cut > 0 && (s[cut]&0xC0) == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func firstLine(b []byte) string {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i]
	}
	return collapseSpace(string(b), 60)
}

func commentName(b []byte) string {
	s := strings.TrimSpace(string(b))
	for _, line := range lines.Split(s) {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "/*! ")
		line = strings.TrimSuffix(line, "*/")
		if line = strings.TrimSpace(line); line != "" {
			return collapseSpace(line, 60)
		}
	}
	return "comment"
}

// lastJSDoc returns the text of the last /** */ block in a comment run,
// without the comment markers.
func lastJSDoc(b []byte) string {
	i := bytes.LastIndex(b, []byte("/**"))
	if i < 0 {
		return ""
	}
	doc := b[i+3:]
	j := bytes.Index(doc, []byte("*/"))
	if j < 0 {
		return ""
	}
	if len(bytes.TrimSpace(b[i+3+j+2:])) != 0 {
		// Something other than whitespace follows the JSDoc: it is not the
		// comment directly above the declaration.
		return ""
	}
	var docLines []string
	for _, line := range lines.Split(string(doc[:j])) {
		line = strings.TrimSpace(line)
		line = strings.TrimPrefix(line, "*")
		docLines = append(docLines, strings.TrimSpace(line))
	}
	return strings.TrimSpace(strings.Join(docLines, "\n"))
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') {
		return s[1 : len(s)-1]
	}
	return s
}

func isComponentName(name string) bool {
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}

// containsJSX reports whether n's source contains a JSX element; a byte scan
// is enough because callers only ask about functions in JSX-capable files.
func (b *builder) containsJSX(n *sitter.Node) bool {
	t := b.src[n.StartByte():n.EndByte()]
	return bytes.Contains(t, []byte("</")) || bytes.Contains(t, []byte("/>"))
}
