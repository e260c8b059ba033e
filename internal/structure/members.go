package structure

import (
	"sort"

	"github.com/scry-dev/scry/internal/tsls"
)

// members lists a class's or interface's members from the compiler's
// document symbols, with signatures from hover. For merged declarations
// (interface + interface, class + interface), every declaration the
// compiler links to the name contributes, ordered by file then position.
func (r *req) members(tg *target) ([]Member, error) {
	type declRef struct {
		path string
		d    *tsls.DocumentSymbol
	}
	decls := []declRef{}
	if tg.decl != nil {
		decls = append(decls, declRef{tg.path, tg.decl})
	}
	defs, err := r.definition(tg.path, tg.pos)
	if err != nil {
		return nil, err
	}
	for _, l := range defs {
		p := l.Path()
		if p == tg.path && l.Range.Start == tg.pos {
			continue
		}
		if classify(r.c.root, p).external {
			continue
		}
		d, err := r.declOf(p, l.Range.Start)
		if err != nil {
			return nil, err
		}
		if d != nil && (d.Kind == tsls.KindClass || d.Kind == tsls.KindInterface) {
			decls = append(decls, declRef{p, d})
		}
	}
	sort.SliceStable(decls, func(i, j int) bool {
		if decls[i].path != decls[j].path {
			return decls[i].path < decls[j].path
		}
		return decls[i].d.SelectionRange.Start.Less(decls[j].d.SelectionRange.Start)
	})

	type slot struct {
		path string
		s    tsls.DocumentSymbol
	}
	var slots []slot
	for _, dr := range decls {
		children := append([]tsls.DocumentSymbol(nil), dr.d.Children...)
		sort.SliceStable(children, func(i, j int) bool {
			return children[i].SelectionRange.Start.Less(children[j].SelectionRange.Start)
		})
		for i, ch := range children {
			// Overloads list once, at their first signature.
			if i > 0 && children[i-1].Name == ch.Name && children[i-1].Kind == ch.Kind {
				continue
			}
			slots = append(slots, slot{dr.path, ch})
		}
	}
	out := make([]Member, len(slots))
	errs := make([]error, len(slots))
	forEach(len(slots), concurrency, func(i int) {
		sl := slots[i]
		txt, err := r.text(sl.path)
		if err != nil {
			errs[i] = err
			return
		}
		src := txt.Bytes()
		nameOff := txt.OffsetAt(sl.s.SelectionRange.Start)
		kw := declKeyword(src, nameOff)
		kind := kindFor(kw, sl.s.Kind)
		m := Member{Name: sl.s.Name, Kind: kind, Line: txt.Line(sl.s.SelectionRange.Start)}
		if sl.path != tg.path {
			m.File = r.rel(sl.path)
		}
		m.Modifiers = modifiersBefore(src, txt.OffsetAt(sl.s.Range.Start), nameOff)
		code, err := r.hoverCode(sl.path, sl.s.SelectionRange.Start)
		if err != nil {
			errs[i] = err
			return
		}
		m.Signature = cleanSignature(code, sl.s.Name)
		out[i] = m
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
