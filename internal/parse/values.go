package parse

import (
	"bytes"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Values: variables and what their initialisers make of them (functions,
// components, objects with members).

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
			if nn := b.child(&c, "name"); nn != nil && (nn.Kind() == "object_pattern" || nn.Kind() == "array_pattern") {
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
	v := b.child(first, "value")
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
	t := b.child(declarator, "type")
	if t == nil {
		return false
	}
	tt := b.text(t)
	return strings.Contains(tt, "FC") || strings.Contains(tt, "FunctionComponent") || strings.Contains(tt, "ComponentType")
}

// objectMethod is a method written in an object literal (`save() {…}`,
// `get size() {…}`).
func (b *builder) objectMethod(n *sitter.Node) *Symbol {
	s := b.function(n, b.memberName(n), KindMethod)
	for _, m := range s.Modifiers {
		if m == "getter" {
			s.Kind = KindGetter
		} else if m == "setter" {
			s.Kind = KindSetter
		}
	}
	s.Signature = b.signature(n, s.BodyStartByte)
	return s
}

// objectMembers returns the function-valued members of an object literal.
func (b *builder) objectMembers(obj *sitter.Node) []*Symbol {
	var out []*Symbol
	for _, c := range b.namedChildren(obj) {
		c := c
		switch b.kindOf(&c) {
		case kMethodDef:
			out = append(out, b.objectMethod(&c))
		case kPair:
			v := b.child(&c, "value")
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

func isComponentName(name string) bool {
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}

// containsJSX reports whether n's source contains a JSX element; a byte scan
// is enough because callers only ask about functions in JSX-capable files.
func (b *builder) containsJSX(n *sitter.Node) bool {
	t := b.src[n.StartByte():n.EndByte()]
	return bytes.Contains(t, []byte("</")) || bytes.Contains(t, []byte("/>"))
}
