package parse

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/scry-dev/scry/internal/ident"
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
		if !b.multiLineBody(n) {
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
	case kMethodDef:
		// A method written in an object literal that is no variable's
		// value (those are objectMembers'): an argument, `defineComponent({
		// setup() {…} })`, `new Proxy(t, { get(…) {…} })`, or a nested
		// object, `reducers: { add(state) {…} }`. Multi-line, as for
		// callbacks. Methods of classes are their class's. In tests such
		// objects are mocks and fixtures (`read(existing) {…}` in a cache
		// policy under test), part of their test: as symbols they crowded
		// the first stage out of the code's candidates.
		if p := n.Parent(); b.testCode || p == nil || b.kindOf(p) != kObject || !b.multiLineBody(n) {
			return nil
		}
		s = b.objectMethod(n)
	default:
		return nil
	}
	if s.Signature == "" {
		s.Signature = b.signature(n, s.BodyStartByte)
	}
	return s
}

// multiLineBody reports whether a function has a block body over more
// than one line.
func (b *builder) multiLineBody(n *sitter.Node) bool {
	body := b.child(n, "body")
	if body == nil || b.kindOf(body) != kStatementBlock {
		return false
	}
	return b.line(int(body.StartByte())) != b.endLine(int(body.StartByte()), int(body.EndByte()))
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
		callee := b.calleeText(b.child(call, "function"))
		if b.kindOf(call) == kNew {
			callee = "new " + b.fieldText(call, "constructor")
		}
		callee = collapseSpace(callee, ident.CallbackCallee)
		arg := ""
		if first := p.NamedChild(0); first != nil && b.kindOf(first) == kString && first.Id() != n.Id() {
			arg = collapseSpace(b.nodeView(first), ident.CallbackTitle)
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

// calleeText is a callee as written, the argument lists of the calls along
// its spine (`f(…)(cb)`, `a(…).b(cb)`) that run over a line or past
// ident.CallbackArguments bytes shown as "(…)": `it.each([ 'http:/…', // …])('t', fn)`
// is named `it.each(…)('t') callback`, not by the first 40 bytes of its
// table; `fetch(url).then(cb)` keeps its `url`.
func (b *builder) calleeText(fn *sitter.Node) string {
	if fn == nil {
		return ""
	}
	// The spine is walked from the outside in, so the cuts come last
	// first.
	var cuts [][2]int
	for n := fn; n != nil; {
		var next *sitter.Node
		switch b.kindOf(n) {
		case kCall:
			if args := b.child(n, "arguments"); args != nil {
				if v := b.nodeView(args); len(v) > ident.CallbackArguments || strings.ContainsAny(v, "\n\r") {
					cuts = append(cuts, [2]int{int(args.StartByte()), int(args.EndByte())})
				}
			}
			next = b.child(n, "function")
		case kMember:
			next = b.child(n, "object")
		}
		n = next
	}
	if len(cuts) == 0 {
		return tightDots(b.nodeView(fn))
	}
	var sb strings.Builder
	pos := int(fn.StartByte())
	for i := len(cuts) - 1; i >= 0; i-- {
		sb.WriteString(b.view(pos, cuts[i][0]))
		sb.WriteString("(…)")
		pos = cuts[i][1]
	}
	sb.WriteString(b.view(pos, int(fn.EndByte())))
	return tightDots(sb.String())
}

// tightDots joins a member chain written over lines (`tasks\n  .filter(…)`)
// as it reads on one: `tasks.filter(…)`, as the compiler's callers name it.
func tightDots(s string) string {
	// The name keeps 40 bytes of it (collapseSpace): a callee that is a
	// whole function expression, `(function () {…})(cb)`, is read no
	// further than this.
	const enough = 4096
	if len(s) > enough {
		s = s[:enough]
	}
	if !strings.ContainsAny(s, "\n\r") {
		return strings.Clone(s)
	}
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(" ?.", "?.", " .", ".").Replace(s)
}
