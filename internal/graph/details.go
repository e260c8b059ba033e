// The Details section: one block per result (kind and modifiers,
// references, signature, hierarchy, types in and out, members).

package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/textfmt"
)

func (m *model) details(i int, single, noteApprox bool) []string {
	r := m.in.Results[i-1]
	head := r.Name + " — " + textfmt.Name(r.File)
	if !single {
		head = "[" + strconv.Itoa(i) + "] " + head
	}
	lines := []string{head, detailIndent + kindLine(r)}
	add := func(label, text string) {
		if text != "" {
			lines = append(lines, detailIndent+label+": "+text)
		}
	}
	add("Signature", oneLine(r.Signature))
	if r.Extends != nil {
		add("Extends", m.refText(*r.Extends, i))
	}
	// An interface's heritage is what it extends (structure keeps it in
	// Implements with a class's interfaces).
	if r.Kind == "interface" {
		add("Extends", m.refs(r.Implements, i))
	} else {
		add("Implements", m.refs(r.Implements, i))
	}
	add("Subtypes", m.refs(r.Subtypes, i))
	if single {
		lines = append(lines, m.callLines("Calls", r.Calls, i)...)
		lines = append(lines, m.callLines("Called by", r.CalledBy, i)...)
	}
	var flow []string
	if s := m.typeList(r.TypesIn, i); s != "" {
		flow = append(flow, "Types in: "+s)
	}
	if s := m.typeList(r.TypesOut, i); s != "" {
		flow = append(flow, "Types out: "+s)
	}
	if len(flow) > 0 {
		lines = append(lines, detailIndent+strings.Join(flow, " | "))
	}
	add("Members", capList(r.Members))
	typ, val := oneLine(r.Type), oneLine(r.Value)
	switch {
	case typ != "" && val != "":
		add("Type", typ+" (value: "+val+")")
	case typ != "":
		add("Type", typ)
	case val != "":
		add("Value", val)
	}
	if r.Approximate && noteApprox {
		lines = append(lines, detailIndent+approxNote(r))
	}
	return lines
}

// modifierOrder is the order TypeScript itself requires, so the kind reads
// like the declaration.
var modifierOrder = []string{"private", "protected", "declare", "abstract", "static", "override", "readonly", "const", "async"}

// kindLine is "async method | exported | refs: 8 files".
func kindLine(r Result) string {
	var mods []string
	exported, def, sig := false, false, false
	for _, mod := range r.Modifiers {
		switch mod = strings.ToLower(mod); mod {
		case "export", "exported":
			exported = true
		case "default":
			def = true
		case "public", "":
			// Public is the default; saying it costs tokens and tells
			// nothing.
		case "signature":
			sig = true
		default:
			if !slices.Contains(mods, mod) {
				mods = append(mods, mod)
			}
		}
	}
	slices.SortStableFunc(mods, func(a, b string) int { return modRank(a) - modRank(b) })
	kind := strings.Join(append(mods, r.Kind), " ")
	if sig {
		kind += " signature" // an interface's "method signature"
	}
	parts := []string{kind}
	switch {
	case exported && def:
		parts = append(parts, "exported as default")
	case exported:
		parts = append(parts, "exported")
	}
	if r.RefFiles >= 0 {
		parts = append(parts, "refs: "+plural(r.RefFiles, "file"))
	}
	return strings.Join(parts, " | ")
}

func modRank(m string) int {
	if i := slices.Index(modifierOrder, m); i >= 0 {
		return i
	}
	return len(modifierOrder)
}

func (m *model) refText(x Ref, self int) string {
	s := x.Name
	if x.Abstract {
		s = "abstract " + s
	}
	if x.File != "" {
		s += " (" + textfmt.Name(x.File) + ")"
		s += m.marks(m.resolveType(TypeRef{Type: x.Name, File: x.File, External: x.External}), self)
	}
	return s
}

func (m *model) refs(xs []Ref, self int) string {
	items := make([]string, len(xs))
	for j, x := range xs {
		items[j] = m.refText(x, self)
	}
	return capList(items)
}

// typeList follows docs/architecture.md, rule 6: a declared type with where it comes from,
// a primitive with the parameter it types.
// maxFlowType bounds a type's text in the types in and out: the signature
// above shows it whole, and an inferred object type (fastify's factory
// returns one of 2,000 characters) said again there is noise.
const maxFlowType = 160

func (m *model) typeList(ts []TypeRef, self int) string {
	var items []string
	for _, t := range ts {
		var s string
		typ := textfmt.Clip(oneLine(t.Type), maxFlowType)
		switch {
		case t.File != "":
			s = typ + " (" + textfmt.Name(t.File) + ")" + m.marks(m.resolveType(t), self)
		case t.Param != "" && typ == "":
			// A parameter without a declared type (mocha's `opts`) carries
			// none in: "opts ()" read like a call.
		case t.Param != "":
			s = t.Param + " (" + typ + ")"
		default:
			s = typ
		}
		if s != "" && !slices.Contains(items, s) {
			items = append(items, s)
		}
	}
	return capList(items)
}

// callLines renders a single result's calls: a flat list for one hop, an
// indented tree when the trees go deeper. At one hop a depth limit is the
// norm rather than news, so it is not marked there.
func (m *model) callLines(label string, cs []Call, self int) []string {
	if len(cs) == 0 {
		return nil
	}
	deep := false
	for _, c := range cs {
		deep = deep || len(c.Children) > 0
	}
	if !deep {
		// One entry per distinct caller or callee as shown: a test file's
		// thirty it() callbacks are one entry with their count, not the
		// whole list.
		var items []string
		count := map[string]int{}
		for _, c := range cs {
			s := m.detailCallAs(summaryName(c), c, self, false)
			if count[s] == 0 {
				items = append(items, s)
			}
			count[s]++
		}
		for j, s := range items {
			if n := count[s]; n > 1 {
				items[j] = s + " ×" + strconv.Itoa(n)
			}
		}
		return []string{detailIndent + label + ": " + capList(items)}
	}
	lines := []string{detailIndent + label + ":"}
	budget := treeCap
	var walk func(cs []Call, depth int)
	walk = func(cs []Call, depth int) {
		for _, c := range cs {
			if budget == 0 {
				return
			}
			budget--
			lines = append(lines, detailIndent+strings.Repeat("  ", depth)+"→ "+m.detailCall(c, self, true))
			walk(c.Children, depth+1)
		}
	}
	walk(cs, 1)
	return lines
}

// summaryName is how a one-line list of callers or callees names a call:
// in test code, a test's or suite's callback is counted under its call
// (`it() callback (src/url.test.ts) ×9`), since thirty tests' titles
// would fill the line; the call trees (`scry callers`) keep the titles.
func summaryName(c Call) string {
	if !pathclass.TestCode(c.File) {
		return c.Name
	}
	rest, ok := strings.CutSuffix(c.Name, ") callback")
	if !ok {
		return c.Name
	}
	i := max(strings.LastIndex(rest, "('"), strings.LastIndex(rest, "(\""))
	if i < 0 {
		return c.Name
	}
	return rest[:i] + "() callback"
}

func (m *model) detailCall(c Call, self int, limits bool) string {
	return m.detailCallAs(c.Name, c, self, limits)
}

// detailCallAs is detailCall with the call shown as name.
func (m *model) detailCallAs(name string, c Call, self int, limits bool) string {
	s := name
	if c.File != "" {
		s += " (" + textfmt.Name(c.File) + ")"
	}
	s += m.marks(m.resolve(c.File, c.Line, c.Name), self)
	if c.Cycle {
		s += " [cycle]"
	}
	if c.DepthLimit && limits {
		s += " [depth limit]"
	}
	return s
}
