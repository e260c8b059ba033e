package snapshot

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// declClass says what a module-level name is bound to; it decides whether
// the declaration may be pulled in transitively.
type declClass uint8

const (
	declImport   declClass = iota // import, import x = require(), const x = require()
	declValue                     // const/let/var holding data
	declType                      // type alias, interface, enum
	declFunction                  // function, function-valued variable
	declClass_                    // class, namespace
)

// transitive reports whether an included declaration's reference to a
// declaration of class c pulls c in as well: what a declaration needs to be
// read on its own (its imports, constants and types), not what it calls.
func (c declClass) transitive() bool {
	return c == declImport || c == declValue || c == declType
}

// unit is one statement of a module-level statement list (the program or a
// namespace body).
type unit struct {
	node       sitter.Node
	start, end int // lines
}

type binding struct {
	unit  int
	class declClass
}

// moduleScope is a module-level statement list and the names it binds.
type moduleScope struct {
	units []unit
	names map[string][]binding
}

// newModuleScope indexes the statements of list (a program or a namespace
// body).
func (d *doc) newModuleScope(list *sitter.Node) *moduleScope {
	m := &moduleScope{names: map[string][]binding{}}
	d.indexStatements(m, list)
	return m
}

// indexStatements adds the statements of list to m. The statements of an
// ERROR node (tree-sitter can wrap most of a file it fails to parse in one)
// count as the list's own.
func (d *doc) indexStatements(m *moduleScope, list *sitter.Node) {
	for _, c := range list.NamedChildren(d.cursor) {
		c := c
		switch d.kind(&c) {
		case kComment:
			continue
		case kError:
			d.indexStatements(m, &c)
			continue
		}
		s, e := d.lines(&c)
		idx := len(m.units)
		m.units = append(m.units, unit{node: c, start: s, end: e})
		d.bindStatement(&c, func(name string, cls declClass) {
			for _, b := range m.names[name] {
				if b.unit == idx {
					return
				}
			}
			m.names[name] = append(m.names[name], binding{unit: idx, class: cls})
		})
	}
}

// bindStatement reports the names a module-level statement declares.
func (d *doc) bindStatement(n *sitter.Node, add func(string, declClass)) {
	g := d.g
	switch d.kind(n) {
	case kImport:
		for _, c := range n.NamedChildren(d.cursor) {
			c := c
			switch d.kind(&c) {
			case kImportClause:
				d.importClauseNames(&c, func(name string) { add(name, declImport) })
			case kImportRequireClause:
				if id := firstNamed(d, &c, kIdentifier); id != nil {
					add(d.text(id), declImport)
				}
			}
		}
	case kImportAlias:
		if id := firstNamed(d, n, kIdentifier); id != nil {
			add(d.text(id), declImport)
		}
	case kExport:
		if decl := g.child(n, fDeclaration); decl != nil {
			d.bindStatement(decl, add)
		}
	case kAmbient:
		for _, c := range n.NamedChildren(d.cursor) {
			c := c
			d.bindStatement(&c, add)
		}
	case kLexical, kVariable:
		for _, c := range n.NamedChildren(d.cursor) {
			c := c
			if d.kind(&c) != kDeclarator {
				continue
			}
			cls := d.valueClass(g.child(&c, fValue))
			if name := g.child(&c, fName); name != nil {
				d.patternNames(name, func(s string) { add(s, cls) })
			}
		}
	case kFunctionDecl, kGeneratorFunctionDecl, kFunctionSignature:
		if name := g.child(n, fName); name != nil {
			add(d.text(name), declFunction)
		}
	case kClassDecl, kAbstractClassDecl:
		if name := g.child(n, fName); name != nil {
			add(d.text(name), declClass_)
		}
	case kInterface, kTypeAlias, kEnum:
		if name := g.child(n, fName); name != nil {
			add(d.text(name), declType)
		}
	case kExpressionStatement:
		if c := n.NamedChild(0); c != nil {
			switch d.kind(c) {
			case kInternalModule, kModule:
				d.bindStatement(c, add)
			}
		}
	case kInternalModule, kModule:
		name := g.child(n, fName)
		for name != nil && d.kind(name) != kIdentifier {
			// namespace A.B.C binds A
			name = g.child(name, fObject)
		}
		if name != nil {
			add(d.text(name), declClass_)
		}
	}
}

// valueClass classifies what a variable is initialised with.
func (d *doc) valueClass(v *sitter.Node) declClass {
	for v != nil && d.kind(v) == kParenthesized {
		v = v.NamedChild(0)
	}
	if v == nil {
		return declValue
	}
	switch d.kind(v) {
	case kArrowFunction, kFunctionExpr, kGeneratorFunction:
		return declFunction
	case kClass:
		return declClass_
	case kCall, kMemberExpression:
		if d.isRequire(v) {
			return declImport
		}
	}
	return declValue
}

// isRequire reports whether v is require('m') or require('m').x.y.
func (d *doc) isRequire(v *sitter.Node) bool {
	for v != nil && d.kind(v) == kMemberExpression {
		v = d.g.child(v, fObject)
	}
	if v == nil || d.kind(v) != kCall {
		return false
	}
	fn := d.g.child(v, fFunction)
	return fn != nil && d.kind(fn) == kIdentifier && d.text(fn) == "require"
}

func (d *doc) importClauseNames(n *sitter.Node, add func(string)) {
	for _, c := range n.NamedChildren(d.cursor) {
		c := c
		switch d.kind(&c) {
		case kIdentifier:
			add(d.text(&c))
		case kNamespaceImport:
			if id := firstNamed(d, &c, kIdentifier); id != nil {
				add(d.text(id))
			}
		case kNamedImports:
			for _, spec := range c.NamedChildren(d.cursor) {
				spec := spec
				if d.kind(&spec) != kImportSpecifier {
					continue
				}
				if alias := d.g.child(&spec, fAlias); alias != nil {
					add(d.text(alias))
				} else if name := d.g.child(&spec, fName); name != nil {
					add(d.text(name))
				}
			}
		}
	}
}

// patternNames reports the names a binding pattern (or a parameter list)
// introduces.
func (d *doc) patternNames(n *sitter.Node, add func(string)) {
	g := d.g
	switch d.kind(n) {
	case kIdentifier, kShorthandPattern:
		add(d.text(n))
	case kObjectPattern, kArrayPattern, kRestPattern, kFormalParameters:
		for _, c := range n.NamedChildren(d.cursor) {
			c := c
			d.patternNames(&c, add)
		}
	case kPairPattern:
		if v := g.child(n, fValue); v != nil {
			d.patternNames(v, add)
		}
	case kAssignmentPattern, kObjectAssignmentPattern:
		if l := g.child(n, fLeft); l != nil {
			d.patternNames(l, add)
		}
	case kRequiredParameter, kOptionalParameter:
		if p := g.child(n, fPattern); p != nil {
			d.patternNames(p, add)
		}
	case kTypeParameters:
		for _, c := range n.NamedChildren(d.cursor) {
			c := c
			if d.kind(&c) == kTypeParameter {
				if name := g.child(&c, fName); name != nil {
					add(d.text(name))
				}
			}
		}
	}
}

// firstNamed returns n's first named child of kind k.
func firstNamed(d *doc, n *sitter.Node, k kind) *sitter.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c != nil && d.kind(c) == k {
			return c
		}
	}
	return nil
}

// classInfo indexes the members of one class body that a target can read
// through this: non-function fields and constructor parameter properties.
type classInfo struct {
	name       string
	fields     map[string]sitter.Node
	ctor       *sitter.Node
	paramProps map[string]bool
}

// newClassInfo indexes class body body; decl is the class node around it and
// declarator the variable it is assigned to, if any (for `const A = class`).
func (d *doc) newClassInfo(body, decl, declarator *sitter.Node) *classInfo {
	g := d.g
	ci := &classInfo{fields: map[string]sitter.Node{}, paramProps: map[string]bool{}}
	if decl != nil {
		if name := g.child(decl, fName); name != nil {
			ci.name = d.text(name)
		}
	}
	if ci.name == "" && declarator != nil {
		if name := g.child(declarator, fName); name != nil && d.kind(name) == kIdentifier {
			ci.name = d.text(name)
		}
	}
	for _, c := range body.NamedChildren(d.cursor) {
		c := c
		switch d.kind(&c) {
		case kFieldDef:
			name := g.child(&c, fName)
			if name == nil {
				name = g.child(&c, fProperty) // JavaScript's field_definition
			}
			if name == nil {
				continue
			}
			if cls := d.valueClass(g.child(&c, fValue)); cls == declFunction {
				continue
			}
			if _, dup := ci.fields[d.text(name)]; !dup {
				ci.fields[d.text(name)] = c
			}
		case kMethod:
			name := g.child(&c, fName)
			if name == nil || d.text(name) != "constructor" || g.child(&c, fBody) == nil {
				continue
			}
			ci.ctor = &c
			params := g.child(&c, fParameters)
			if params == nil {
				continue
			}
			for _, p := range params.NamedChildren(d.cursor) {
				p := p
				if k := d.kind(&p); (k == kRequiredParameter || k == kOptionalParameter) && d.isParamProperty(&p) {
					d.patternNames(&p, func(s string) { ci.paramProps[s] = true })
				}
			}
		}
	}
	return ci
}

// isParamProperty reports whether constructor parameter p also declares a
// property: it carries an accessibility modifier, readonly or override.
func (d *doc) isParamProperty(p *sitter.Node) bool {
	for i := uint(0); i < p.ChildCount(); i++ {
		c := p.Child(i)
		if c == nil {
			continue
		}
		if d.kind(c) == kAccessibilityModifier {
			return true
		}
		switch c.Kind() {
		case "readonly", "override_modifier", "override":
			return true
		}
	}
	return false
}
