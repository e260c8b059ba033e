package graph

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/textfmt"
)

// node is a symbol seen anywhere in the input: a result, a member of a
// result, or something outside the results.
type node struct {
	key    string
	name   string
	file   string
	result int // 1-based result index; 0 outside the results
	member bool
	// external: file is a package name, not a path.
	external bool
}

// model is the input with every symbol given one identity, so that a callee
// in one result's tree and the declaration of another result are recognised
// as the same thing.
type model struct {
	in    Input
	nodes map[string]*node
	order []string // node keys in first-seen order, for stable output

	out   map[string][]string // caller key -> callee keys, first-seen order
	edges map[[2]string]bool

	// users lists, per symbol outside the results, the results that call
	// it or name it as a type; callUsed marks those reached by a call.
	users    map[string][]int
	callUsed map[string]bool
	// typeUsers lists, per type (a result's own key or an outside key),
	// the other results that name it in their signature or heritage.
	typeUsers map[string][]int
	typeOrder []string

	short map[string]string // file -> form shown in the Graph section
	tree  bool              // some call tree is deeper than one hop
}

func resultKey(i int) string { return "r" + strconv.Itoa(i) }

func newModel(in Input) *model {
	in = safeNames(in)
	m := &model{
		in:        in,
		nodes:     map[string]*node{},
		out:       map[string][]string{},
		edges:     map[[2]string]bool{},
		users:     map[string][]int{},
		callUsed:  map[string]bool{},
		typeUsers: map[string][]int{},
	}
	for i, r := range in.Results {
		k := resultKey(i + 1)
		m.add(&node{key: k, name: r.Name, file: r.File, result: i + 1})
	}
	for i, r := range in.Results {
		k := resultKey(i + 1)
		m.walkCalls(k, r.Calls)
		m.walkCallers(k, r.CalledBy)
		for _, c := range r.Calls {
			if len(c.Children) > 0 {
				m.tree = true
			}
		}
		m.collectTypes(i+1, r)
	}
	for _, k := range m.order {
		for _, v := range m.out[k] {
			if u, t := m.nodes[k], m.nodes[v]; u.result != 0 && t.result == 0 {
				m.users[v] = appendIdx(m.users[v], u.result)
				m.callUsed[v] = true
			}
		}
	}
	m.short = shortNames(m.nodes)
	return m
}

func (m *model) add(n *node) *node {
	if old, ok := m.nodes[n.key]; ok {
		return old
	}
	m.nodes[n.key] = n
	m.order = append(m.order, n.key)
	return n
}

func (m *model) edge(from, to string) {
	e := [2]string{from, to}
	if m.edges[e] {
		return
	}
	m.edges[e] = true
	m.out[from] = append(m.out[from], to)
}

func (m *model) walkCalls(parent string, calls []Call) {
	for _, c := range calls {
		n := m.resolve(c.File, c.Line, c.Name)
		m.edge(parent, n.key)
		m.walkCalls(n.key, c.Children)
	}
}

func (m *model) walkCallers(callee string, calls []Call) {
	for _, c := range calls {
		n := m.resolve(c.File, c.Line, c.Name)
		m.edge(n.key, callee)
		m.walkCallers(n.key, c.Children)
	}
}

// resolve finds the node for a symbol known by file, declaration line and
// name. A line inside a result's range belongs to that result (the narrowest
// one when results nest): either the result itself, when the name or line
// agree, or one of its members, which keeps its own name for display. Without
// a line, only the name can match. Outside the results, file and name are the
// identity, so that the same function reached as a callee and named as a type
// counts once.
func (m *model) resolve(file string, line int, name string) *node {
	best, bestSpan := 0, int(^uint(0)>>1)
	for i, r := range m.in.Results {
		if file == "" || r.File != file {
			continue
		}
		lo, hi := r.StartLine, r.EndLine
		if lo <= 0 || hi < lo {
			lo, hi = r.Line, r.Line
		}
		var span int
		switch {
		case line > 0 && lo > 0:
			if line < lo || line > hi {
				continue
			}
			span = hi - lo
		case sameName(r.Name, name):
			span = bestSpan - 1
		default:
			continue
		}
		if span < bestSpan {
			best, bestSpan = i+1, span
		}
	}
	if best == 0 {
		return m.add(&node{key: "x" + file + "\x00" + name, name: name, file: file})
	}
	r := m.in.Results[best-1]
	if sameName(r.Name, name) || (line > 0 && line == r.Line) {
		return m.nodes[resultKey(best)]
	}
	return m.add(&node{key: resultKey(best) + "\x00" + name, name: name, file: file, result: best, member: true})
}

// sameName accepts the bare name for a qualified display name, since call
// trees and type references name a method without its class.
func sameName(display, name string) bool {
	if name == display {
		return true
	}
	return name == display[strings.LastIndexByte(display, '.')+1:]
}

// typeRefs are the declared types a result depends on: heritage and the
// types flowing through its signature. Subtypes depend on the result, not
// the other way round, and primitives have no declaration to share.
func typeRefs(r Result) []TypeRef {
	var refs []TypeRef
	if r.Extends != nil {
		refs = append(refs, TypeRef{Type: r.Extends.Name, File: r.Extends.File, External: r.Extends.External})
	}
	for _, x := range r.Implements {
		refs = append(refs, TypeRef{Type: x.Name, File: x.File, External: x.External})
	}
	refs = append(refs, r.TypesIn...)
	refs = append(refs, r.TypesOut...)
	return refs
}

func (m *model) collectTypes(idx int, r Result) {
	for _, t := range typeRefs(r) {
		if t.File == "" {
			continue
		}
		n := m.resolveType(t)
		if n.result == idx {
			continue
		}
		if _, ok := m.typeUsers[n.key]; !ok {
			m.typeOrder = append(m.typeOrder, n.key)
		}
		m.typeUsers[n.key] = appendIdx(m.typeUsers[n.key], idx)
		if n.result == 0 {
			m.users[n.key] = appendIdx(m.users[n.key], idx)
		}
	}
}

// resolveType matches by name only: a type reference carries no line.
// Packages are never results.
func (m *model) resolveType(t TypeRef) *node {
	if t.External {
		return m.add(&node{key: "x" + t.File + "\x00" + t.Type, name: t.Type, file: t.File, external: true})
	}
	return m.resolve(t.File, 0, t.Type)
}

func appendIdx(s []int, i int) []int {
	for _, x := range s {
		if x == i {
			return s
		}
	}
	return append(s, i)
}

// shared reports the ◆ rule: outside the results, referenced directly by two
// or more of them.
func (m *model) shared(key string) bool {
	n := m.nodes[key]
	return n != nil && n.result == 0 && len(m.users[key]) >= 2
}

// collapse maps a member to its result, so that topology is drawn between
// results rather than between their members.
func (m *model) collapse(key string) string {
	if n := m.nodes[key]; n.result != 0 {
		return resultKey(n.result)
	}
	return key
}

// shortNames gives the Graph section basenames (docs/architecture.md, rule 6),
// falling back to the full path for every file whose basename is ambiguous.
func shortNames(nodes map[string]*node) map[string]string {
	byBase := map[string]map[string]bool{}
	for _, n := range nodes {
		if n.file == "" || n.external {
			continue
		}
		b := path.Base(n.file)
		if byBase[b] == nil {
			byBase[b] = map[string]bool{}
		}
		byBase[b][n.file] = true
	}
	short := map[string]string{}
	for b, files := range byBase {
		for f := range files {
			if len(files) == 1 {
				short[f] = b
			} else {
				short[f] = f
			}
		}
	}
	return short
}

// safeNames escapes the control characters of every symbol name the graph
// prints (results, leads, hierarchy, call trees): names come from the
// repository and from the compiler's reading of it, and a name holding a
// newline must not start a line of its own in the answer (textfmt.Line).
// Legitimate names have none and come through unchanged. The caller's
// input is not modified.
func safeNames(in Input) Input {
	in.Results = slices.Clone(in.Results)
	for i := range in.Results {
		r := &in.Results[i]
		r.Name = textfmt.Line(r.Name)
		if r.Extends != nil {
			e := *r.Extends
			e.Name = textfmt.Line(e.Name)
			r.Extends = &e
		}
		r.Implements = safeRefs(r.Implements)
		r.Subtypes = safeRefs(r.Subtypes)
		r.Members = slices.Clone(r.Members)
		for j := range r.Members {
			r.Members[j] = textfmt.Line(r.Members[j])
		}
		r.Calls, r.CalledBy = safeCalls(r.Calls), safeCalls(r.CalledBy)
	}
	in.Leads = slices.Clone(in.Leads)
	for i := range in.Leads {
		in.Leads[i].Name = textfmt.Line(in.Leads[i].Name)
	}
	return in
}

func safeRefs(rs []Ref) []Ref {
	rs = slices.Clone(rs)
	for i := range rs {
		rs[i].Name = textfmt.Line(rs[i].Name)
	}
	return rs
}

func safeCalls(cs []Call) []Call {
	cs = slices.Clone(cs)
	for i := range cs {
		cs[i].Name = textfmt.Line(cs[i].Name)
		cs[i].Children = safeCalls(cs[i].Children)
	}
	return cs
}
