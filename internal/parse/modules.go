package parse

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Modules: imports, require calls and exports.

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
	return b.importSymbol(n, module, names)
}

// importSymbol is the statement n importing module, recorded among the
// file's imports with the names it binds.
func (b *builder) importSymbol(n *sitter.Node, module string, names []string) *Symbol {
	s := b.newSymbol(n, "import:"+module, KindImport)
	s.Signature = collapseSpace(b.nodeView(n), 200)
	b.imports = append(b.imports, Import{Statement: b.text(n), Module: module, Names: names, StartLine: s.StartLine, EndLine: s.EndLine})
	return s
}

// reExportSymbol is the statement n exporting again what module exports.
func (b *builder) reExportSymbol(n *sitter.Node, module string) *Symbol {
	s := b.newSymbol(n, "re-export:"+module, KindReExport)
	s.Signature = collapseSpace(b.nodeView(n), 200)
	s.Exported = true
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
				if alias := b.child(&spec, "alias"); alias != nil {
					names = append(names, b.text(alias))
				} else if nm := b.child(&spec, "name"); nm != nil {
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
		m, member := b.requiredModule(b.child(&c, "value"))
		if m == "" {
			return nil
		}
		module = m
		if member != "" {
			names = append(names, member)
		} else if nm := b.child(&c, "name"); nm != nil {
			names = append(names, b.patternNames(nm)...)
		}
	}
	if decls != 1 {
		return nil
	}
	return b.importSymbol(n, module, names)
}

// requiredModule is the module a value requires, as CommonJS writes it:
// `require('m')`, a member of it (`require('./runnable.js').Runnable`), or
// what it returns called (`require('debug')('mocha:runner')`); "" for any
// other value. member is the first name the value reads from the module,
// when it reads one.
func (b *builder) requiredModule(v *sitter.Node) (module, member string) {
	for depth := 0; v != nil && depth < 8; depth++ {
		switch b.kindOf(v) {
		case kCall:
			fn := b.child(v, "function")
			if fn == nil || b.kindOf(fn) != kIdentifier || b.text(fn) != "require" {
				v = fn
				continue
			}
			args := b.child(v, "arguments")
			if args == nil || args.NamedChildCount() != 1 || b.kindOf(args.NamedChild(0)) != kString {
				return "", ""
			}
			return unquote(b.text(args.NamedChild(0))), member
		case kMember:
			member = b.fieldText(v, "property")
			v = b.child(v, "object")
		default:
			return "", ""
		}
	}
	return "", ""
}

// patternNames lists the identifiers a binding pattern introduces.
func (b *builder) patternNames(n *sitter.Node) []string {
	switch b.kindOf(n) {
	case kIdentifier, kShorthandPattern:
		return []string{b.text(n)}
	}
	if left := b.child(n, "left"); left != nil {
		// `{ a = f(b) }`, `[x = y]`: only the left side is declared.
		return b.patternNames(left)
	}
	var out []string
	for _, c := range b.namedChildren(n) {
		c := c
		switch b.kindOf(&c) {
		case kPairPattern:
			if v := b.child(&c, "value"); v != nil {
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
	if decl := b.child(n, "declaration"); decl != nil {
		s := b.declaration(decl, mods)
		if s == nil {
			s = b.newSymbol(decl, firstLine([]byte(b.text(decl))), KindStatement)
		}
		// The export keyword and decorators belong to the declaration's range.
		b.setSpan(s, n)
		s.Signature = b.signature(n, s.BodyStartByte)
		return s
	}
	if src := b.child(n, "source"); src != nil {
		return b.reExportSymbol(n, unquote(b.text(src)))
	}
	if v := b.child(n, "value"); v != nil {
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
			// export default { … } or defineConfig({ … }): the module's
			// default export, named as the compiler names it (as an
			// anonymous function or class is above), not by its text.
			s = b.newSymbol(v, "default", KindExpression)
			s.Children = b.nested(v)
		}
		s.Modifiers = append(mods, s.Modifiers...)
		s.Exported = true
		b.setSpan(s, n)
		s.Signature = b.signature(n, s.BodyStartByte)
		return s
	}
	// export { a, b }; export = X; export as namespace X; export * as ns
	t := collapseSpace(b.nodeView(n), 60)
	k := KindReExport
	if b.hasToken(n, "=") {
		k = KindExpression
	}
	s := b.newSymbol(n, t, k)
	s.Signature = collapseSpace(b.nodeView(n), 200)
	s.Exported = true
	return s
}
