package structure

import (
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/tsls"
)

// typeHierarchy builds supertypes from the declaration's heritage clauses,
// each name resolved by the compiler's definition, and direct subtypes from
// the compiler's implementation answer filtered to class/interface
// declarations whose own heritage resolves back to this declaration. (tsgo
// has no type hierarchy request; its implementation answer is transitive
// and includes the declaration itself and aliased import sites.)
func (r *req) typeHierarchy(tg *target) (*TypeHierarchy, error) {
	src := tg.txt.Bytes()
	h := scanHeader(src, tg.nameOff+len(tg.name))
	th := &TypeHierarchy{TypeParameters: h.typeParams}
	isClass := tg.keyword == "class" || (tg.keyword == "" && tg.decl != nil && tg.decl.Kind == tsls.KindClass)
	if isClass {
		th.IsAbstract = isAbstractDecl(src, tg.nameOff)
	}

	supers := append(append([]heritage{}, h.extends...), h.implements...)
	refs := make([]*SymbolRef, len(supers))
	errs := make([]error, len(supers))
	forEach(len(supers), concurrency, func(i int) {
		refs[i], errs[i] = r.heritageRef(tg.txt, tg.path, supers[i])
	})
	for i, hr := range supers {
		if errs[i] != nil {
			return nil, errs[i]
		}
		ref := refs[i]
		if ref == nil {
			ref = &SymbolRef{Name: hr.name, Kind: "unknown"}
			if hr.written != hr.name {
				ref.Written = hr.written
			}
			r.note("heritage %q could not be resolved", hr.written)
		}
		if isClass && i < len(h.extends) {
			th.Extends = ref
		} else {
			th.Implements = append(th.Implements, *ref)
		}
	}

	subs, err := r.subtypes(tg)
	if err != nil {
		return nil, err
	}
	th.Subtypes = subs
	return th, nil
}

// heritageRef resolves one heritage name with definition.
func (r *req) heritageRef(txt *tsls.Text, path string, hr heritage) (*SymbolRef, error) {
	defs, err := r.definition(path, txt.PositionAt(hr.offset))
	if err != nil {
		return nil, err
	}
	if len(defs) == 0 {
		return nil, nil
	}
	ref := r.refAt(defs[0])
	// Without the package installed, the compiler resolves `extends
	// EventEmitter` to the import or require of it (mocha's runner.cjs):
	// the supertype is the package's.
	pc := classify(r.c.root, defs[0].Path())
	r.unresolvedImport(defs[0].Path(), defs[0].Range.Start, &pc, &ref)
	if ref.Name == "" {
		ref.Name = hr.name
	}
	if hr.written != ref.Name {
		ref.Written = hr.written
	}
	return &ref, nil
}

// subtypes returns the direct subtypes of the class/interface at tg.
func (r *req) subtypes(tg *target) ([]SymbolRef, error) {
	locs, err := r.c.srv.Implementation(r.ctx, tg.path, tg.pos)
	if err != nil {
		return nil, err
	}
	// The declarations that count as "this type": the target and, for
	// merged declarations, its other declarations.
	selves := []tsls.Location{{URI: tsls.PathToURI(tg.path), Range: tsls.Range{Start: tg.pos, End: tg.pos}}}
	if defs, err := r.definition(tg.path, tg.pos); err == nil {
		selves = append(selves, defs...)
	}
	isSelf := func(l tsls.Location) bool {
		for _, s := range selves {
			if s.Path() == l.Path() && s.Range.Start == l.Range.Start {
				return true
			}
		}
		return false
	}

	type cand struct {
		loc tsls.Location
		ok  bool
		err error
	}
	cands := make([]cand, 0, len(locs))
	for _, l := range locs {
		if !isSelf(l) {
			cands = append(cands, cand{loc: l})
		}
	}
	forEach(len(cands), concurrency, func(i int) {
		l := cands[i].loc
		path := l.Path()
		txt, err := r.text(path)
		if err != nil {
			return
		}
		src := txt.Bytes()
		off := txt.OffsetAt(l.Range.Start)
		if kw := declKeyword(src, off); kw != "class" && kw != "interface" {
			return // an import alias, a class expression, an object literal
		}
		end := off
		for end < len(src) && ident.PartByte(src[end]) {
			end++
		}
		h := scanHeader(src, end)
		for _, hr := range append(append([]heritage{}, h.extends...), h.implements...) {
			defs, err := r.definition(path, txt.PositionAt(hr.offset))
			if err != nil {
				cands[i].err = err
				return
			}
			for _, d := range defs {
				if isSelf(d) {
					cands[i].ok = true
					return
				}
			}
		}
	})
	var out []SymbolRef
	for _, c := range cands {
		if c.err != nil && r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		if c.ok {
			out = append(out, r.refAt(c.loc))
		}
	}
	sortRefs(out)
	return out, nil
}
