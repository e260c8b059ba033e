package parse

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Declarations: functions, classes and their members, interfaces, type
// aliases and enums.

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
		if body := b.child(n, "body"); body != nil {
			s.BodyStartByte = int(body.StartByte())
			s.Children = b.typeMembers(body)
		}
	case kTypeAlias:
		s = b.newSymbol(n, b.fieldText(n, "name"), KindType)
	case kEnum:
		s = b.newSymbol(n, b.fieldText(n, "name"), KindEnum)
		if body := b.child(n, "body"); body != nil {
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
		if body := b.child(n, "body"); body != nil {
			s.BodyStartByte = int(body.StartByte())
			s.Children = b.namespaceBody(body, name)
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
					s.Children = b.namespaceBody(&c, "global")
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
// namespaceBody is the symbols of a namespace's (or a global block's)
// statements; none below MaxDepth, like nested.
func (b *builder) namespaceBody(body *sitter.Node, name string) []*Symbol {
	if b.level >= MaxDepth {
		return nil
	}
	b.level++
	defer func() { b.level-- }()
	return b.statements(b.namedChildren(body), name, 0)
}

func (b *builder) function(n *sitter.Node, name, k string) *Symbol {
	s := b.newSymbol(n, name, k)
	b.functionModifiers(n, s)
	if body := b.child(n, "body"); body != nil {
		// An arrow's expression body is a body too: a parent shows the
		// arrow's signature, not its multi-line expression. A curried
		// arrow's signature runs to its innermost body.
		inner := body
		for {
			k := b.kindOf(inner)
			if k != kArrowFunction && k != kFunctionExpression {
				break
			}
			next := b.child(inner, "body")
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

// modifierWords maps the modifier tokens of a declaration to the modifier
// scry records for them (an accessibility modifier is recorded as written).
var modifierWords = map[string]string{
	"async":    "async",
	"*":        "generator",
	"static":   "static",
	"abstract": "abstract",
	"readonly": "readonly",
	"override": "override",
	"declare":  "declare",
	"get":      "getter",
	"set":      "setter",
}

func (b *builder) functionModifiers(n *sitter.Node, s *Symbol) {
	for _, c := range b.children(n) {
		if m, ok := modifierWords[c.Kind()]; ok {
			s.Modifiers = appendOnce(s.Modifiers, m)
		} else if c.Kind() == "accessibility_modifier" {
			s.Modifiers = appendOnce(s.Modifiers, b.text(&c))
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
	if body := b.child(n, "body"); body != nil {
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
			if blk := b.child(&c, "body"); blk != nil {
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
	if v := b.child(n, "value"); v != nil {
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
	if nm := b.child(n, "name"); nm != nil {
		return b.text(nm)
	}
	if nm := b.child(n, "property"); nm != nil {
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
		if s.Kind != KindCall && s.Kind != KindIndex { // their kinds say so
			s.Modifiers = appendOnce(s.Modifiers, SignatureModifier)
		}
		s.Signature = collapseSpace(b.nodeView(&c), 200)
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
			if nm := b.child(&c, "name"); nm != nil {
				name = b.text(nm)
			}
			s := b.newSymbol(&c, name, KindEnumMember)
			s.Signature = collapseSpace(b.nodeView(&c), 200)
			out = append(out, s)
		}
	}
	return mergeSameLine(out)
}
