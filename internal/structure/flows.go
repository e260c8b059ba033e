package structure

import (
	"strings"

	"github.com/scry-dev/scry/internal/tsls"
)

// sigParam is one parameter as the compiler printed it.
type sigParam struct {
	name     string
	typ      string
	optional bool
	rest     bool
}

// parsedSig is a printed declaration split into its typed parts.
type parsedSig struct {
	callable   bool
	params     []sigParam
	returns    string
	typ        string // declared type of a non-callable
	typeParams map[string]bool
}

// parseSignature reads the compiler's printed declaration (the first of
// the hover, which may run over lines while a bracket is open: an object
// type `{ fixed: boolean; … }` is printed a member a line): `function
// f<T>(a: A, b?: B): R`, `m(a: A): R`, `constructor C(a: A): C`, `const f:
// (a: A) => R`, `balance: number`.
func parseSignature(code, name string) parsedSig {
	line := strings.TrimSpace(firstDeclaration(code))
	line = overloadsNote.ReplaceAllString(line, "")
	src := []byte(line)
	toks := lex(src, 0, len(src))
	ps := parsedSig{typeParams: map[string]bool{}}

	i := -1
	if name != "constructor" {
		for j, t := range toks {
			if t.kind == tIdent && t.text(src) == name {
				i = j + 1
				break
			}
		}
	}
	if i < 0 {
		// Constructors print `constructor Class(...)`: take the first "(".
		for j, t := range toks {
			if isPunct(src, t, "(") {
				i = j
				break
			}
		}
		if i < 0 {
			return ps
		}
	}
	return parseCallableAt(src, toks, i, ps, true)
}

// firstDeclaration is code up to the first line break outside (), {} and
// [] (the hover's first declaration; merged declarations follow on lines
// of their own).
func firstDeclaration(code string) string {
	depth := 0
	for i := 0; i < len(code); i++ {
		switch code[i] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth = max(0, depth-1)
		case '\n':
			if depth == 0 {
				return code[:i]
			}
		}
	}
	return code
}

// parseCallableAt parses `<T>(params): R` (or `=> R` for function types) or
// `: Type` starting at toks[i].
func parseCallableAt(src []byte, toks []token, i int, ps parsedSig, allowType bool) parsedSig {
	if i < len(toks) && isPunct(src, toks[i], "<") {
		j := matchAngle(src, toks, i)
		for _, tp := range parseTypeParams(src, toks[i+1:j]) {
			ps.typeParams[tp.Name] = true
		}
		i = j + 1
	}
	if i < len(toks) && isPunct(src, toks[i], "(") {
		j := matchPair(src, toks, i, "(", ")")
		ps.callable = true
		for _, part := range splitTop(src, toks[i+1:j]) {
			if p, ok := parseParam(src, part); ok {
				ps.params = append(ps.params, p)
			}
		}
		k := j + 1
		if k < len(toks) && (isPunct(src, toks[k], ":") || isPunct(src, toks[k], "=>")) && k+1 < len(toks) {
			ps.returns = strings.TrimSpace(string(src[toks[k+1].start:]))
		}
		return ps
	}
	if allowType && i < len(toks) && isPunct(src, toks[i], ":") && i+1 < len(toks) {
		rest := toks[i+1:]
		typ := strings.TrimSpace(string(src[rest[0].start:]))
		// A function type `(a: A) => R` or `<T>(a: T) => R`: a callable.
		if isPunct(src, rest[0], "(") || isPunct(src, rest[0], "<") {
			k := 0
			if isPunct(src, rest[k], "<") {
				k = matchAngle(src, rest, k) + 1
			}
			if k < len(rest) && isPunct(src, rest[k], "(") {
				m := matchPair(src, rest, k, "(", ")")
				if m+1 < len(rest) && isPunct(src, rest[m+1], "=>") {
					return parseCallableAt(src, rest, 0, ps, false)
				}
			}
		}
		ps.typ = typ
	}
	return ps
}

func parseParam(src []byte, part []token) (sigParam, bool) {
	if len(part) == 0 {
		return sigParam{}, false
	}
	colon := topLevel(src, part, ":")
	var p sigParam
	nameToks := part
	if colon >= 0 {
		nameToks = part[:colon]
		p.typ = spanText(src, part[colon+1:])
	}
	name := spanText(src, nameToks)
	if strings.HasPrefix(name, "...") {
		p.rest = true
		name = strings.TrimSpace(strings.TrimPrefix(name, "..."))
	}
	if strings.HasSuffix(name, "?") {
		p.optional = true
		name = strings.TrimSpace(strings.TrimSuffix(name, "?"))
	}
	p.name = name
	return p, true
}

// globalLibTypes are default-library names skipped when the source does
// not spell them out (an inferred type): resolving them would only find
// TypeScript's own declarations.
var globalLibTypes = map[string]bool{
	"Promise": true, "PromiseLike": true, "Array": true, "ReadonlyArray": true, "Record": true,
	"Partial": true, "Required": true, "Readonly": true, "Pick": true, "Omit": true,
	"Exclude": true, "Extract": true, "NonNullable": true, "ReturnType": true, "Parameters": true,
	"InstanceType": true, "Awaited": true, "Map": true, "Set": true, "WeakMap": true, "WeakSet": true,
	"ReadonlyMap": true, "ReadonlySet": true, "Date": true, "RegExp": true, "Error": true,
	"Function": true, "Iterable": true, "Iterator": true, "IterableIterator": true,
	"AsyncIterable": true, "AsyncIterator": true, "AsyncIterableIterator": true, "Generator": true,
	"AsyncGenerator": true, "ArrayLike": true, "Object": true, "String": true, "Number": true,
	"Boolean": true, "Symbol": true, "BigInt": true, "PropertyKey": true, "ThisType": true,
	"Uppercase": true, "Lowercase": true, "Capitalize": true, "Uncapitalize": true, "NoInfer": true,
	"ArrayBuffer": true, "SharedArrayBuffer": true, "DataView": true, "Uint8Array": true,
	"Int8Array": true, "Uint16Array": true, "Int16Array": true, "Uint32Array": true,
	"Int32Array": true, "Float32Array": true, "Float64Array": true, "BigInt64Array": true,
	"BigUint64Array": true, "TemplateStringsArray": true, "ConstructorParameters": true,
	"ThisParameterType": true, "OmitThisParameter": true, "PromiseSettledResult": true,
}

// typeFlows resolves the named types in the target's parameters and
// return type (callables), or its declared type (variables, properties),
// to their declarations. Classes report their constructor's parameters.
func (r *req) typeFlows(tg *target, hoverCode string) (*TypeFlows, error) {
	if nonCallable[tg.kind] || tg.keyword == "interface" {
		return nil, nil
	}
	code, name := cleanSignature(hoverCode, tg.name), tg.name
	scope := tsls.Range{Start: tg.pos, End: tg.pos}
	if tg.decl != nil {
		scope = tg.decl.Range
	}
	if tg.kind == "class" || tg.keyword == "class" {
		ctor := constructorOf(tg.decl)
		if ctor == nil {
			return nil, nil
		}
		c, err := r.hoverCode(tg.path, ctor.SelectionRange.Start)
		if err != nil {
			return nil, err
		}
		code, scope = c, ctor.Range
		name = "constructor"
	}
	ps := parseSignature(code, name)
	tf := &TypeFlows{}
	res := &typeResolver{r: r, tg: tg, scope: scope, typeParams: ps.typeParams}
	if ps.callable {
		for _, p := range ps.params {
			types, err := res.resolve(p.typ)
			if err != nil {
				return nil, err
			}
			tf.Parameters = append(tf.Parameters, ParamFlow{Name: p.name, Type: p.typ, Optional: p.optional, Rest: p.rest, Types: types})
		}
		if ps.returns != "" && name != "constructor" {
			types, err := res.resolve(ps.returns)
			if err != nil {
				return nil, err
			}
			tf.Returns = &TypeFlow{Type: ps.returns, Types: types}
		}
		return tf, nil
	}
	if ps.typ != "" {
		types, err := res.resolve(ps.typ)
		if err != nil {
			return nil, err
		}
		tf.Type = &TypeFlow{Type: ps.typ, Types: types}
		return tf, nil
	}
	return nil, nil
}

func constructorOf(d *tsls.DocumentSymbol) *tsls.DocumentSymbol {
	if d == nil {
		return nil
	}
	for i := range d.Children {
		if d.Children[i].Kind == tsls.KindConstructor {
			return &d.Children[i]
		}
	}
	return nil
}

// typeResolver finds declarations for type names printed in a signature:
// by definition on the same name written in the declaration's source, or
// (for inferred types the source never spells) by workspace symbol search.
type typeResolver struct {
	r          *req
	tg         *target
	scope      tsls.Range
	typeParams map[string]bool
}

func (tr *typeResolver) resolve(typeText string) ([]TypeRef, error) {
	var out []TypeRef
	for _, name := range typeNames(typeText, tr.typeParams) {
		ref, keep, err := tr.resolveName(name)
		if err != nil {
			return nil, err
		}
		if keep {
			out = append(out, ref)
		}
	}
	return out, nil
}

func (tr *typeResolver) resolveName(name string) (TypeRef, bool, error) {
	r, tg := tr.r, tr.tg
	src := tg.txt.Bytes()
	parts := strings.Split(name, ".")
	last := parts[len(parts)-1]
	start, end := tg.txt.OffsetAt(tr.scope.Start), tg.txt.OffsetAt(tr.scope.End)
	toks := lex(src, start, end)
	tried := 0
	// resolvedToNonType: the compiler took the name as written to a type
	// parameter or a value (SelectQueryBuilder<Entity>'s Entity in
	// getMany(): Promise<Entity[]>), so it names no declared type, and
	// the search by name below, for types the source never spells, would
	// find another Entity (a test's class).
	resolvedToNonType := false
	for j, t := range toks {
		if t.kind != tIdent || t.text(src) != last || tried >= 3 {
			continue
		}
		// For dotted names the parts before must be written too.
		if len(parts) > 1 && !(j >= 2 && isPunct(src, toks[j-1], ".") && toks[j-2].text(src) == parts[len(parts)-2]) {
			continue
		}
		if len(parts) == 1 && j > 0 && isPunct(src, toks[j-1], ".") {
			continue // a property access, not the type name
		}
		tried++
		defs, err := r.definition(tg.path, tg.txt.PositionAt(t.start))
		if err != nil {
			return TypeRef{}, false, err
		}
		for _, d := range defs {
			if d.Path() == tg.path && tr.scope.Contains(d.Range.Start) {
				resolvedToNonType = true
				continue // a type parameter or local declared in scope
			}
			pc := classify(r.c.root, d.Path())
			if pc.lib {
				return TypeRef{}, false, nil
			}
			ref := r.refAt(d)
			// An import of an uninstalled package is that package's type.
			r.unresolvedImport(d.Path(), d.Range.Start, &pc, &ref)
			if !typeDeclKinds[ref.Kind] && !pc.external {
				resolvedToNonType = true
				continue // a type parameter outside the scope, or a value
			}
			return TypeRef{Name: name, Kind: ref.Kind, File: ref.File, Line: ref.Line, External: ref.External, Package: ref.Package}, true, nil
		}
	}
	if resolvedToNonType || globalLibTypes[name] {
		return TypeRef{}, false, nil
	}
	syms, err := r.symbolsNamed(last)
	if err != nil {
		return TypeRef{}, false, err
	}
	var found []tsls.Location
	for _, s := range syms {
		if s.Name != last {
			continue
		}
		switch s.Kind {
		case tsls.KindClass, tsls.KindInterface, tsls.KindEnum, tsls.KindTypeParameter, tsls.KindStruct,
			tsls.KindNamespace, tsls.KindModule:
		default:
			continue
		}
		if classify(r.c.root, s.Location.Path()).lib {
			return TypeRef{}, false, nil
		}
		found = append(found, s.Location)
	}
	if len(found) != 1 {
		return TypeRef{Name: name, Unresolved: true}, true, nil
	}
	ref := r.refAt(found[0])
	return TypeRef{Name: name, Kind: ref.Kind, File: ref.File, Line: ref.Line, External: ref.External, Package: ref.Package}, true, nil
}

// typeDeclKinds are kinds that declare types.
var typeDeclKinds = map[string]bool{
	"class": true, "interface": true, "type": true, "enum": true, "namespace": true,
}
