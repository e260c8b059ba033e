package structure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/tsls"
)

// Compiler resolves symbols with TypeScript 7's language server. Its
// answers are the compiler's (approximate: false). Safe for concurrent use.
type Compiler struct {
	srv   *tsls.Server
	root  string
	files fileCache
	// outlines caches documentSymbol answers across requests: they depend
	// only on the file's own text, big files answer with thousands of
	// symbols, and every Metadata call on a symbol asks for its file's.
	outlines outlineCache
	// names caches workspace symbol searches until the server's files
	// change: the same type names (Observable, Effect, Option…) come back
	// in the signatures of result after result.
	names namesCache
}

type namesCache struct {
	mu  sync.Mutex
	gen uint64
	m   map[string][]tsls.SymbolInformation
}

func (c *namesCache) get(gen uint64, name string, fetch func() ([]tsls.SymbolInformation, error)) ([]tsls.SymbolInformation, error) {
	c.mu.Lock()
	if c.m == nil || c.gen != gen || len(c.m) > 4096 {
		c.gen, c.m = gen, map[string][]tsls.SymbolInformation{}
	}
	syms, ok := c.m[name]
	c.mu.Unlock()
	if ok {
		return syms, nil
	}
	syms, err := fetch()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.m[name] = syms
	}
	c.mu.Unlock()
	return syms, nil
}

type outlineCache struct {
	mu sync.Mutex
	m  map[string]outline
}

type outline struct {
	size, mtime int64
	syms        []tsls.DocumentSymbol
}

func (c *outlineCache) get(path string, fetch func() ([]tsls.DocumentSymbol, error)) ([]tsls.DocumentSymbol, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fetch()
	}
	size, mtime := fi.Size(), fi.ModTime().UnixNano()
	c.mu.Lock()
	o, ok := c.m[path]
	c.mu.Unlock()
	if ok && o.size == size && o.mtime == mtime {
		return o.syms, nil
	}
	syms, err := fetch()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) > 4096 {
		c.m = map[string]outline{}
	}
	c.m[path] = outline{size: size, mtime: mtime, syms: syms}
	c.mu.Unlock()
	return syms, nil
}

// NewCompiler wraps a running server.
func NewCompiler(srv *tsls.Server) *Compiler {
	return &Compiler{srv: srv, root: srv.Root()}
}

// req is the state of one question: per-call caches so a tree that meets
// the same function twice asks the server once.
type req struct {
	c    *Compiler
	ctx  context.Context
	opts Options

	syms  memo[[]tsls.DocumentSymbol]
	defs  memo[[]tsls.Location]
	out   memo[[]*callNode]
	in    memo[[]*callNode]
	hover memo[string]
	items memo[[]tsls.CallHierarchyItem]
	refs  memo[[]tsls.Location]
	names memo[[]tsls.SymbolInformation]

	mu    sync.Mutex
	notes []string
}

func (c *Compiler) newReq(ctx context.Context, opts Options) *req {
	return &req{c: c, ctx: ctx, opts: opts}
}

func (r *req) note(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	msg := fmt.Sprintf(format, args...)
	for _, n := range r.notes {
		if n == msg {
			return
		}
	}
	r.notes = append(r.notes, msg)
}

// memo runs each keyed computation once and shares its result.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]*memoEntry[T]
}

type memoEntry[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (m *memo[T]) get(key string, f func() (T, error)) (T, error) {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]*memoEntry[T]{}
	}
	e := m.m[key]
	if e == nil {
		e = &memoEntry[T]{}
		m.m[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v, e.err = f() })
	return e.v, e.err
}

// parallel runs fns concurrently and waits for all.
func parallel(fns ...func()) {
	var wg sync.WaitGroup
	for _, f := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}

// forEach runs fn(i) for i in [0,n) with at most limit at a time.
func forEach(n, limit int, fn func(i int)) {
	if n == 0 {
		return
	}
	if limit <= 0 || limit > n {
		limit = n
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			fn(i)
		}(i)
	}
	wg.Wait()
}

// concurrency bounds parallel requests per question: tsgo answers requests
// concurrently, but a flood buys nothing on a two-core machine.
const concurrency = 8

func (r *req) text(path string) (*tsls.Text, error) { return r.c.files.get(path) }

func (r *req) rel(path string) string { return relPath(r.c.root, path) }

func (r *req) symbols(path string) ([]tsls.DocumentSymbol, error) {
	return r.syms.get(path, func() ([]tsls.DocumentSymbol, error) {
		return r.c.outlines.get(path, func() ([]tsls.DocumentSymbol, error) {
			return r.c.srv.DocumentSymbols(r.ctx, path)
		})
	})
}

func posKey(path string, p tsls.Position) string {
	return fmt.Sprintf("%s:%d:%d", path, p.Line, p.Character)
}

func (r *req) definition(path string, p tsls.Position) ([]tsls.Location, error) {
	return r.defs.get(posKey(path, p), func() ([]tsls.Location, error) {
		return r.c.srv.Definition(r.ctx, path, p)
	})
}

// referencesAt is shared by the references section and the callers found
// by references: without a call hierarchy both ask about the same name.
func (r *req) referencesAt(path string, p tsls.Position) ([]tsls.Location, error) {
	return r.refs.get(posKey(path, p), func() ([]tsls.Location, error) {
		return r.c.srv.References(r.ctx, path, p, false)
	})
}

// symbolsNamed searches declarations by name, once per question and
// file generation.
func (r *req) symbolsNamed(name string) ([]tsls.SymbolInformation, error) {
	return r.names.get(name, func() ([]tsls.SymbolInformation, error) {
		return r.c.names.get(r.c.srv.Generation(), name, func() ([]tsls.SymbolInformation, error) {
			return r.c.srv.WorkspaceSymbol(r.ctx, name)
		})
	})
}

func (r *req) hoverCode(path string, p tsls.Position) (string, error) {
	return r.hover.get(posKey(path, p), func() (string, error) {
		h, err := r.c.srv.Hover(r.ctx, path, p)
		if err != nil {
			return "", err
		}
		return h.Code(), nil
	})
}

// target is a resolved Target: its text, offsets and declaration node.
type target struct {
	path      string
	txt       *tsls.Text
	name      string
	nameOff   int
	pos       tsls.Position
	decl      *tsls.DocumentSymbol // nil when the server lists none here
	parent    *tsls.DocumentSymbol
	keyword   string // declaration keyword written before the name
	kind      string
	modifiers []string
}

// locate finds the name identifier: at the given column, or the first
// whole-word occurrence of the name on that line when the column is off.
func (r *req) locate(t Target) (*target, error) {
	if !filepath.IsAbs(t.File) {
		return nil, fmt.Errorf("target file %q is not absolute", t.File)
	}
	txt, err := r.text(t.File)
	if err != nil {
		return nil, fmt.Errorf("read target: %w", err)
	}
	off, err := txt.RowOffset(t.Line, t.Column)
	if err != nil {
		return nil, fmt.Errorf("%s:%d:%d: %w", t.File, t.Line, t.Column, err)
	}
	src := txt.Bytes()
	name := t.Name
	if name == "" {
		end := off
		for end < len(src) && ident.PartByte(src[end]) {
			end++
		}
		name = string(src[off:end])
	}
	if name == "" {
		return nil, fmt.Errorf("%s:%d:%d: no identifier here", t.File, t.Line, t.Column)
	}
	if !identAt(src, off, name) {
		lineStart, _ := txt.RowOffset(t.Line, 0)
		line := txt.LineText(t.Line)
		found := -1
		for i := 0; i+len(name) <= len(line); i++ {
			if identAt(src, lineStart+i, name) {
				found = lineStart + i
				break
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("%s:%d: %q not found on the line", t.File, t.Line, name)
		}
		off = found
	}
	return &target{path: t.File, txt: txt, name: name, nameOff: off, pos: txt.PositionAt(off)}, nil
}

// identAt reports whether the identifier name starts at off (whole word).
func identAt(src []byte, off int, name string) bool {
	if off < 0 || off+len(name) > len(src) || string(src[off:off+len(name)]) != name {
		return false
	}
	if off > 0 && ident.PartByte(src[off-1]) && src[off-1] != '#' {
		return false
	}
	end := off + len(name)
	return end == len(src) || !ident.PartByte(src[end])
}

// findDecl returns the document symbol whose name is at pos, and its parent.
func findDecl(syms []tsls.DocumentSymbol, pos tsls.Position) (decl, parent *tsls.DocumentSymbol) {
	var walk func(list []tsls.DocumentSymbol, par *tsls.DocumentSymbol) bool
	walk = func(list []tsls.DocumentSymbol, par *tsls.DocumentSymbol) bool {
		for i := range list {
			s := &list[i]
			if s.SelectionRange.Contains(pos) && s.SelectionRange.Start.Line == pos.Line {
				decl, parent = s, par
				return true
			}
			if s.Range.Contains(pos) && walk(s.Children, s) {
				return true
			}
		}
		return false
	}
	walk(syms, nil)
	return decl, parent
}

// implementationOf maps an overload signature (a function, method or
// constructor declaration without a body) to the overload set's
// implementation, the sibling of the same name that has one. Calls resolve
// to the matching overload signature, whose own call hierarchy is empty;
// the implementation is where the calls are.
//
// declRange, when known, lets a declaration with a body skip the document
// symbol lookup.
func (r *req) implementationOf(path string, sel tsls.Position, declRange *tsls.Range) (*tsls.DocumentSymbol, bool) {
	if declRange != nil {
		if txt, err := r.text(path); err == nil && strings.HasSuffix(strings.TrimSpace(txt.Slice(*declRange)), "}") {
			return nil, false
		}
	}
	syms, err := r.symbols(path)
	if err != nil {
		return nil, false
	}
	decl, parent := findDecl(syms, sel)
	if decl == nil {
		return nil, false
	}
	switch decl.Kind {
	case tsls.KindFunction, tsls.KindMethod, tsls.KindConstructor:
	default:
		return nil, false
	}
	txt, err := r.text(path)
	if err != nil {
		return nil, false
	}
	hasBody := func(d *tsls.DocumentSymbol) bool {
		return strings.HasSuffix(strings.TrimSpace(txt.Slice(d.Range)), "}")
	}
	if hasBody(decl) {
		return nil, false
	}
	siblings := syms
	if parent != nil {
		siblings = parent.Children
	}
	for i := range siblings {
		s := &siblings[i]
		if s.Name == decl.Name && s.Kind == decl.Kind && s != decl && hasBody(s) {
			return s, true
		}
	}
	return nil, false
}

// kindFor maps what the source and the server say to scry's kinds.
func kindFor(keyword string, lsp tsls.SymbolKind) string {
	switch keyword {
	case "class", "interface", "enum", "function", "namespace":
		return keyword
	case "module":
		return "namespace"
	case "type":
		return "type"
	case "get":
		return "getter"
	case "set":
		return "setter"
	case "const":
		if lsp == tsls.KindFunction {
			return "function"
		}
		return "const"
	case "let", "var":
		if lsp == tsls.KindFunction {
			return "function"
		}
		return "variable"
	}
	switch lsp {
	case tsls.KindField:
		return "property"
	case tsls.KindConstant:
		return "const"
	case tsls.KindModule:
		return "namespace"
	case 0:
		return "unknown"
	}
	return lsp.String()
}

// nonCallable kinds have no call trees.
var nonCallable = map[string]bool{
	"interface": true, "type": true, "enum": true, "enum-member": true, "namespace": true, "module": true,
}

// Metadata implements Resolver.
func (c *Compiler) Metadata(ctx context.Context, t Target, opts Options) (*SymbolMetadata, error) {
	if opts.CallDepth == 0 {
		opts.CallDepth = 1
	}
	if opts.Sections == 0 {
		opts.Sections = SecAll
	}
	if opts.MaxCallNodes <= 0 {
		opts.MaxCallNodes = DefaultMaxCallNodes
	}
	r := c.newReq(ctx, opts)
	tg, err := r.locate(t)
	if err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}

	var hoverErr, symErr error
	var sig string
	parallel(
		func() { sig, hoverErr = r.hoverCode(tg.path, tg.pos) },
		func() {
			var syms []tsls.DocumentSymbol
			syms, symErr = r.symbols(tg.path)
			if symErr == nil {
				tg.decl, tg.parent = findDecl(syms, tg.pos)
			}
		},
	)
	if err := firstErr(ctx, hoverErr, symErr); err != nil {
		return nil, fmt.Errorf("structure: %s:%d %s: %w", r.rel(tg.path), t.Line, tg.name, err)
	}
	src := tg.txt.Bytes()
	tg.keyword = declKeyword(src, tg.nameOff)
	var lspKind tsls.SymbolKind
	if tg.decl != nil {
		lspKind = tg.decl.Kind
	}
	tg.kind = t.Kind
	if tg.kind == "" {
		tg.kind = kindFor(tg.keyword, lspKind)
	}
	tg.modifiers = r.modifiers(tg)

	md := &SymbolMetadata{
		Name:      tg.name,
		Kind:      tg.kind,
		File:      r.rel(tg.path),
		Line:      tg.txt.Line(tg.pos),
		Signature: cleanSignature(sig, tg.name),
		Modifiers: tg.modifiers,
		CallDepth: opts.CallDepth,
	}
	if opts.Sections&SecSignature == 0 {
		md.Signature, md.Modifiers = "", nil
	}

	isType := tg.keyword == "class" || tg.keyword == "interface" || lspKind == tsls.KindClass || lspKind == tsls.KindInterface
	var errs [5]error
	parallel(
		func() {
			if opts.Sections&SecHierarchy != 0 && isType {
				md.TypeHierarchy, errs[0] = r.typeHierarchy(tg)
			}
		},
		func() {
			if opts.Sections&(SecOutgoing|SecIncoming) != 0 && !nonCallable[tg.kind] && tg.keyword != "interface" {
				md.OutgoingCalls, md.IncomingCallers, errs[1] = r.callTrees(tg)
			}
		},
		func() {
			if opts.Sections&SecReferences != 0 {
				md.References, errs[2] = r.references(tg)
			}
		},
		func() {
			if opts.Sections&SecTypeFlows != 0 {
				md.TypeFlows, errs[3] = r.typeFlows(tg, sig)
			}
		},
		func() {
			if opts.Sections&SecMembers != 0 && isType {
				md.Members, errs[4] = r.members(tg)
			}
		},
	)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
	names := []string{"type hierarchy", "call trees", "references", "type flows", "members"}
	for i, err := range errs {
		if err != nil {
			if errors.Is(err, tsls.ErrClosed) {
				return nil, fmt.Errorf("structure: %w", err)
			}
			r.note("%s unavailable: %v", names[i], err)
		}
	}
	sort.Strings(r.notes) // found concurrently: keep the output stable
	md.Notes = r.notes
	normalize(md)
	return md, nil
}

func firstErr(ctx context.Context, errs ...error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// modifiers reads the keywords before the name, plus "exported" for names
// exported by a separate `export { name }` / `export default name`, and
// "async" for `const f = async (...) =>`.
func (r *req) modifiers(tg *target) []string {
	src := tg.txt.Bytes()
	lineStart, _ := tg.txt.RowOffset(tg.txt.Line(tg.pos), 0)
	from := lineStart
	if tg.decl != nil {
		if o := tg.txt.OffsetAt(tg.decl.Range.Start); o < from {
			from = o
		}
	}
	mods := modifiersBefore(src, from, tg.nameOff)
	has := func(m string) bool {
		for _, x := range mods {
			if x == m {
				return true
			}
		}
		return false
	}
	if tg.parent == nil && !has("exported") && exportedLater(src, tg.name) {
		mods = append(mods, "exported")
	}
	if !has("async") {
		toks := lex(src, tg.nameOff, min(len(src), tg.nameOff+len(tg.name)+200))
		// name [: Type] = async
		for j := 1; j+1 < len(toks) && j < 40; j++ {
			if isPunct(src, toks[j], "=") && toks[j+1].kind == tIdent && toks[j+1].text(src) == "async" {
				mods = append(mods, "async")
				break
			}
			if isPunct(src, toks[j], "=") || isPunct(src, toks[j], ";") || isPunct(src, toks[j], "{") {
				break
			}
		}
	}
	return mods
}

// exportedLater finds `export { …name… }` or `export default name` in the
// file: declarations exported apart from where they are written.
func exportedLater(src []byte, name string) bool {
	re := regexp.MustCompile(`(?m)^\s*export\s*(?:type\s*)?\{[^}]*\b` + regexp.QuoteMeta(name) + `\b[^}]*\}|(?m)^\s*export\s+default\s+` + regexp.QuoteMeta(name) + `\s*;?\s*$`)
	for _, m := range re.FindAllIndex(src, -1) {
		chunk := string(src[m[0]:m[1]])
		if strings.HasPrefix(strings.TrimLeft(string(src[m[1]:min(len(src), m[1]+64)]), " \t\r\n"), "from") {
			continue // a re-export of another module's name
		}
		// `export { other as name }` exports other, not name.
		if strings.Contains(chunk, "as "+name) && !strings.Contains(chunk, name+" as") {
			continue
		}
		return true
	}
	return false
}

var (
	kindLabel     = regexp.MustCompile(`^\([a-z][a-z ]*\)\s+`)
	overloadsNote = regexp.MustCompile(`\s*\(\+\d+ overloads?\)$`)
)

// cleanSignature turns hover code into a signature: no "(method) " label,
// no "Class." or "Class<T>." qualifier before the name.
func cleanSignature(code, name string) string {
	lines := strings.Split(strings.TrimSpace(code), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		l = kindLabel.ReplaceAllString(l, "")
		// "Account.deposit(…)" → "deposit(…)"; keep "constructor Account(…)".
		if j := strings.Index(l, "."+name); j > 0 && isQualifier(l[:j]) {
			l = l[j+1:]
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// isQualifier reports whether s is a dotted name with optional type
// arguments: "Account", "ns.Account", "Subscriber<T>".
func isQualifier(s string) bool {
	if lt := strings.IndexByte(s, '<'); lt > 0 {
		if !strings.HasSuffix(s, ">") {
			return false
		}
		s = s[:lt]
	}
	if s == "" || !ident.StartByte(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ident.PartByte(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

// normalize replaces nil slices with empty ones so JSON always has arrays
// where docs/architecture.md (rule 7) has them.
func normalize(md *SymbolMetadata) {
	if md.Modifiers == nil {
		md.Modifiers = []string{}
	}
	if md.OutgoingCalls == nil {
		md.OutgoingCalls = []OutgoingCall{}
	}
	if md.IncomingCallers == nil {
		md.IncomingCallers = []IncomingCaller{}
	}
	if th := md.TypeHierarchy; th != nil {
		if th.Implements == nil {
			th.Implements = []SymbolRef{}
		}
		if th.Subtypes == nil {
			th.Subtypes = []SymbolRef{}
		}
		if th.TypeParameters == nil {
			th.TypeParameters = []TypeParameter{}
		}
	}
	if tf := md.TypeFlows; tf != nil {
		if tf.Parameters == nil {
			tf.Parameters = []ParamFlow{}
		}
		for i := range tf.Parameters {
			if tf.Parameters[i].Types == nil {
				tf.Parameters[i].Types = []TypeRef{}
			}
		}
		if tf.Returns != nil && tf.Returns.Types == nil {
			tf.Returns.Types = []TypeRef{}
		}
		if tf.Type != nil && tf.Type.Types == nil {
			tf.Type.Types = []TypeRef{}
		}
	}
	if rf := md.References; rf != nil {
		if rf.Files == nil {
			rf.Files = []string{}
		}
		if rf.Sites == nil {
			rf.Sites = []Site{}
		}
	}
}

// refAt describes the declaration whose name starts at loc.
func (r *req) refAt(loc tsls.Location) SymbolRef {
	path := loc.Path()
	pc := classify(r.c.root, path)
	ref := SymbolRef{File: r.rel(path), External: pc.external, Package: pc.pkg}
	txt, err := r.text(path)
	if err != nil {
		return ref
	}
	src := txt.Bytes()
	off := txt.OffsetAt(loc.Range.Start)
	end := off
	for end < len(src) && ident.PartByte(src[end]) {
		end++
	}
	ref.Name = string(src[off:end])
	ref.Line = txt.Line(loc.Range.Start)
	kw := declKeyword(src, off)
	var lspKind tsls.SymbolKind
	if kw == "" && !pc.external {
		// Members and parameters: the enclosing document symbol knows.
		if syms, err := r.symbols(path); err == nil {
			if d, parent := findDecl(syms, loc.Range.Start); d != nil {
				lspKind = d.Kind
				if parent != nil && (parent.Kind == tsls.KindClass || parent.Kind == tsls.KindInterface) {
					ref.Container = parent.Name
				}
			}
		}
	}
	ref.Kind = kindFor(kw, lspKind)
	if ref.Kind == "unknown" && pc.external {
		ref.Kind = ""
	}
	ref.IsAbstract = kw == "class" && isAbstractDecl(src, off)
	return ref
}

// Definition implements Resolver.
func (c *Compiler) Definition(ctx context.Context, at Position) ([]SymbolRef, error) {
	r := c.newReq(ctx, Options{})
	txt, err := r.text(at.File)
	if err != nil {
		return nil, fmt.Errorf("structure: definition: %w", err)
	}
	pos, err := txt.PositionOf(at.Line, at.Column)
	if err != nil {
		return nil, fmt.Errorf("structure: definition: %w", err)
	}
	locs, err := c.srv.Definition(ctx, at.File, pos)
	if err != nil {
		return nil, fmt.Errorf("structure: definition: %w", err)
	}
	out := make([]SymbolRef, 0, len(locs))
	for _, l := range locs {
		out = append(out, r.refAt(l))
	}
	return out, nil
}

// Implementations implements Resolver: declarations only (tsgo also
// answers with the queried declaration itself and with import sites of
// aliases, which are dropped).
func (c *Compiler) Implementations(ctx context.Context, t Target) ([]SymbolRef, error) {
	r := c.newReq(ctx, Options{})
	tg, err := r.locate(t)
	if err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
	locs, err := c.srv.Implementation(ctx, tg.path, tg.pos)
	if err != nil {
		return nil, fmt.Errorf("structure: implementations: %w", err)
	}
	var out []SymbolRef
	for _, l := range locs {
		if l.Path() == tg.path && l.Range.Start == tg.pos {
			continue
		}
		if !r.isDeclarationName(l) {
			continue
		}
		out = append(out, r.refAt(l))
	}
	sortRefs(out)
	return out, nil
}

// isDeclarationName reports whether loc is the name of a declaration (not
// an import specifier or other use).
func (r *req) isDeclarationName(l tsls.Location) bool {
	path := l.Path()
	txt, err := r.text(path)
	if err != nil {
		return false
	}
	off := txt.OffsetAt(l.Range.Start)
	switch declKeyword(txt.Bytes(), off) {
	case "class", "interface", "function", "type", "enum", "const", "let", "var":
		return true
	}
	if classify(r.c.root, path).external {
		return false
	}
	syms, err := r.symbols(path)
	if err != nil {
		return false
	}
	d, _ := findDecl(syms, l.Range.Start)
	return d != nil && d.SelectionRange.Start == l.Range.Start
}

func sortRefs(refs []SymbolRef) {
	sort.SliceStable(refs, func(i, j int) bool {
		if refs[i].File != refs[j].File {
			return refs[i].File < refs[j].File
		}
		return refs[i].Line < refs[j].Line
	})
}

// references lists the compiler's references, declaration excluded.
func (r *req) references(tg *target) (*References, error) {
	locs, err := r.referencesAt(tg.path, tg.pos)
	if err != nil {
		return nil, err
	}
	out := &References{DeclarationExcluded: true}
	files := map[string]bool{}
	for _, l := range locs {
		path := l.Path()
		txt, err := r.text(path)
		if err != nil {
			continue
		}
		row, col := txt.RowCol(txt.OffsetAt(l.Range.Start))
		line := strings.TrimSpace(txt.LineText(row))
		if len(line) > 200 {
			line = line[:200] + "…"
		}
		rel := r.rel(path)
		out.Sites = append(out.Sites, Site{File: rel, Line: row, Column: col + 1, Text: line})
		if !files[rel] {
			files[rel] = true
			out.Files = append(out.Files, rel)
		}
	}
	sort.Strings(out.Files)
	sort.SliceStable(out.Sites, func(i, j int) bool {
		a, b := out.Sites[i], out.Sites[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	out.Count = len(out.Sites)
	return out, nil
}
