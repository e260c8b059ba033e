package snapshot

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/scry-dev/scry/internal/ident"
)

// region is a byte range whose references are resolved: a target, or a
// declaration included because something referenced it (transitive).
type region struct {
	span
	transitive bool
}

// request is one reference that resolved to a same-file declaration.
type request struct {
	pos        int // byte offset of the reference
	transitive bool
	// A module-level name: the scope and the statements binding it.
	module   *moduleScope
	bindings []binding
	// Or a class member read through this: a field or the constructor that
	// declares a parameter property.
	member *sitter.Node
	ctor   bool
}

// frame is one ancestor of the node being visited.
type frame struct {
	node   sitter.Node
	k      kind
	field  uint16 // the node's field in its parent
	locals map[string]struct{}
	module *moduleScope
}

type resolver struct {
	d      *doc
	cursor *sitter.TreeCursor
	stack  []frame
	reg    region
	reqs   []request
}

// resolve resolves the references of the targets, then of every declaration
// they pull in, and returns the byte spans (whole lines) the snapshot must
// show: the targets and the declarations, before any enclosing context.
func (d *doc) resolve(targets []span) []span {
	r := &resolver{d: d, cursor: d.root.Walk()}
	defer r.cursor.Close()
	seeds := append([]span(nil), targets...)
	covered := func(s span) bool {
		for _, x := range seeds {
			if x.start <= s.start && s.end <= x.end {
				return true
			}
		}
		return false
	}
	var queue []region
	for _, t := range targets {
		queue = append(queue, region{span: t})
	}
	for len(queue) > 0 {
		reg := queue[0]
		queue = queue[1:]
		r.reqs = r.reqs[:0]
		r.reg = reg
		r.cursor.Reset(d.root)
		r.visit()
		for _, q := range r.reqs {
			for _, sp := range r.include(q) {
				if covered(sp) {
					continue
				}
				seeds = append(seeds, sp)
				queue = append(queue, region{span: sp, transitive: true})
			}
		}
	}
	return mergeSpans(seeds)
}

// include applies the inclusion rules to one resolved reference and returns
// the line spans of the declarations to show.
func (r *resolver) include(q request) []span {
	d := r.d
	if q.member != nil {
		if q.ctor && q.transitive {
			return nil
		}
		s, e := d.lines(q.member)
		if contains(q.member, q.pos) || e-s+1 > MaxDependencyLines {
			return nil
		}
		return []span{d.lineSpan(s, e)}
	}
	total := 0
	imports, types := true, true
	for _, b := range q.bindings {
		u := q.module.units[b.unit]
		if contains(&u.node, q.pos) {
			// The reference is inside this declaration: it is the target
			// itself or encloses it, and is shown already.
			return nil
		}
		if q.transitive && !b.class.transitive() {
			return nil
		}
		if b.class != declImport {
			imports = false
		}
		if b.class != declType {
			types = false
		}
		total += u.end - u.start + 1
	}
	// A type a target names itself (in an overload signature, say) is
	// what a reader needs to call it: it is kept up to MaxTypeLines.
	limit := MaxDependencyLines
	if types && !q.transitive {
		limit = MaxTypeLines
	}
	if !imports && total > limit {
		return nil
	}
	out := make([]span, 0, len(q.bindings))
	for _, b := range q.bindings {
		u := q.module.units[b.unit]
		if b.class == declImport && u.end > u.start {
			if spans := d.importLines(&u.node, d.nameAt(q.pos)); spans != nil {
				out = append(out, spans...)
				continue
			}
		}
		out = append(out, d.lineSpan(u.start, u.end))
	}
	return out
}

// nameAt is the identifier starting at byte offset pos.
func (d *doc) nameAt(pos int) string {
	end := pos
	for end < len(d.src) && (ident.PartByte(d.src[end]) || d.src[end] >= 0x80) {
		end++
	}
	return string(d.src[pos:end])
}

// importLines are the lines of an import statement written over several
// lines that a use of name needs: its first and last line and the line of
// name's specifier (a large file's imports otherwise fill the answer with
// specifiers the shown code never uses). They are the file's own lines and
// still a valid import: one specifier per line ends with a comma or the
// closing brace. nil when n is not such an import or name is not found.
func (d *doc) importLines(n *sitter.Node, name string) []span {
	if d.kind(n) != kImport || name == "" {
		return nil
	}
	start, end := d.lines(n)
	at := -1
	for _, c := range n.NamedChildren(d.cursor) {
		if d.kind(&c) != kImportClause {
			continue
		}
		for _, part := range c.NamedChildren(d.cursor) {
			switch d.kind(&part) {
			case kIdentifier:
				if d.text(&part) == name {
					at, _ = d.lines(&part)
				}
			case kNamespaceImport:
				if id := firstNamed(d, &part, kIdentifier); id != nil && d.text(id) == name {
					at, _ = d.lines(&part)
				}
			case kNamedImports:
				for _, spec := range part.NamedChildren(d.cursor) {
					if d.kind(&spec) != kImportSpecifier {
						continue
					}
					local := d.g.child(&spec, fAlias)
					if local == nil {
						local = d.g.child(&spec, fName)
					}
					if local != nil && d.text(local) == name {
						from, to := d.lines(&spec)
						if from != to {
							return nil // a specifier over several lines: keep it whole
						}
						at = from
					}
				}
			}
		}
	}
	if at < 0 {
		return nil
	}
	return []span{d.lineSpan(start, start), d.lineSpan(at, at), d.lineSpan(end, end)}
}

func contains(n *sitter.Node, pos int) bool {
	return int(n.StartByte()) <= pos && pos < int(n.EndByte())
}

// visit walks the cursor's node and its descendants that intersect the
// region, keeping the ancestor stack (with scopes) up to date.
func (r *resolver) visit() {
	c := r.cursor
	n := *c.Node()
	r.push(n, c.FieldId())
	if int(n.StartByte()) >= r.reg.start && int(n.EndByte()) <= r.reg.end {
		r.reference(&n)
	}
	if c.GotoFirstChildForByte(uint32(r.reg.start)) != nil {
		for {
			ch := c.Node()
			if int(ch.StartByte()) >= r.reg.end {
				break
			}
			if int(ch.EndByte()) > r.reg.start {
				r.visit()
			}
			if !c.GotoNextSibling() {
				break
			}
		}
		c.GotoParent()
	}
	r.stack = r.stack[:len(r.stack)-1]
}

func (r *resolver) push(n sitter.Node, field uint16) {
	f := frame{node: n, k: r.d.kind(&n), field: field}
	r.scope(&f)
	r.stack = append(r.stack, f)
}

func (r *resolver) parent() *frame {
	if len(r.stack) < 2 {
		return nil
	}
	return &r.stack[len(r.stack)-2]
}

// scope fills in the names a node declares for its descendants.
func (r *resolver) scope(f *frame) {
	d, g := r.d, r.d.g
	n := &f.node
	add := func(name string) {
		if f.locals == nil {
			f.locals = map[string]struct{}{}
		}
		f.locals[name] = struct{}{}
	}
	var parent *frame
	if len(r.stack) > 0 {
		parent = &r.stack[len(r.stack)-1]
	}
	switch f.k {
	case kProgram:
		f.module = d.program
	case kStatementBlock:
		if parent != nil && (parent.k == kInternalModule || parent.k == kModule) {
			m, ok := d.modules[n.Id()]
			if !ok {
				m = d.newModuleScope(n)
				d.modules[n.Id()] = m
			}
			f.module = m
			return
		}
		r.blockNames(n, add)
	case kSwitchBody:
		for _, c := range n.NamedChildren(d.cursor) {
			c := c
			r.blockNames(&c, add)
		}
	case kFunctionDecl, kGeneratorFunctionDecl, kFunctionSignature, kFunctionExpr, kGeneratorFunction, kArrowFunction, kMethod:
		if p := g.child(n, fParameters); p != nil {
			d.patternNames(p, add)
		}
		if p := g.child(n, fParameter); p != nil {
			d.patternNames(p, add)
		}
		if tp := g.child(n, fTypeParameters); tp != nil {
			d.patternNames(tp, add)
		}
		if f.k == kFunctionExpr || f.k == kGeneratorFunction {
			// A function expression's own name is visible only inside it.
			if name := g.child(n, fName); name != nil {
				add(d.text(name))
			}
		}
	case kClassDecl, kAbstractClassDecl, kClass, kInterface, kTypeAlias:
		if tp := g.child(n, fTypeParameters); tp != nil {
			d.patternNames(tp, add)
		}
		if f.k == kClass {
			if name := g.child(n, fName); name != nil {
				add(d.text(name))
			}
		}
	case kForStatement:
		if init := g.child(n, fInitializer); init != nil {
			if k := d.kind(init); k == kLexical || k == kVariable {
				declaratorNames(d, init, add)
			}
		}
	case kForInStatement:
		if g.child(n, fKind) != nil {
			if left := g.child(n, fLeft); left != nil {
				d.patternNames(left, add)
			}
		}
	case kCatchClause:
		if p := g.child(n, fParameter); p != nil {
			d.patternNames(p, add)
		}
	case kConditionalType:
		if right := g.child(n, fRight); right != nil {
			r.inferNames(right, add)
		}
	case kIndexSignature:
		if m := firstNamed(d, n, kMappedTypeClause); m != nil {
			if name := g.child(m, fName); name != nil {
				add(d.text(name))
			}
		}
	}
}

// blockNames reports the names declared directly in a statement list: they
// are visible throughout it (let/const/class in their TDZ, functions hoisted).
func (r *resolver) blockNames(n *sitter.Node, add func(string)) {
	d := r.d
	for _, c := range n.NamedChildren(d.cursor) {
		c := c
		switch d.kind(&c) {
		case kLexical, kVariable:
			declaratorNames(d, &c, add)
		case kFunctionDecl, kGeneratorFunctionDecl, kClassDecl, kAbstractClassDecl, kInterface, kTypeAlias, kEnum:
			if name := d.g.child(&c, fName); name != nil {
				add(d.text(name))
			}
		}
	}
}

func declaratorNames(d *doc, decl *sitter.Node, add func(string)) {
	for _, c := range decl.NamedChildren(d.cursor) {
		c := c
		if d.kind(&c) == kDeclarator {
			if name := d.g.child(&c, fName); name != nil {
				d.patternNames(name, add)
			}
		}
	}
}

// inferNames reports the type variables `infer X` introduces in the extends
// clause of a conditional type.
func (r *resolver) inferNames(n *sitter.Node, add func(string)) {
	d := r.d
	if d.kind(n) == kInferType {
		if id := firstNamed(d, n, kTypeIdentifier); id != nil {
			add(d.text(id))
		}
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c != nil {
			r.inferNames(c, add)
		}
	}
}

// reference handles a node inside the region that may refer to a
// declaration.
func (r *resolver) reference(n *sitter.Node) {
	d, g := r.d, r.d.g
	top := &r.stack[len(r.stack)-1]
	parent := r.parent()
	pk := kNone
	if parent != nil {
		pk = parent.k
	}
	switch top.k {
	case kIdentifier:
		switch pk {
		case kImportSpecifier, kImportClause, kNamespaceImport, kImportRequireClause:
			return // import bindings, not uses
		case kExportSpecifier:
			if top.field == g.fields[fAlias] {
				return // the exported name, not a local one
			}
		case kJSXOpening, kJSXClosing, kJSXSelfClosing:
			if name := d.text(n); name != "" && name[0] >= 'a' && name[0] <= 'z' {
				return // <div>: an intrinsic element
			}
		}
		r.name(d.text(n), int(n.StartByte()))
	case kTypeIdentifier:
		if pk == kNestedTypeIdentifier && top.field == g.fields[fName] {
			return // ns.Type: a member of ns
		}
		r.name(d.text(n), int(n.StartByte()))
	case kShorthandProperty:
		r.name(d.text(n), int(n.StartByte()))
	case kMemberExpression:
		obj, prop := g.child(n, fObject), g.child(n, fProperty)
		if obj == nil || prop == nil {
			return
		}
		switch d.kind(obj) {
		case kThis:
			r.this(d.text(prop), int(prop.StartByte()))
		case kIdentifier:
			r.static(d.text(obj), d.text(prop), int(prop.StartByte()))
		}
	case kDeclarator:
		// const { a, b: c } = this
		v, name := g.child(n, fValue), g.child(n, fName)
		if v == nil || name == nil || d.kind(v) != kThis || d.kind(name) != kObjectPattern {
			return
		}
		for _, c := range name.NamedChildren(d.cursor) {
			c := c
			switch d.kind(&c) {
			case kShorthandPattern:
				r.this(d.text(&c), int(c.StartByte()))
			case kPairPattern:
				if key := firstNamed(d, &c, kPropertyIdentifier); key != nil {
					r.this(d.text(key), int(key.StartByte()))
				}
			case kObjectAssignmentPattern:
				if l := g.child(&c, fLeft); l != nil {
					r.this(d.text(l), int(l.StartByte()))
				}
			}
		}
	}
}

// name resolves a name used at pos against the scopes on the stack.
func (r *resolver) name(name string, pos int) {
	for i := len(r.stack) - 1; i >= 0; i-- {
		f := &r.stack[i]
		if _, ok := f.locals[name]; ok {
			return
		}
		if f.module != nil {
			if b := f.module.names[name]; len(b) > 0 {
				r.reqs = append(r.reqs, request{pos: pos, transitive: r.reg.transitive, module: f.module, bindings: b})
				return
			}
		}
	}
}

// this resolves this.name at pos: a field of the class whose instance this
// is, or a parameter property of its constructor.
func (r *resolver) this(name string, pos int) {
	for i := len(r.stack) - 1; i >= 0; i-- {
		switch r.stack[i].k {
		case kFunctionDecl, kGeneratorFunctionDecl, kFunctionExpr, kGeneratorFunction:
			return // a function of its own: this is whatever it is called on
		case kMethod:
			if i == 0 || r.stack[i-1].k != kClassBody {
				return // an object literal's method
			}
		case kClassBody:
			r.member(r.classAt(i), name, pos)
			return
		}
	}
}

// static resolves ClassName.name for the classes enclosing pos.
func (r *resolver) static(class, name string, pos int) {
	for i := len(r.stack) - 1; i >= 0; i-- {
		if r.stack[i].k == kClassBody {
			if ci := r.classAt(i); ci.name == class {
				r.member(ci, name, pos)
				return
			}
		}
	}
}

func (r *resolver) member(ci *classInfo, name string, pos int) {
	if f, ok := ci.fields[name]; ok {
		r.reqs = append(r.reqs, request{pos: pos, transitive: r.reg.transitive, member: &f})
		return
	}
	if ci.paramProps[name] && ci.ctor != nil {
		r.reqs = append(r.reqs, request{pos: pos, transitive: r.reg.transitive, member: ci.ctor, ctor: true})
	}
}

// classAt indexes the class body at stack position i.
func (r *resolver) classAt(i int) *classInfo {
	body := &r.stack[i].node
	if ci, ok := r.d.classes[body.Id()]; ok {
		return ci
	}
	var decl, declarator *sitter.Node
	if i > 0 {
		decl = &r.stack[i-1].node
	}
	if i > 1 && r.stack[i-2].k == kDeclarator {
		declarator = &r.stack[i-2].node
	}
	ci := r.d.newClassInfo(body, decl, declarator)
	r.d.classes[body.Id()] = ci
	return ci
}
