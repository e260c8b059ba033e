package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/textfmt"
)

const (
	// listCap bounds member, subtype and call lists: past a dozen entries
	// the agent gains little and pays for every one.
	listCap = 12
	// patternCap bounds each kind of pattern line.
	patternCap = 6
	// treeCap bounds the call-tree lines of the Graph section, which a
	// transitive call depth could otherwise make larger than the code.
	treeCap = 80

	approximateNote = "(structure approximate: TypeScript server unavailable)"
	detailIndent    = "    "
)

// summary is the first line. It is rendered apart from the body because the
// token count it states is only known once the body is.
func summary(in Input, total int) string {
	var b strings.Builder
	b.WriteString("Search: ")
	b.WriteString(strconv.Quote(in.Query))
	b.WriteString(" | ")
	n := len(in.Results)
	files := map[string]bool{}
	for _, r := range in.Results {
		files[r.File] = true
	}
	switch {
	case n == 1:
		b.WriteString("1 result")
	case n == 0 || len(files) > 1:
		b.WriteString(plural(n, "result"))
		if n > 0 {
			b.WriteString(" across " + plural(len(files), "file"))
		}
	default:
		b.WriteString(plural(n, "result") + " in 1 file")
	}
	b.WriteString(" | ")
	b.WriteString(textfmt.Thousands(total))
	if in.Budget > 0 {
		b.WriteString("/" + textfmt.Thousands(in.Budget))
	}
	b.WriteString(" tokens")
	return b.String()
}

// approxNote says that, and why, a result's structure is approximate.
func approxNote(r Result) string {
	if r.ApproximateReason == "" {
		return approximateNote
	}
	return "(structure approximate: " + r.ApproximateReason + ")"
}

// body is everything after the summary line.
func (m *model) body() string {
	rs := m.in.Results
	if len(rs) == 0 && len(m.in.Leads) > 0 {
		return "\n\n" + leadLines(m.in)
	}
	if len(rs) == 0 {
		return "\n\nNo results."
	}
	allApprox := true
	for _, r := range rs {
		allApprox = allApprox && r.Approximate && approxNote(r) == approxNote(rs[0])
	}
	var sections []string
	head := ""
	if allApprox {
		// One note covers every result when the server was down for all
		// of them, instead of repeating it per result.
		head = "\n" + approxNote(rs[0])
	}
	if len(rs) == 1 {
		sections = append(sections, strings.Join(m.details(1, true, !allApprox), "\n"))
		if len(m.in.Leads) > 0 {
			sections = append(sections, otherLeads(m.in))
		}
		return head + "\n\n" + strings.Join(sections, "\n\n")
	}
	sections = append(sections, "Graph:\n"+strings.Join(m.graphLines(), "\n"))
	if p := m.patternLines(); len(p) > 0 {
		sections = append(sections, "Patterns:\n"+strings.Join(p, "\n"))
	}
	for i := range rs {
		sections = append(sections, strings.Join(m.details(i+1, false, !allApprox), "\n"))
	}
	if len(m.in.Leads) > 0 {
		sections = append(sections, otherLeads(m.in))
	}
	return head + "\n\n" + strings.Join(sections, "\n\n")
}

// leadLines say why no result is shown and name the best candidates, one
// line each, so that the next question can ask for one of them by name.
func leadLines(in Input) string {
	var b strings.Builder
	if in.Leads[0].OverBudget {
		b.WriteString("The best matches are larger than the token budget; ask for one by name (symbol = …) or raise the budget:")
	} else {
		fmt.Fprintf(&b, "No result is confident (none reaches the relevance threshold %.2f). Best leads:", in.Threshold)
	}
	writeLeads(&b, in)
	return b.String()
}

// otherLeads follows the results: the next candidates, one line each.
func otherLeads(in Input) string {
	var b strings.Builder
	b.WriteString("Other leads:")
	writeLeads(&b, in)
	return b.String()
}

func writeLeads(b *strings.Builder, in Input) {
	for _, l := range in.Leads {
		fmt.Fprintf(b, "\n- %s %s  %s:%d  p=%.2f", l.Kind, l.Name, l.File, l.Line, l.Probability)
		if l.OverBudget {
			fmt.Fprintf(b, " (%s tokens, over the %s budget)", textfmt.Thousands(l.Tokens), textfmt.Thousands(in.Budget))
		}
	}
}

// ---- Graph section ----

func (m *model) graphLines() []string {
	if m.tree {
		return m.treeLines()
	}
	return m.chainLines()
}

// cedge is an edge of the one-hop topology: between results, or from a
// result to a shared dependency.
type cedge struct {
	from, to string
	label    string // how the target is named on this edge
	covered  bool
}

// chainEdges collapses members into their results: the chain shows which
// results depend on which, naming the member actually called when there is
// only one.
func (m *model) chainEdges() map[string][]*cedge {
	out := map[string][]*cedge{}
	index := map[[2]string]*cedge{}
	for _, u := range m.order {
		nu := m.nodes[u]
		if nu.result == 0 {
			continue
		}
		for _, v := range m.out[u] {
			nv := m.nodes[v]
			if nv.result == nu.result || (nv.result == 0 && !m.shared(v)) {
				continue
			}
			from, to := m.collapse(u), m.collapse(v)
			if e := index[[2]string{from, to}]; e != nil {
				if e.label != nv.name {
					e.label = m.nodes[to].name
				}
				continue
			}
			e := &cedge{from: from, to: to, label: nv.name}
			index[[2]string{from, to}] = e
			out[from] = append(out[from], e)
		}
	}
	return out
}

// chainLines draws the one-hop topology as paths (docs/architecture.md, rule 6):
// each starts at a result no other result calls and follows the first edge
// not yet drawn, so every edge appears once and shared tails are not
// repeated.
func (m *model) chainLines() []string {
	out := m.chainEdges()
	connected := map[string]bool{}
	for from, es := range out {
		for _, e := range es {
			connected[from], connected[e.to] = true, true
		}
	}
	hasIn := map[string]bool{}
	for _, es := range out {
		for _, e := range es {
			hasIn[e.to] = true
		}
	}
	next := func(k string) *cedge {
		for _, e := range out[k] {
			if !e.covered {
				return e
			}
		}
		return nil
	}
	var lines []string
	walk := func(start string) {
		for next(start) != nil {
			var b strings.Builder
			b.WriteString("  " + m.resultLabel(m.nodes[start].result, ""))
			onPath := map[string]bool{start: true}
			for cur := start; ; {
				e := next(cur)
				if e == nil {
					break
				}
				e.covered = true
				b.WriteString(" → " + m.chainTarget(e))
				if onPath[e.to] {
					b.WriteString(" [cycle]")
					break
				}
				onPath[e.to] = true
				cur = e.to
			}
			lines = append(lines, b.String())
		}
	}
	for i := range m.in.Results {
		if k := resultKey(i + 1); !hasIn[k] {
			walk(k)
		}
	}
	// Whatever is left lies on cycles among results.
	for i := range m.in.Results {
		walk(resultKey(i + 1))
	}
	for i := range m.in.Results {
		if !connected[resultKey(i+1)] {
			lines = append(lines, "  "+m.unconnected(i+1))
		}
	}
	return lines
}

func (m *model) chainTarget(e *cedge) string {
	n := m.nodes[e.to]
	if n.result != 0 {
		return m.resultLabel(n.result, e.label)
	}
	return m.graphName(n) + " ◆"
}

// resultLabel is "[i] name"; name defaults to the result's own.
func (m *model) resultLabel(i int, name string) string {
	if name == "" {
		name = m.in.Results[i-1].Name
	}
	return "[" + strconv.Itoa(i) + "] " + name
}

// graphName is a symbol as the Graph section shows it: short file.
func (m *model) graphName(n *node) string {
	if n.file == "" {
		return n.name
	}
	f := n.file
	if s, ok := m.short[f]; ok {
		f = s
	}
	return n.name + " (" + f + ")"
}

// unconnected describes a result with no call connection to the others.
// Type relations still connect it, and saying so keeps "standalone" true.
func (m *model) unconnected(i int) string {
	r := m.in.Results[i-1]
	var uses []int
	for _, k := range m.typeOrder {
		if n := m.nodes[k]; n.result != 0 && n.result != i && slices.Contains(m.typeUsers[k], i) {
			uses = appendIdx(uses, n.result)
		}
	}
	usedBy := slices.Clone(m.typeUsers[resultKey(i)])
	slices.Sort(uses)
	slices.Sort(usedBy)
	var rel []string
	if len(uses) > 0 {
		rel = append(rel, "using "+refList(uses))
	}
	if len(usedBy) > 0 {
		rel = append(rel, "used by "+refList(usedBy))
	}
	noun := kindNoun(r.Kind)
	if len(rel) == 0 {
		return m.resultLabel(i, "") + " (standalone " + noun + ")"
	}
	return m.resultLabel(i, "") + " (" + noun + " " + strings.Join(rel, ", ") + ")"
}

// treeLines draws call trees deeper than one hop. Each result's own tree is
// drawn from its root unless the same subtree was already drawn where
// another result calls it; results are rooted callers-first so that happens
// as often as possible. A subtree repeated elsewhere is drawn once and
// referred to after that.
func (m *model) treeLines() []string {
	hasIn := map[int]bool{}
	for _, u := range m.order {
		for _, v := range m.out[u] {
			if a, b := m.nodes[u].result, m.nodes[v].result; a != 0 && b != 0 && a != b {
				hasIn[b] = true
			}
		}
	}
	var roots []int
	for i := range m.in.Results {
		if !hasIn[i+1] {
			roots = append(roots, i+1)
		}
	}
	for i := range m.in.Results {
		if hasIn[i+1] {
			roots = append(roots, i+1)
		}
	}

	t := &treeWriter{m: m, seen: map[string]bool{}, appeared: map[int]bool{}}
	for _, i := range roots {
		r := m.in.Results[i-1]
		if len(r.Calls) == 0 {
			continue
		}
		sig := resultKey(i) + "\x00" + t.sig(r.Calls)
		if t.seen[sig] {
			continue
		}
		t.seen[sig] = true
		t.appeared[i] = true
		t.lines = append(t.lines, "  "+m.resultLabel(i, "")+m.fileSuffix(r.File))
		t.calls(r.Calls, 1, i)
	}
	if t.omitted > 0 {
		t.lines = append(t.lines, "  +"+plural(t.omitted, "more call")+" not shown")
	}
	for i := range m.in.Results {
		if !t.appeared[i+1] {
			t.lines = append(t.lines, "  "+m.unconnected(i+1))
		}
	}
	return t.lines
}

func (m *model) fileSuffix(file string) string {
	if s, ok := m.short[file]; ok {
		file = s
	}
	return " (" + file + ")"
}

type treeWriter struct {
	m        *model
	lines    []string
	seen     map[string]bool // node key + subtree signature already drawn
	appeared map[int]bool    // results visible somewhere in the trees
	omitted  int
	drawn    int
}

func (t *treeWriter) calls(cs []Call, depth, root int) {
	for _, c := range cs {
		if t.drawn >= treeCap {
			t.omitted += size(c)
			continue
		}
		n := t.m.resolve(c.File, c.Line, c.Name)
		line := strings.Repeat("  ", depth+1) + "→ " + t.m.graphName(n) + t.m.marks(n, root)
		if c.Cycle {
			line += " [cycle]"
		}
		if c.DepthLimit {
			line += " [depth limit]"
		}
		if n.result != 0 {
			t.appeared[n.result] = true
		}
		t.drawn++
		if len(c.Children) == 0 {
			t.lines = append(t.lines, line)
			continue
		}
		sig := n.key + "\x00" + t.sig(c.Children)
		if t.seen[sig] {
			t.lines = append(t.lines, line+" [see above]")
			continue
		}
		t.seen[sig] = true
		t.lines = append(t.lines, line)
		t.calls(c.Children, depth+1, root)
	}
}

// sig identifies a subtree by shape, so that a repeat can be recognised
// without comparing text.
func (t *treeWriter) sig(cs []Call) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(t.m.resolve(c.File, c.Line, c.Name).key)
		if c.Cycle {
			b.WriteString("\x01c")
		}
		if c.DepthLimit {
			b.WriteString("\x01d")
		}
		b.WriteString("(" + t.sig(c.Children) + ")")
	}
	return b.String()
}

func size(c Call) int {
	n := 1
	for _, ch := range c.Children {
		n += size(ch)
	}
	return n
}

// marks applies the marker rules to a reference made from result self.
func (m *model) marks(n *node, self int) string {
	switch {
	case n.result != 0 && n.result != self:
		return " ★"
	case m.shared(n.key):
		return " ◆"
	}
	return ""
}

// ---- Patterns section ----

func (m *model) patternLines() []string {
	var lines []string
	lines = append(lines, capped("Hub", m.hubs())...)
	var deps, types []string
	for _, k := range m.order {
		if m.shared(k) && m.callUsed[k] {
			u := slices.Clone(m.users[k])
			slices.Sort(u)
			deps = append(deps, "Shared dep: "+m.patternName(m.nodes[k])+" — used by "+refList(u))
		}
	}
	lines = append(lines, capped("Shared dep", deps)...)
	keys := slices.Clone(m.typeOrder)
	slices.SortStableFunc(keys, func(a, b string) int { return len(m.typeUsers[b]) - len(m.typeUsers[a]) })
	for _, k := range keys {
		if len(m.typeUsers[k]) < 2 || (m.nodes[k].result == 0 && m.callUsed[k]) {
			continue
		}
		types = append(types, "Shared type: "+m.patternName(m.nodes[k])+" — used by "+
			strconv.Itoa(len(m.typeUsers[k]))+"/"+strconv.Itoa(len(m.in.Results))+" results")
	}
	lines = append(lines, capped("Shared type", types)...)
	lines = append(lines, capped("Diamond", m.diamonds())...)
	lines = append(lines, capped("Cycle", m.cycles())...)
	return lines
}

func capped(kind string, lines []string) []string {
	if len(lines) <= patternCap {
		return indent(lines)
	}
	more := len(lines) - patternCap
	return append(indent(lines[:patternCap]), "  "+kind+": +"+strconv.Itoa(more)+" more")
}

func indent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "  " + l
	}
	return out
}

// patternName names a symbol in the Patterns section: results by their
// index, anything else with its full path as the details do.
func (m *model) patternName(n *node) string {
	if n.result != 0 {
		return m.resultLabel(n.result, n.name)
	}
	if n.file == "" {
		return n.name
	}
	return n.name + " (" + n.file + ")"
}

// hubs are results called by two or more other results.
func (m *model) hubs() []string {
	var lines []string
	for i := range m.in.Results {
		var callers []int
		var targets []string
		for _, u := range m.order {
			a := m.nodes[u].result
			if a == 0 || a == i+1 {
				continue
			}
			for _, v := range m.out[u] {
				if m.nodes[v].result == i+1 {
					callers = appendIdx(callers, a)
					if !slices.Contains(targets, v) {
						targets = append(targets, v)
					}
				}
			}
		}
		if len(callers) < 2 {
			continue
		}
		slices.Sort(callers)
		name := ""
		if len(targets) == 1 {
			name = m.nodes[targets[0]].name
		}
		lines = append(lines, "Hub: "+m.resultLabel(i+1, name)+" — called by "+refList(callers))
	}
	return lines
}

// diamonds are A→B, A→C, B→D, C→D with A a result, on the topology with
// members collapsed into their results.
func (m *model) diamonds() []string {
	cout := map[string][]string{}
	for _, u := range m.order {
		for _, v := range m.out[u] {
			a, b := m.collapse(u), m.collapse(v)
			if a != b && !slices.Contains(cout[a], b) {
				cout[a] = append(cout[a], b)
			}
		}
	}
	var lines []string
	for i := range m.in.Results {
		a := resultKey(i + 1)
		var ds []string
		mids := map[string][]string{}
		for _, b := range cout[a] {
			for _, d := range cout[b] {
				if d == a {
					continue
				}
				if _, ok := mids[d]; !ok {
					ds = append(ds, d)
				}
				mids[d] = append(mids[d], b)
			}
		}
		for _, d := range ds {
			if len(mids[d]) < 2 {
				continue
			}
			names := make([]string, len(mids[d]))
			for j, b := range mids[d] {
				names[j] = m.collapsedName(b)
			}
			lines = append(lines, "Diamond: "+m.collapsedName(a)+" → "+strings.Join(names, ", ")+" → "+m.collapsedName(d))
		}
	}
	return lines
}

func (m *model) collapsedName(k string) string {
	n := m.nodes[k]
	if n.result != 0 {
		return m.resultLabel(n.result, "")
	}
	return m.patternName(n)
}

// cycles come from a depth-first walk of the whole call graph: each back
// edge closes one cycle. Rotations of a cycle are reported once, and only
// cycles through a result: recursion deep among helpers is already marked in
// the tree and says little about the results.
func (m *model) cycles() []string {
	pos := map[string]int{}
	for i, k := range m.order {
		pos[k] = i
	}
	state := map[string]int{}
	var stack []string
	seen := map[string]bool{}
	var lines []string
	var dfs func(u string)
	dfs = func(u string) {
		state[u] = 1
		stack = append(stack, u)
		for _, v := range m.out[u] {
			switch state[v] {
			case 0:
				dfs(v)
			case 1:
				cyc := slices.Clone(stack[slices.Index(stack, v):])
				lo := 0
				for j, k := range cyc {
					if pos[k] < pos[cyc[lo]] {
						lo = j
					}
				}
				cyc = append(cyc[lo:], cyc[:lo]...)
				id := strings.Join(cyc, "\x02")
				if seen[id] || !slices.ContainsFunc(cyc, func(k string) bool { return m.nodes[k].result != 0 }) {
					continue
				}
				seen[id] = true
				names := make([]string, 0, len(cyc)+1)
				for _, k := range append(cyc, cyc[0]) {
					names = append(names, m.patternName(m.nodes[k]))
				}
				lines = append(lines, "Cycle: "+strings.Join(names, " → "))
			}
		}
		stack = stack[:len(stack)-1]
		state[u] = 2
	}
	for _, k := range m.order {
		if state[k] == 0 {
			dfs(k)
		}
	}
	return lines
}

// ---- Details section ----

func (m *model) details(i int, single, noteApprox bool) []string {
	r := m.in.Results[i-1]
	head := r.Name + " — " + r.File
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
	add("Implements", m.refs(r.Implements, i))
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
	exported, def := false, false
	for _, mod := range r.Modifiers {
		switch mod = strings.ToLower(mod); mod {
		case "export", "exported":
			exported = true
		case "default":
			def = true
		case "public", "":
			// Public is the default; saying it costs tokens and tells
			// nothing.
		default:
			if !slices.Contains(mods, mod) {
				mods = append(mods, mod)
			}
		}
	}
	slices.SortStableFunc(mods, func(a, b string) int { return modRank(a) - modRank(b) })
	kind := strings.Join(append(mods, r.Kind), " ")
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
		s += " (" + x.File + ")"
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
func (m *model) typeList(ts []TypeRef, self int) string {
	var items []string
	for _, t := range ts {
		var s string
		switch {
		case t.File != "":
			s = t.Type + " (" + t.File + ")" + m.marks(m.resolveType(t), self)
		case t.Param != "":
			s = t.Param + " (" + oneLine(t.Type) + ")"
		default:
			s = oneLine(t.Type)
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
		items := make([]string, len(cs))
		for j, c := range cs {
			items[j] = m.detailCall(c, self, false)
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

func (m *model) detailCall(c Call, self int, limits bool) string {
	s := c.Name
	if c.File != "" {
		s += " (" + c.File + ")"
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

// ---- small helpers ----

func capList(items []string) string {
	if len(items) > listCap {
		items = append(slices.Clone(items[:listCap]), "+"+strconv.Itoa(len(items)-listCap)+" more")
	}
	return strings.Join(items, ", ")
}

func refList(idx []int) string {
	s := make([]string, len(idx))
	for j, i := range idx {
		s[j] = "[" + strconv.Itoa(i) + "]"
	}
	return strings.Join(s, ", ")
}

// oneLine keeps multi-line signatures and values from breaking the layout.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func plural(n int, word string) string {
	s := textfmt.Thousands(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}

// kindNoun turns a kind into a word for prose: "standalone constant".
func kindNoun(kind string) string {
	switch kind {
	case "const":
		return "constant"
	case "type":
		return "type alias"
	case "":
		return "symbol"
	}
	return strings.ReplaceAll(kind, "-", " ")
}
