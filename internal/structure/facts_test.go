package structure_test

import (
	"context"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/structure"
)

// TestKeyFacts states the acceptance criteria outright, so that a careless
// -update of the golden files cannot quietly accept a regression in them.
func TestKeyFacts(t *testing.T) {
	tslstestBinary(t)
	ask := func(t *testing.T, fixture string, q query) *structure.SymbolMetadata {
		t.Helper()
		root := fixtureDir(t, fixture)
		res := structure.NewCompiler(serverFor(t, root))
		md, err := res.Metadata(context.Background(), targetOf(t, root, q), structure.Options{CallDepth: q.Depth, Sections: q.Sections})
		if err != nil {
			t.Fatal(err)
		}
		return md
	}
	names := func(calls []structure.OutgoingCall) string {
		return callTree(calls, func(c structure.OutgoingCall) (string, bool, bool, []structure.OutgoingCall) {
			return c.Name, c.Cyclic, c.DepthLimited, c.OutgoingCalls
		})
	}
	callers := func(calls []structure.IncomingCaller) string {
		return callTree(calls, func(c structure.IncomingCaller) (string, bool, bool, []structure.IncomingCaller) {
			return c.Name, c.Cyclic, c.DepthLimited, c.IncomingCallers
		})
	}

	// 7 uses and the 3 plain imports (the fourth, renamed, import is one
	// of the uses: counted at its imported name).
	t.Run("references across 5 files", func(t *testing.T) {
		md := ask(t, "references", query{File: "currency.ts", Decl: "function formatCurrency", Symbol: "formatCurrency", Sections: structure.SecReferences})
		r := md.References
		if r.Count != 10 || strings.Join(r.Files, " ") != "cart.ts invoice.ts receipt.ts report.ts views/summary.ts" || !r.DeclarationExcluded {
			t.Errorf("references = %d in %v", r.Count, r.Files)
		}
	})
	t.Run("multi-hop depths", func(t *testing.T) {
		for depth, want := range map[int]string{
			1:  "process[depth limit]",
			2:  "process(execute[depth limit])",
			3:  "process(execute(compute))",
			-1: "process(execute(compute))",
		} {
			md := ask(t, "multi-hop", query{File: "entry.ts", Decl: "function handle", Symbol: "handle", Depth: depth, Sections: structure.SecOutgoing})
			if got := names(md.OutgoingCalls); got != want {
				t.Errorf("depth %d: %s, want %s", depth, got, want)
			}
		}
	})
	t.Run("cycles", func(t *testing.T) {
		for depth, want := range map[int]string{1: "beta[depth limit]", 2: "beta(alpha[cycle])", -1: "beta(alpha[cycle])"} {
			md := ask(t, "cycle", query{File: "alpha.ts", Decl: "function alpha", Symbol: "alpha", Depth: depth, Sections: structure.SecOutgoing | structure.SecIncoming})
			if got := names(md.OutgoingCalls); got != want {
				t.Errorf("alpha depth %d calls: %s, want %s", depth, got, want)
			}
			if got := callers(md.IncomingCallers); got != want {
				t.Errorf("alpha depth %d callers: %s, want %s", depth, got, want)
			}
		}
		md := ask(t, "cycle", query{File: "math.ts", Decl: "function factorial", Symbol: "factorial", Depth: -1, Sections: structure.SecOutgoing})
		if got := names(md.OutgoingCalls); got != "factorial[cycle]" {
			t.Errorf("factorial: %s", got)
		}
	})
	t.Run("constructor via new", func(t *testing.T) {
		md := ask(t, "constructor", query{File: "factory.ts", Decl: "function createWidget", Symbol: "createWidget", Depth: 2, Sections: structure.SecOutgoing})
		c := md.OutgoingCalls
		if len(c) != 1 || c[0].Name != "Widget" || c[0].Kind != "constructor" || !c[0].ViaNew || c[0].Line != 6 || names(c) != "Widget(initialize)" {
			t.Errorf("createWidget calls: %+v", c)
		}
	})
	t.Run("aliased call through a barrel", func(t *testing.T) {
		md := ask(t, "cross-module", query{File: "lib/crypto.ts", Decl: "function hmac", Symbol: "hmac", Sections: structure.SecIncoming})
		if got := callers(md.IncomingCallers); got != "signRequest digest[depth limit]" {
			t.Errorf("hmac callers: %s", got)
		}
	})
	t.Run("type hierarchy", func(t *testing.T) {
		md := ask(t, "type-hierarchy", query{File: "generics.ts", Decl: "class UserRepository", Symbol: "UserRepository", Sections: structure.SecHierarchy})
		th := md.TypeHierarchy
		if th.Extends == nil || th.Extends.Name != "Container" || len(th.Implements) != 1 || th.Implements[0].Name != "Queryable" {
			t.Errorf("UserRepository: %+v", th)
		}
		md = ask(t, "type-hierarchy", query{File: "generics.ts", Decl: "interface Repository", Symbol: "Repository", Sections: structure.SecHierarchy})
		tp := md.TypeHierarchy.TypeParameters
		if len(tp) != 2 || tp[0] != (structure.TypeParameter{Name: "T", Constraint: "Entity"}) || tp[1] != (structure.TypeParameter{Name: "ID", Default: "string"}) {
			t.Errorf("Repository type parameters: %+v", tp)
		}
		md = ask(t, "type-hierarchy", query{File: "models.ts", Decl: "class BaseModel", Symbol: "BaseModel", Sections: structure.SecHierarchy})
		th = md.TypeHierarchy
		var subs []string
		for _, s := range th.Subtypes {
			subs = append(subs, s.Name)
		}
		if !th.IsAbstract || strings.Join(subs, " ") != "AuditedModel User" {
			t.Errorf("BaseModel: abstract %v, subtypes %v", th.IsAbstract, subs)
		}
	})
	t.Run("type flows", func(t *testing.T) {
		md := ask(t, "type-flows", query{File: "checkout.ts", Decl: "function checkout", Symbol: "checkout", Sections: structure.SecTypeFlows})
		tf := md.TypeFlows
		if tf.Parameters[0].Types[0].File != "models/order.ts" || tf.Returns.Types[0].File != "models/receipt.ts" ||
			!tf.Parameters[1].Types[0].External || tf.Parameters[1].Types[0].Package != "fake-money" {
			t.Errorf("checkout flows: %+v", tf)
		}
	})
}

// callTree writes a call tree (callees or callers) on one line: each call
// by name, marked [cycle] and [depth limit] where it is, with the calls
// under it in parentheses. node gives a call's name, marks and calls.
func callTree[C any](calls []C, node func(C) (name string, cyclic, depthLimited bool, under []C)) string {
	var out []string
	for _, c := range calls {
		s, cyclic, limited, under := node(c)
		if cyclic {
			s += "[cycle]"
		}
		if limited {
			s += "[depth limit]"
		}
		if len(under) > 0 {
			s += "(" + callTree(under, node) + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}
