package structure

import (
	"fmt"
	"slices"
	"sort"

	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/tsls"
)

// callNode is one edge end in a call tree: a declaration plus, for the edge
// that led to it, the call sites.
type callNode struct {
	ref  SymbolRef
	key  string // file:name:line — never merges same-named methods
	path string
	sel  tsls.Position // the declaration's name
	item *tsls.CallHierarchyItem
	// declRange is the declaration's extent, scanned for calls the call
	// hierarchy does not report; zero when unknown.
	declRange tsls.Range
	hasRange  bool
	sites     []tsls.Range // call sites of the edge, in sitesPath
	sitesPath string
	viaNew    bool
	viaRefs   bool
	external  bool
	module    bool // a file's top level: never expanded further
}

func nodeKey(path, name string, line int) string {
	return fmt.Sprintf("%s:%s:%d", path, name, line)
}

// nodeFromItem converts a call hierarchy item. callee is true for the
// "to" side of outgoing calls, where a class means `new C()` / `super()`.
// TypeScript's default library is dropped (nil).
func (r *req) nodeFromItem(item tsls.CallHierarchyItem, sites []tsls.Range, sitesPath string, callee bool) *callNode {
	path := item.Path()
	pc := classify(r.c.root, path)
	if pc.lib {
		return nil
	}
	it := item
	n := &callNode{
		path: path, sel: item.SelectionRange.Start, item: &it,
		declRange: item.Range, hasRange: !pc.external,
		sites: sites, sitesPath: sitesPath, external: pc.external,
	}
	n.ref = SymbolRef{
		Name: item.Name, Kind: kindFor("", item.Kind), File: r.rel(path),
		Container: item.Detail, External: pc.external, Package: pc.pkg,
	}
	if n.ref.Container == "" && !pc.external && (item.Kind == tsls.KindMethod || item.Kind == tsls.KindProperty || item.Kind == tsls.KindField) {
		// The compiler gives an interface's members no container
		// (typeorm's Driver.connect read "connect (src/driver/Driver.ts)"):
		// the outline around the member knows it.
		if syms, err := r.symbols(path); err == nil {
			if _, parent := findDecl(syms, item.SelectionRange.Start); parent != nil && (parent.Kind == tsls.KindClass || parent.Kind == tsls.KindInterface) {
				n.ref.Container = parent.Name
			}
		}
	}
	if r.unresolvedImport(path, item.SelectionRange.Start, &pc, &n.ref) {
		n.external, n.hasRange = true, false
	}
	if callee && !pc.external {
		if impl, ok := r.implementationOf(path, item.SelectionRange.Start, &item.Range); ok {
			// Walk the implementation, not the overload signature the
			// call resolved to (it has no body, hence no calls).
			n.item = nil
			n.sel = impl.SelectionRange.Start
			n.declRange = impl.Range
			item.SelectionRange = impl.SelectionRange
		}
	}
	n.key = nodeKey(path, item.Name, item.SelectionRange.Start.Line)
	n.ref.Line = item.SelectionRange.Start.Line + 1
	if txt, err := r.text(path); err == nil {
		n.ref.Line = txt.Line(item.SelectionRange.Start)
		if item.Kind == tsls.KindClass {
			n.ref.IsAbstract = isAbstractDecl(txt.Bytes(), txt.OffsetAt(item.SelectionRange.Start))
		}
	}
	switch item.Kind {
	case tsls.KindFile, tsls.KindModule:
		n.module = true
		n.ref.Kind = "module"
		n.ref.Name = "(top level)"
		if len(sites) > 0 {
			if txt, err := r.text(sitesPath); err == nil {
				n.ref.Line = txt.Line(sites[0].Start)
			}
		}
	case tsls.KindClass:
		if callee {
			n.viaNew = true
			n.ref.Kind = "constructor"
			// Point at the explicit constructor when there is one: that is
			// the code `new` runs.
			if !pc.external {
				if line, ok := r.constructorLine(path, item.SelectionRange.Start); ok {
					n.ref.Line = line
				}
			}
		}
	}
	return n
}

// constructorLine finds the explicit constructor of the class named at sel.
func (r *req) constructorLine(path string, sel tsls.Position) (int, bool) {
	syms, err := r.symbols(path)
	if err != nil {
		return 0, false
	}
	cls, _ := findDecl(syms, sel)
	if cls == nil {
		return 0, false
	}
	for _, ch := range cls.Children {
		if ch.Kind == tsls.KindConstructor {
			txt, err := r.text(path)
			if err != nil {
				return 0, false
			}
			return txt.Line(ch.SelectionRange.Start), true
		}
	}
	return 0, false
}

// refineClassCaller: the compiler reports calls made in a constructor as
// made by the class; name the constructor when the call is inside it.
func (r *req) refineClassCaller(c *callNode, site tsls.Position) {
	cls, err := r.declOf(c.path, c.sel)
	if err != nil || cls == nil {
		return
	}
	if ctor := constructorOf(cls); ctor != nil && ctor.Range.Contains(site) {
		if txt, err := r.text(c.path); err == nil {
			c.ref.Kind = "constructor"
			c.ref.Line = txt.Line(ctor.SelectionRange.Start)
		}
	}
}

// itemFor returns n's call hierarchy item, preparing one when n was found
// without (nil when the compiler has none).
func (r *req) itemFor(n *callNode) *tsls.CallHierarchyItem {
	if n.item != nil || n.external || n.module {
		return n.item
	}
	items, err := r.items.get(n.key, func() ([]tsls.CallHierarchyItem, error) {
		return r.c.srv.PrepareCallHierarchy(r.ctx, n.path, n.sel)
	})
	if err != nil || len(items) == 0 {
		return nil
	}
	return &items[0]
}

// callees lists what n calls: the compiler's outgoing calls, plus calls in
// n's body that the call hierarchy leaves out (callees declared as
// `const f: T = make(...)`, function-typed properties), resolved by
// definition and marked viaReferences.
func (r *req) callees(n *callNode) ([]*callNode, error) {
	return r.out.get(n.key, func() ([]*callNode, error) {
		var nodes []*callNode
		byKey := map[string]*callNode{}
		var covered []tsls.Range
		if item := r.itemFor(n); item != nil {
			outs, err := r.c.srv.OutgoingCalls(r.ctx, *item)
			if err != nil {
				return nil, err
			}
			// A call site that reaches TypeScript's own library calls the
			// platform (see uncoveredCallees): its other declarations are
			// redeclarations of a global, not callees.
			var platform []tsls.Range
			for _, oc := range outs {
				if classify(r.c.root, oc.To.Path()).lib {
					platform = append(platform, oc.FromRanges...)
				}
			}
			for _, oc := range outs {
				covered = append(covered, oc.FromRanges...)
				oc.FromRanges = slices.DeleteFunc(slices.Clone(oc.FromRanges), func(rg tsls.Range) bool { return slices.Contains(platform, rg) })
				if len(oc.FromRanges) == 0 {
					continue
				}
				c := r.nodeFromItem(oc.To, oc.FromRanges, n.path, true)
				if c == nil {
					continue
				}
				if prev := byKey[c.key]; prev != nil {
					prev.sites = append(prev.sites, c.sites...)
					continue
				}
				byKey[c.key] = c
				nodes = append(nodes, c)
			}
			if !n.hasRange {
				n.declRange, n.hasRange = item.Range, true
			}
		}
		if n.hasRange && !n.external {
			extra, err := r.uncoveredCallees(n, r.scanRanges(n), covered, byKey)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, extra...)
		}
		sortByFirstSite(nodes)
		return nodes, nil
	})
}

// scanRanges is where n's own calls are written: its declaration, except
// for a class, whose methods are separate declarations — its calls are the
// constructor's and the property initializers' (what `new` runs).
func (r *req) scanRanges(n *callNode) []tsls.Range {
	isClass := (n.item != nil && n.item.Kind == tsls.KindClass) || n.viaNew
	if !isClass {
		return []tsls.Range{n.declRange}
	}
	cls, err := r.declOf(n.path, n.sel)
	if err != nil || cls == nil {
		return nil
	}
	var out []tsls.Range
	for _, ch := range cls.Children {
		switch ch.Kind {
		case tsls.KindConstructor, tsls.KindProperty, tsls.KindField:
			out = append(out, ch.Range)
		}
	}
	return out
}

// uncoveredCallees scans n's code for call sites that no outgoing call
// covers and resolves them by definition.
func (r *req) uncoveredCallees(n *callNode, ranges []tsls.Range, covered []tsls.Range, byKey map[string]*callNode) ([]*callNode, error) {
	txt, err := r.text(n.path)
	if err != nil {
		return nil, err
	}
	selOff := txt.OffsetAt(n.sel)
	var sites []callSite
	for _, rg := range ranges {
		sites = append(sites, callSites(txt.Bytes(), txt.OffsetAt(rg.Start), txt.OffsetAt(rg.End))...)
	}
	var todo []callSite
	for _, cs := range sites {
		if cs.offset == selOff {
			continue // the declaration's own name
		}
		p := txt.PositionAt(cs.offset)
		in := false
		for _, rg := range covered {
			if rg.Contains(p) {
				in = true
				break
			}
		}
		if !in {
			todo = append(todo, cs)
		}
	}
	defs := make([][]tsls.Location, len(todo))
	errs := make([]error, len(todo))
	forEach(len(todo), concurrency, func(i int) {
		defs[i], errs[i] = r.definition(n.path, txt.PositionAt(todo[i].offset))
	})
	var extra []*callNode
	for i, cs := range todo {
		if errs[i] != nil {
			if r.ctx.Err() != nil {
				return nil, r.ctx.Err()
			}
			continue
		}
		site := tsls.Range{Start: txt.PositionAt(cs.offset), End: txt.PositionAt(cs.end)}
		// A call TypeScript's own library declares is the platform's,
		// whatever else redeclares the name: console.warn resolves to
		// lib.dom's Console and to every worker-configuration.d.ts in
		// TanStack router's examples that declares a global console.
		if slices.ContainsFunc(defs[i], func(d tsls.Location) bool { return classify(r.c.root, d.Path()).lib }) {
			continue
		}
		for _, d := range defs[i] {
			dp := d.Path()
			pc := classify(r.c.root, dp)
			// Locals, parameters and nested functions of n itself are
			// not calls out of n.
			if dp == n.path && n.declRange.Contains(d.Range.Start) && d.Range.Start != n.sel {
				continue
			}
			ref := r.refAt(d)
			r.unresolvedImport(dp, d.Range.Start, &pc, &ref)
			if !calleeKinds[ref.Kind] && !pc.external {
				continue // parameters, imports and other non-declarations
			}
			// A call that matches no single overload resolves to every
			// signature: each is the one function, named at its
			// implementation as the call hierarchy's callees are
			// (nodeFromItem), or once by name when it has none (a
			// package's declarations).
			sel := d.Range.Start
			key := nodeKey(dp, ref.Name, sel.Line)
			if impl, ok := r.implementationOf(dp, sel, nil); ok && !pc.external {
				sel = impl.SelectionRange.Start
				key = nodeKey(dp, ref.Name, sel.Line)
				if txt, err := r.text(dp); err == nil {
					ref.Line = txt.Line(sel)
				}
			} else if pc.external && (ref.Kind == "function" || ref.Kind == "method" || ref.Kind == "") {
				key = nodeKey(dp, ref.QualifiedName(), -1)
			}
			if prev := byKey[key]; prev != nil {
				if last := prev.sites[len(prev.sites)-1]; last != site {
					prev.sites = append(prev.sites, site)
				}
				if prev.external && ref.Line > 0 && ref.Line < prev.ref.Line {
					prev.ref.Line, prev.sel = ref.Line, sel // named at its first signature
				}
				continue
			}
			c := &callNode{
				ref: ref, key: key, path: dp, sel: sel,
				sites: []tsls.Range{site}, sitesPath: n.path,
				viaRefs: true, external: pc.external,
			}
			if ref.Kind == "class" {
				c.viaNew = true
				c.ref.Kind = "constructor"
			}
			if !pc.external {
				if d, _ := r.declOf(dp, sel); d != nil {
					c.declRange, c.hasRange = d.Range, true
				}
			}
			byKey[key] = c
			extra = append(extra, c)
		}
	}
	return extra, nil
}

// unresolvedImport marks a declaration that is a name of an import
// statement in user code (the compiler lands there when the module is not
// installed) as external, in the module it names, and says whether it did.
func (r *req) unresolvedImport(path string, at tsls.Position, pc *pathClass, ref *SymbolRef) bool {
	if pc.external {
		return false
	}
	txt, err := r.text(path)
	if err != nil {
		return false
	}
	mod, ok := importedFrom(txt.Bytes(), txt.OffsetAt(at))
	if !ok {
		return false
	}
	pc.external, pc.pkg = true, mod
	ref.External, ref.Package = true, mod
	return true
}

// calleeKinds are declaration kinds a call can land on.
var calleeKinds = map[string]bool{
	"function": true, "method": true, "const": true, "variable": true, "property": true,
	"class": true, "constructor": true, "getter": true, "call-signature": true,
}

func (r *req) declOf(path string, p tsls.Position) (*tsls.DocumentSymbol, error) {
	syms, err := r.symbols(path)
	if err != nil {
		return nil, err
	}
	d, _ := findDecl(syms, p)
	return d, nil
}

// callers lists who calls n: the compiler's incoming calls, or, when the
// compiler has no call hierarchy item for n, its references in call
// position grouped by enclosing declaration (viaReferences).
func (r *req) callers(n *callNode) ([]*callNode, error) {
	return r.in.get(n.key, func() ([]*callNode, error) {
		var nodes []*callNode
		if item := r.itemFor(n); item != nil {
			ins, err := r.c.srv.IncomingCalls(r.ctx, *item)
			if err != nil {
				return nil, err
			}
			byKey := map[string]*callNode{}
			for _, ic := range ins {
				c := r.nodeFromItem(ic.From, ic.FromRanges, ic.From.Path(), false)
				if c == nil {
					continue
				}
				if ic.From.Kind == tsls.KindClass && len(ic.FromRanges) > 0 {
					r.refineClassCaller(c, ic.FromRanges[0].Start)
				}
				if prev := byKey[c.key]; prev != nil {
					prev.sites = append(prev.sites, c.sites...)
					continue
				}
				byKey[c.key] = c
				nodes = append(nodes, c)
			}
		} else {
			var err error
			if nodes, err = r.callersByReferences(n); err != nil {
				return nil, err
			}
		}
		var split []*callNode
		for _, c := range nodes {
			split = append(split, r.splitTopLevel(c)...)
		}
		nodes = split
		sortCallers(nodes)
		return nodes, nil
	})
}

func (r *req) callersByReferences(n *callNode) ([]*callNode, error) {
	locs, err := r.referencesAt(n.path, n.sel)
	if err != nil {
		return nil, err
	}
	var nodes []*callNode
	byKey := map[string]*callNode{}
	for _, l := range locs {
		path := l.Path()
		txt, err := r.text(path)
		if err != nil {
			continue
		}
		off := txt.OffsetAt(l.Range.Start)
		if !inCallPosition(txt.Bytes(), off) {
			continue
		}
		syms, err := r.symbols(path)
		if err != nil {
			continue
		}
		enc := enclosingCallable(syms, l.Range.Start)
		var c *callNode
		if enc == nil {
			key := nodeKey(path, "(top level)", -1)
			c = byKey[key]
			if c == nil {
				c = &callNode{
					ref: SymbolRef{Name: "(top level)", Kind: "module", File: r.rel(path), Line: txt.Line(l.Range.Start)},
					key: key, path: path, module: true, viaRefs: true, sitesPath: path,
				}
			}
		} else {
			key := nodeKey(path, enc.Name, enc.SelectionRange.Start.Line)
			c = byKey[key]
			if c == nil {
				ref := r.refAt(tsls.Location{URI: tsls.PathToURI(path), Range: enc.SelectionRange})
				c = &callNode{
					ref: ref, key: key, path: path, sel: enc.SelectionRange.Start,
					declRange: enc.Range, hasRange: true, viaRefs: true, sitesPath: path,
				}
			}
		}
		c.sites = append(c.sites, l.Range)
		if byKey[c.key] == nil {
			byKey[c.key] = c
			nodes = append(nodes, c)
		}
	}
	return nodes, nil
}

// inCallPosition reports whether the identifier at off is called:
// `f(`, `f<T>(`, `f?.(`, f`…`, or `new f`.
func inCallPosition(src []byte, off int) bool {
	// Look back for `new`.
	from := off - 64
	if from < 0 {
		from = 0
	}
	back := lex(src, from, off)
	if n := len(back); n > 0 && back[n-1].kind == tIdent && back[n-1].text(src) == "new" {
		return true
	}
	toks := lex(src, off, min(len(src), off+512))
	if len(toks) < 2 || toks[0].kind != tIdent {
		return false
	}
	k := 1
	if isPunct(src, toks[k], "<") {
		m := matchAngle(src, toks, k)
		k = m + 1
	}
	if k < len(toks) && isPunct(src, toks[k], "?.") {
		k++
	}
	return k < len(toks) && (isPunct(src, toks[k], "(") || (toks[k].kind == tString && src[toks[k].start] == '`'))
}

// enclosingCallable is the innermost function-like declaration containing p.
func enclosingCallable(syms []tsls.DocumentSymbol, p tsls.Position) *tsls.DocumentSymbol {
	return innermostAt(syms, p, func(s *tsls.DocumentSymbol) bool {
		if s.SelectionRange.Start == s.SelectionRange.End {
			// An anonymous function ("map() callback"): the call
			// belongs to the named declaration around it.
			return false
		}
		switch s.Kind {
		case tsls.KindFunction, tsls.KindMethod, tsls.KindConstructor, tsls.KindClass,
			tsls.KindProperty, tsls.KindField, tsls.KindVariable, tsls.KindConstant:
			return true
		}
		return false
	})
}

func sortByFirstSite(nodes []*callNode) {
	first := func(n *callNode) tsls.Position {
		if len(n.sites) == 0 {
			return tsls.Position{Line: 1 << 30}
		}
		p := n.sites[0].Start
		for _, s := range n.sites[1:] {
			if s.Start.Less(p) {
				p = s.Start
			}
		}
		return p
	}
	sort.SliceStable(nodes, func(i, j int) bool { return first(nodes[i]).Less(first(nodes[j])) })
}

// sortCallers orders callers by location, the code's before its tests' and
// auxiliary code's: a tree cut at its node budget then keeps the callers
// an edit must follow (typeorm's EntityManager.save has 748, most of them
// tests), and a tree shown in full reads from them.
func sortCallers(nodes []*callNode) {
	sortByLocation(nodes)
	slices.SortStableFunc(nodes, func(a, b *callNode) int { return pathclass.Compare(a.ref.File, b.ref.File) })
}

func sortByLocation(nodes []*callNode) {
	sort.SliceStable(nodes, func(i, j int) bool {
		a, b := nodes[i].ref, nodes[j].ref
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Name < b.Name
	})
}

// tnode is a node placed in a tree.
type tnode struct {
	n            *callNode
	parent       *tnode
	children     []*tnode
	cyclic       bool
	depthLimited bool
}

func (t *tnode) onPath(key string) bool {
	for p := t; p != nil; p = p.parent {
		if p.n.key == key {
			return true
		}
	}
	return false
}

// tree expands root breadth-first to the configured depth. A node whose key
// is already on its path is cyclic and not expanded; a node at the depth
// limit (or beyond the node budget) that has further calls is
// depthLimited. External and top-level nodes are leaves.
func (r *req) tree(root *callNode, expand func(*callNode) ([]*callNode, error)) ([]*tnode, error) {
	depth := r.opts.CallDepth
	budget := r.opts.MaxCallNodes
	rootT := &tnode{n: root}
	level := []*tnode{rootT}
	var firstErr error
	left := 0 // calls found but not placed in the tree for want of budget
	for d := 0; len(level) > 0; d++ {
		if r.opts.SkipDepthLimit && d > 0 && depth >= 0 && d >= depth {
			break // nobody will read the depthLimited marks
		}
		var todo []*tnode
		for _, t := range level {
			if !t.cyclic && !t.n.external && !t.n.module {
				todo = append(todo, t)
			}
		}
		kids := make([][]*callNode, len(todo))
		errs := make([]error, len(todo))
		forEach(len(todo), concurrency, func(i int) { kids[i], errs[i] = expand(todo[i].n) })
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		var next []*tnode
		for i, t := range todo {
			if errs[i] != nil {
				if firstErr == nil {
					firstErr = errs[i]
				}
				continue
			}
			if d > 0 && depth >= 0 && d >= depth {
				t.depthLimited = len(kids[i]) > 0
				continue
			}
			for j, k := range kids[i] {
				if budget <= 0 {
					t.depthLimited = true
					left += len(kids[i]) - j
					break
				}
				budget--
				c := &tnode{n: k, parent: t, cyclic: t.onPath(k.key)}
				t.children = append(t.children, c)
				next = append(next, c)
			}
		}
		level = next
	}
	if left > 0 {
		// Said in numbers: a list that stops at the budget otherwise reads
		// as complete.
		r.note("call tree cut at %d nodes: %d more calls not listed; a node marked as depth-limited has more calls of its own", r.opts.MaxCallNodes, left)
	}
	return rootT.children, firstErr
}

func (r *req) info(t *tnode) CallInfo {
	n := t.n
	ci := CallInfo{
		SymbolRef: n.ref, Cyclic: t.cyclic, DepthLimited: t.depthLimited,
		ViaNew: n.viaNew, ViaReferences: n.viaRefs,
	}
	ci.CallSites = []int{}
	if txt, err := r.text(n.sitesPath); err == nil {
		seen := map[int]bool{}
		for _, s := range n.sites {
			l := txt.Line(s.Start)
			if !seen[l] {
				seen[l] = true
				ci.CallSites = append(ci.CallSites, l)
			}
		}
		sort.Ints(ci.CallSites)
	}
	return ci
}

func (r *req) outgoing(ts []*tnode) []OutgoingCall {
	out := make([]OutgoingCall, 0, len(ts))
	for _, t := range ts {
		out = append(out, OutgoingCall{CallInfo: r.info(t), OutgoingCalls: r.outgoing(t.children)})
	}
	return out
}

func (r *req) incoming(ts []*tnode) []IncomingCaller {
	out := make([]IncomingCaller, 0, len(ts))
	for _, t := range ts {
		out = append(out, IncomingCaller{CallInfo: r.info(t), IncomingCallers: r.incoming(t.children)})
	}
	return out
}

// callTrees builds both trees for the target.
func (r *req) callTrees(tg *target) ([]OutgoingCall, []IncomingCaller, error) {
	root := &callNode{path: tg.path, sel: tg.pos, ref: SymbolRef{Name: tg.name}}
	at := tg.pos
	if impl, ok := r.implementationOf(tg.path, tg.pos, nil); ok {
		at = impl.SelectionRange.Start // an overload signature: use the implementation
	}
	items, err := r.items.get(posKey(tg.path, at), func() ([]tsls.CallHierarchyItem, error) {
		return r.c.srv.PrepareCallHierarchy(r.ctx, tg.path, at)
	})
	if err != nil {
		return nil, nil, err
	}
	if len(items) > 0 {
		it := items[0]
		root.item = &it
		root.key = nodeKey(tg.path, it.Name, it.SelectionRange.Start.Line)
		root.declRange, root.hasRange = it.Range, true
	} else {
		root.key = nodeKey(tg.path, tg.name, tg.pos.Line)
		if tg.decl != nil {
			root.declRange, root.hasRange = tg.decl.Range, true
		}
	}
	var outT, inT []*tnode
	var outErr, inErr error
	parallel(
		func() {
			if r.opts.Sections&SecOutgoing != 0 {
				outT, outErr = r.tree(root, r.callees)
			}
		},
		func() {
			if r.opts.Sections&SecIncoming != 0 {
				inT, inErr = r.tree(root, r.callers)
			}
		},
	)
	if err := firstErr(r.ctx, outErr, inErr); err != nil {
		return nil, nil, err
	}
	if root.item == nil && len(outT)+len(inT) > 0 {
		r.note("the compiler has no call hierarchy for %s (declared without a function body of its own, e.g. `const %s: T = make(...)`): callers are its references in call position, callees the definitions of the calls in its declaration (viaReferences)", tg.name, tg.name)
	}
	return r.outgoing(outT), r.incoming(inT), nil
}
