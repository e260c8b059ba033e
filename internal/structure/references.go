package structure

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/tsls"
)

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
	if ref.Name == "" && !pc.external {
		ref.nameUnnamed(r, path, loc.Range.Start)
	}
	ref.IsAbstract = kw == "class" && isAbstractDecl(src, off)
	return ref
}

// nameUnnamed names a definition that starts with no name of its own,
// from the declaration around it: a call signature (hono's `interface
// SetHeaders { (name: string): void }`, called as c.header(…)) by its
// interface, and a function assigned to a property (router's
// `buildAndCommitLocation = ({ … }) => …`, where the compiler points at
// the arrow function) by that property.
func (ref *SymbolRef) nameUnnamed(r *req, path string, at tsls.Position) {
	syms, err := r.symbols(path)
	if err != nil {
		return
	}
	d, parent := enclosingDecl(syms, at)
	if d == nil {
		return
	}
	if d.Name == "()" {
		ref.Kind = "call-signature"
	} else {
		ref.Name, ref.Kind = d.Name, kindFor("", d.Kind)
	}
	if parent != nil && (parent.Kind == tsls.KindClass || parent.Kind == tsls.KindInterface) {
		ref.Container = parent.Name
	}
}

// enclosingDecl is the innermost document symbol whose range holds pos,
// and its parent.
func enclosingDecl(syms []tsls.DocumentSymbol, pos tsls.Position) (decl, parent *tsls.DocumentSymbol) {
	var par *tsls.DocumentSymbol
	for list := syms; ; {
		var in *tsls.DocumentSymbol
		for i := range list {
			if list[i].Range.Contains(pos) {
				in = &list[i]
				break
			}
		}
		if in == nil {
			return decl, parent
		}
		decl, parent, par = in, par, in
		list = in.Children
	}
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
		if !r.isDeclarationName(l) || r.isAlias(l, t.Name) {
			continue
		}
		out = append(out, r.refAt(l))
	}
	sortRefs(out)
	return out, nil
}

// aliasInit is what follows an alias's name: `= require('./runnable')`,
// `= Mocha.Runnable`, `= require('./runnable.js').Runnable`, to the end of
// the line.
var aliasInit = regexp.MustCompile(`^\s*=\s*(?:require\s*\(\s*['"][^'"\n]*['"]\s*\)|[A-Za-z_$][\w$]*)(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*;?\s*(?://[^\n]*)?(?:\n|$)`)

// isAlias reports whether loc is a variable of the target's own name that
// only names it again (`var Runnable = require('./runnable')`): in
// JavaScript the compiler counts such an alias among a class's
// implementations, and it is the class, not a subclass. A value of the
// name that is built (`const Foo: Foo = {…}`) is not an alias.
func (r *req) isAlias(l tsls.Location, name string) bool {
	if name == "" {
		return false
	}
	txt, err := r.text(l.Path())
	if err != nil {
		return false
	}
	src := txt.Bytes()
	off := txt.OffsetAt(l.Range.Start)
	if off < 0 || off+len(name) > len(src) || string(src[off:off+len(name)]) != name {
		return false
	}
	switch declKeyword(src, off) {
	case "const", "let", "var":
		rest := src[off+len(name):]
		return aliasInit.Match(rest[:min(len(rest), 512)])
	}
	return false
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

// references lists the compiler's references, declarations excluded.
//
// The compiler is asked with its declarations included because it counts
// `import { x }` and `export { x } from` as declarations (of the importing
// file's alias): asked without, a rename guided by the answer would miss
// every import and public re-export. What is then dropped is what declares
// the symbol itself (the target, overload signatures, merged declarations)
// and the local name after `as`, so a renamed import counts once, at `x`.
func (r *req) references(tg *target) (*References, error) {
	locs, err := r.refs.get("decl:"+posKey(tg.path, tg.pos), func() ([]tsls.Location, error) {
		return r.c.srv.References(r.ctx, tg.path, tg.pos, true)
	})
	if err != nil {
		return nil, err
	}
	out := &References{DeclarationExcluded: true}
	files := map[string]bool{}
	for _, l := range locs {
		path := l.Path()
		if path == tg.path && l.Range.Start == tg.pos {
			continue
		}
		txt, err := r.text(path)
		if err != nil {
			continue
		}
		off := txt.OffsetAt(l.Range.Start)
		if afterAs(txt.Bytes(), off) || r.declaresItself(l) {
			continue
		}
		row, col := txt.RowCol(off)
		line := strings.TrimSpace(txt.LineText(row))
		line = textfmt.Clip(line, 200)
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

// afterAs reports whether the identifier at off is the local name of a
// renamed import or export (`x as y`): the same reference as the `x`
// before it.
func afterAs(src []byte, off int) bool {
	toks := lex(src, lineStartBefore(src, off), off)
	n := len(toks)
	return n > 0 && toks[n-1].kind == tIdent && toks[n-1].text(src) == "as" &&
		(n < 2 || !isPunct(src, toks[n-2], "."))
}

// declaresItself reports whether a reference the compiler returned with
// declarations included is a declaration of the symbol (the name after
// `function`, `class`, `interface` … or a class or interface member's
// name) rather than a use or an import/export specifier.
func (r *req) declaresItself(l tsls.Location) bool {
	path := l.Path()
	txt, err := r.text(path)
	if err != nil {
		return false
	}
	src, off := txt.Bytes(), txt.OffsetAt(l.Range.Start)
	if kw := declKeyword(src, off); kw != "" {
		return kw != "type" || !typeOnlySpecifier(src, off)
	}
	syms, err := r.symbols(path)
	if err != nil {
		return false
	}
	// Only members: the outline also lists object-literal properties, and
	// a shorthand `{ x }` is a use of x.
	d, parent := findDecl(syms, l.Range.Start)
	return d != nil && d.SelectionRange.Start == l.Range.Start &&
		parent != nil && (parent.Kind == tsls.KindClass || parent.Kind == tsls.KindInterface)
}

// typeOnlySpecifier reports whether the name at off follows `type` inside
// import or export braces (`import { type T }`, `export { a, type T }`):
// a use, not a type alias.
func typeOnlySpecifier(src []byte, off int) bool {
	toks := lex(src, lineStartBefore(src, off), off)
	n := len(toks)
	return n >= 2 && toks[n-1].text(src) == "type" && (isPunct(src, toks[n-2], "{") || isPunct(src, toks[n-2], ","))
}
