// The Graph section: the one-hop topology drawn as chains from the results
// no other result calls, or call trees when they go deeper.

package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/textfmt"
)

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
	return n.name + " (" + textfmt.Name(f) + ")"
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
	return " (" + textfmt.Name(file) + ")"
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
