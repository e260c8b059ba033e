package parse

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func (b *builder) nestedSymbol(n *sitter.Node, k kind) *Symbol {
	var s *Symbol
	switch k {
	case kFunctionDecl, kGeneratorFunctionDecl:
		s = b.function(n, b.fieldText(n, "name"), KindFunction)
	case kClassDecl, kAbstractClassDecl:
		s = b.class(n, b.fieldText(n, "name"))
	case kLexical, kVariable:
		if !b.declaresFunction(n) {
			return nil
		}
		s = b.variable(n)
	case kClass:
		name, _ := b.contextName(n)
		s = b.class(n, name)
	case kArrowFunction, kFunctionExpression, kGeneratorFunction:
		body := b.child(n, "body")
		if body == nil || b.kindOf(body) != kStatementBlock {
			return nil
		}
		if b.line(int(body.StartByte())) == b.endLine(int(body.StartByte()), int(body.EndByte())) {
			// One-line callbacks are part of their statement, not symbols.
			return nil
		}
		name, sk := b.contextName(n)
		if own := b.fieldText(n, "name"); own != "" {
			name = own
			// A function expression with a name of its own that is not
			// passed to a call is a function by that name: redux-toolkit's
			// buildCreateSlice returns `function createSlice(…) {…}`.
			if p := n.Parent(); sk == KindCallback && (p == nil || b.kindOf(p) != kArguments) {
				sk = KindFunction
			}
		}
		s = b.function(n, name, sk)
	default:
		return nil
	}
	if s.Signature == "" {
		s.Signature = b.signature(n, s.BodyStartByte)
	}
	return s
}

func (b *builder) declaresFunction(n *sitter.Node) bool {
	for _, c := range b.namedChildren(n) {
		if b.kindOf(&c) != kVariableDeclarator {
			continue
		}
		if v := b.child(&c, "value"); v != nil {
			switch b.kindOf(v) {
			case kArrowFunction, kFunctionExpression, kGeneratorFunction, kClass:
				return true
			}
		}
	}
	return false
}

// contextName names an anonymous function or class after where it sits:
// `items.forEach() callback`, `describe('parser') callback`, an object key, an
// assignment target or a JSX attribute.
func (b *builder) contextName(n *sitter.Node) (string, string) {
	p := n.Parent()
	if p == nil {
		return "<function>", KindCallback
	}
	switch b.kindOf(p) {
	case kArguments:
		call := p.Parent()
		if call == nil {
			break
		}
		callee := b.fieldText(call, "function")
		if b.kindOf(call) == kNew {
			callee = "new " + b.fieldText(call, "constructor")
		}
		callee = collapseSpace(callee, 40)
		arg := ""
		if first := p.NamedChild(0); first != nil && b.kindOf(first) == kString && first.Id() != n.Id() {
			arg = collapseSpace(b.nodeView(first), 40)
		}
		return callee + "(" + arg + ") callback", KindCallback
	case kPair:
		return b.fieldText(p, "key"), KindMethod
	case kAssignment:
		return collapseSpace(b.fieldText(p, "left"), 60), KindFunction
	case kVariableDeclarator:
		return b.fieldText(p, "name"), KindFunction
	case kJSXExpression:
		if attr := p.Parent(); attr != nil && b.kindOf(attr) == kJSXAttribute {
			if nm := attr.NamedChild(0); nm != nil {
				return strings.TrimSpace(b.text(nm)), KindCallback
			}
		}
	}
	return "<function>", KindCallback
}
