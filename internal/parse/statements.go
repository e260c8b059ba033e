package parse

import (
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/lines"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Statements: the top-level and block statements of a file become
// symbols, merged and gap-filled so that every line belongs to one.

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
		case s.fragment && !prev.fragment && prev.Kind != KindComment:
			// Nor does what the grammar failed to parse at the end of a
			// declaration's line: export type V = import('m').V<A, B>; is
			// the type V, though tree-sitter stops before "<A, B>;".
			prev.Children = append(prev.Children, s.Children...)
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
		// A name written with escapes is the identifier the compiler
		// reads (\u0061bc is abc), not an anonymous declaration.
		s.Name = ident.Decode(s.Name)
		s.Depth = depth
		s.ParentName = parent
		if depth >= MaxDepth {
			// The deepest symbol keeps what nests inside it in its own
			// source (see MaxDepth).
			s.Children = nil
		}
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

// statement converts one statement node into a symbol (nil for nothing).
func (b *builder) statement(n *sitter.Node, parent string, depth int) *Symbol {
	switch b.kindOf(n) {
	case kImport:
		return b.importStatement(n)
	case kExport:
		return b.exportStatement(n)
	case kEmpty:
		s := b.newSymbol(n, ";", KindStatement)
		s.fragment = true
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
	}
	if s := b.declaration(n, nil); s != nil {
		return s
	}
	s := b.newSymbol(n, firstLine(b.src[n.StartByte():n.EndByte()]), KindStatement)
	s.Children = b.nested(n)
	// An error node's kind id lies outside the grammar's table, so it
	// arrives here rather than under a kind of its own.
	s.fragment = n.IsError()
	return s
}

// expressionStatement handles root expressions, recognising CommonJS exports
// (module.exports = ..., exports.x = ...) as the declarations they are.
func (b *builder) expressionStatement(n *sitter.Node) *Symbol {
	expr := n.NamedChild(0)
	if expr != nil && b.kindOf(expr) == kCall && b.fieldText(expr, "function") == "require" {
		if module, _ := b.requiredModule(expr); module != "" {
			return b.importSymbol(n, module, nil) // `require('./setup')`, for its effects
		}
	}
	if expr != nil && b.kindOf(expr) == kAssignment {
		left := b.fieldText(expr, "left")
		right := b.child(expr, "right")
		if right != nil && isCommonJSExport(left) {
			if module, _ := b.requiredModule(right); module != "" {
				// `exports.Runnable = require('./runnable.js').Runnable`,
				// `module.exports = require('./lib')`: CommonJS's
				// re-export, as `export { Runnable } from …` is ESM's.
				return b.reExportSymbol(n, module)
			}
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
	if s := b.assignedDefinition(n, expr); s != nil {
		return s
	}
	s := b.newSymbol(n, firstLine(b.src[n.StartByte():n.EndByte()]), KindExpression)
	if expr != nil {
		s.Children = b.nested(expr)
	}
	s.Signature = collapseSpace(b.nodeView(n), 200)
	return s
}

// assignedDefinition recognises a function or class assigned to a name at the
// root (Mocha.prototype.retries = function (n) {...}, Reply.prototype.send =
// ..., Foo.create = () => {...}), how CommonJS-era code defines its methods:
// the statement is that definition, named by its target and carrying the doc
// comment above it. Otherwise it would be an expression named by its first
// line, wrapped around a function of the same name that lacks the comment.
func (b *builder) assignedDefinition(n, expr *sitter.Node) *Symbol {
	if expr == nil || b.kindOf(expr) != kAssignment {
		return nil
	}
	right := b.child(expr, "right")
	if right == nil {
		return nil
	}
	switch b.kindOf(right) {
	case kArrowFunction, kFunctionExpression, kGeneratorFunction, kClass:
	default:
		return nil
	}
	left := b.fieldText(expr, "left")
	if len(left) > 120 || !ident.IsPath(left) {
		return nil
	}
	s := b.newSymbol(n, left, KindFunction)
	b.valueSymbol(s, right, left, nil)
	s.Signature = b.signature(n, s.BodyStartByte)
	return s
}

func isCommonJSExport(left string) bool {
	return left == "module.exports" || strings.HasPrefix(left, "module.exports.") || strings.HasPrefix(left, "exports.")
}
