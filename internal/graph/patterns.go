// The Patterns section: hubs, shared dependencies and types, diamonds,
// cycles.

package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/textfmt"
)

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
	return n.name + " (" + textfmt.Name(n.file) + ")"
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
				if len(cyc) == 1 {
					// A cycle of one is recursion: "X → X" reads as two
					// symbols that call each other.
					lines = append(lines, "Recursive: "+m.patternName(m.nodes[cyc[0]])+" calls itself")
					continue
				}
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
