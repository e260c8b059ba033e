package structure

import (
	"bytes"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/tsls"
)

// The compiler's call hierarchy gives a call inside an anonymous function
// that is not bound to a variable (`perform: () => run()` in an object or
// array, a callback argument) to the file's top level. Three different
// `perform` arrows calling the same function then read as one
// "(top level)" caller. splitTopLevel gives each such function a caller of
// its own, named by what holds it: the property key, the variable, or the
// call it is an argument of ("map() callback"), qualified by the
// declaration around it (`tasks.perform`), at the function's own line.

// splitTopLevel splits a top-level caller's sites by the anonymous function
// around each; the sites outside any stay with the top level. It returns
// the callers in place of n.
func (r *req) splitTopLevel(n *callNode) []*callNode {
	if !n.module || len(n.sites) == 0 {
		return []*callNode{n}
	}
	txt, err := r.text(n.sitesPath)
	if err != nil {
		return []*callNode{n}
	}
	src := txt.Bytes()
	toks := lex(src, 0, len(src))
	syms, _ := r.symbols(n.sitesPath)
	var top []tsls.Range
	byKey := map[string]*callNode{}
	var out []*callNode
	for _, site := range n.sites {
		off := txt.OffsetAt(site.Start)
		k := sort.Search(len(toks), func(i int) bool { return toks[i].start >= off })
		name, start, ok := anonymousAround(src, toks, k)
		if !ok {
			top = append(top, site)
			continue
		}
		startPos := txt.PositionAt(toks[start].start)
		container := containerAt(syms, startPos, name)
		line := txt.Line(startPos)
		key := nodeKey(n.sitesPath, container+"."+name, startPos.Line)
		c := byKey[key]
		if c == nil {
			c = &callNode{
				ref: SymbolRef{Name: name, Kind: "function", File: n.ref.File, Line: line, Container: container},
				key: key, path: n.sitesPath, sel: startPos, sitesPath: n.sitesPath,
				module: true, viaRefs: n.viaRefs,
			}
			byKey[key] = c
			out = append(out, c)
		}
		c.sites = append(c.sites, site)
	}
	if len(out) == 0 {
		return []*callNode{n}
	}
	if len(top) > 0 {
		n.sites = top
		n.ref.Line = txt.Line(top[0].Start)
		out = append([]*callNode{n}, out...)
	}
	return out
}

// anonymousAround finds the innermost function expression around the token
// toks[k] (an arrow, or `function (…) {…}`, or an object method
// `name(…) {…}`), scanning back through the brackets. It returns the name
// of the function and the index of its first token.
func anonymousAround(src []byte, toks []token, k int) (name string, start int, ok bool) {
	depth := 0
	// left: a "," or ";" at this depth was passed, so an arrow further
	// back ended before the site (`{ a: () => x, b: run() }`).
	left := false
	for j := min(k, len(toks)) - 1; j >= 0; j-- {
		t := toks[j]
		if t.kind != tPunct {
			continue
		}
		switch s := t.text(src); s {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			if depth > 0 {
				depth--
				continue
			}
			if s == "{" {
				if st, nameTok, isFn := functionBody(src, toks, j); isFn {
					if nameTok >= 0 {
						return toks[nameTok].text(src), st, true
					}
					return contextName(src, toks, st), st, true
				}
			}
			left = false
		case "=>":
			if depth == 0 && j+1 < len(toks) && isPunct(src, toks[j+1], "{") {
				// Its body's braces were passed, matched: the arrow
				// ended before the site, semicolon or not (vue writes
				// none: `const cb1 = () => {…}` then `queueJob(cb1)`).
				left = true
				continue
			}
			if depth == 0 && !left {
				st := arrowStart(src, toks, j)
				if typeAnnotation(src, toks, st) {
					// `let done!: () => void` declares a function's type,
					// and code without semicolons goes on after it.
					left = true
					continue
				}
				return contextName(src, toks, st), st, true
			}
		case ",", ";":
			if depth == 0 {
				left = true
			}
		}
	}
	return "", 0, false
}

// notFunctions are the words before `(…) {` that open a block, not a
// function.
var notFunctions = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true,
}

// functionBody reports whether the "{" at toks[j] opens a function's body:
// after "=>", or after the parameters of `function [name](…)` or of an
// object method `name(…)`. start is the function's first token; nameTok
// the index of its own name (-1 when it has none).
func functionBody(src []byte, toks []token, j int) (start, nameTok int, ok bool) {
	p := j - 1
	if p < 0 {
		return 0, -1, false
	}
	if isPunct(src, toks[p], "=>") {
		return arrowStart(src, toks, p), -1, true
	}
	// A return type: `function (…): T {`.
	if c := returnTypeColon(src, toks, p); c > 0 {
		p = c - 1
	}
	if !isPunct(src, toks[p], ")") {
		return 0, -1, false
	}
	open := matchBack(src, toks, p)
	if open <= 0 {
		return 0, -1, false
	}
	before := toks[open-1]
	if before.kind != tIdent {
		return 0, -1, false
	}
	w := before.text(src)
	switch {
	case w == "function":
		return withAsync(src, toks, open-1), -1, true
	case open >= 2 && toks[open-2].kind == tIdent && toks[open-2].text(src) == "function":
		// A named function expression: its own name.
		return withAsync(src, toks, open-2), open - 1, true
	case open >= 2 && isPunct(src, toks[open-2], "*") && open >= 3 && toks[open-3].text(src) == "function":
		return withAsync(src, toks, open-3), open - 1, true
	case notFunctions[w]:
		return 0, -1, false
	}
	// `name(…) {`: a method of an object literal.
	return open - 1, open - 1, true
}

// arrowStart is the first token of the arrow function whose "=>" is at
// toks[a]: its parameter list or single parameter, and `async`.
func arrowStart(src []byte, toks []token, a int) int {
	p := a - 1
	if p < 0 {
		return a
	}
	if c := returnTypeColon(src, toks, p); c > 0 {
		p = c - 1 // a return type: `(…): Promise<T> =>`
	}
	switch {
	case isPunct(src, toks[p], ")"):
		if open := matchBack(src, toks, p); open >= 0 {
			return withAsync(src, toks, open)
		}
	case toks[p].kind == tIdent:
		return withAsync(src, toks, p)
	}
	return a
}

// returnTypeColon finds, scanning back from toks[p] over a type, the ":"
// of a return type written right after a parameter list: the index of the
// ":" when toks before it is ")", else -1.
func returnTypeColon(src []byte, toks []token, p int) int {
	if c := colonBefore(src, toks, p, false); c > 0 && isPunct(src, toks[c-1], ")") {
		return c
	}
	return -1
}

// colonBefore scans back from toks[from] over a type, its brackets (and
// angle brackets) nesting and, when arrows is set, its arrows (`(a: A) =>
// void`) read as part of it, to the ":" that opens it at depth 0: its
// index, or -1 at a ",", ";" or "=" (or "=>" without arrows) at depth 0,
// an opener without its closer, or after a few dozen tokens (types are
// short).
func colonBefore(src []byte, toks []token, from int, arrows bool) int {
	depth := 0
	for j := from; j >= 0 && j > from-64; j-- {
		t := toks[j]
		if t.kind != tPunct {
			continue
		}
		switch s := t.text(src); s {
		case ")", "]", "}", ">":
			depth++
		case "(", "[", "{", "<":
			if depth == 0 {
				return -1
			}
			depth--
		case ":":
			if depth == 0 {
				return j
			}
		case "=>":
			if depth == 0 && !arrows {
				return -1
			}
		case ",", ";", "=":
			if depth == 0 {
				return -1
			}
		}
	}
	return -1
}

func withAsync(src []byte, toks []token, i int) int {
	if i > 0 && toks[i-1].kind == tIdent && toks[i-1].text(src) == "async" {
		return i - 1
	}
	return i
}

// matchBack returns the index of the opener matching the closer at toks[i],
// or -1: the opener left unmatched before it.
func matchBack(src []byte, toks []token, i int) int {
	return enclosingOpen(src, toks, i-1)
}

// declarationWords come before a name whose ":" opens a type annotation,
// not an object literal's key.
var declarationWords = map[string]bool{
	"let": true, "const": true, "var": true, "declare": true, "readonly": true,
	"private": true, "public": true, "protected": true, "static": true, "accessor": true,
}

// typeAnnotation reports whether the arrow starting at toks[st] is a
// function type in an annotation (`let done!: () => void`, `cb?: () =>
// void`, `private run: () => void`) rather than a function: its ":" follows
// a "!" or "?", or a name that a declaration word opens.
func typeAnnotation(src []byte, toks []token, st int) bool {
	if st < 2 || !isPunct(src, toks[st-1], ":") {
		return false
	}
	b := toks[st-2]
	if isPunct(src, b, "!") || isPunct(src, b, "?") {
		return true
	}
	return b.kind == tIdent && st >= 3 && toks[st-3].kind == tIdent && declarationWords[toks[st-3].text(src)]
}

// contextName names the function expression starting at toks[st] by what
// holds it: `key: fn` → key, `x = fn` → x, `f(…, fn)` → "f() callback".
func contextName(src []byte, toks []token, st int) string {
	if st == 0 {
		return "(anonymous function)"
	}
	b := toks[st-1]
	switch {
	case isPunct(src, b, ":") && st >= 2 && (toks[st-2].kind == tIdent || toks[st-2].kind == tString) &&
		(st < 3 || isPunct(src, toks[st-3], "{") || isPunct(src, toks[st-3], ",")):
		// A key of an object literal, not a ternary's `? y :`.
		return strings.Trim(toks[st-2].text(src), `"'`+"`")
	case isPunct(src, b, "=") && st >= 2:
		if v := annotatedName(src, toks, st-2); v != "" {
			return v // `const cb1: SchedulerJob = () => …` is cb1
		}
		if toks[st-2].kind == tIdent {
			return toks[st-2].text(src)
		}
	case isPunct(src, b, "(") || isPunct(src, b, ","):
		if open := enclosingOpen(src, toks, st-1); open > 0 && isPunct(src, toks[open], "(") {
			if callee := calleeBefore(src, toks, open); callee != "" {
				return textfmt.Clip(callee, ident.CallbackCallee) + "(" + callTitle(src, toks, open, st) + ") callback"
			}
		}
	}
	return "(anonymous function)"
}

// annotatedName is the name a type annotation ending at toks[end] (the
// last token before an "=") belongs to: the name before the annotation's
// ":" (colonBefore, arrows read as part of the type). "" when the tokens
// before the "=" are no annotation (`x = …`, or a type's tokens running
// past a statement's end).
func annotatedName(src []byte, toks []token, end int) string {
	if c := colonBefore(src, toks, end, true); c >= 1 && toks[c-1].kind == tIdent {
		return toks[c-1].text(src)
	}
	return ""
}

// enclosingOpen returns the index of the unmatched opener at or before
// toks[i], or -1.
func enclosingOpen(src []byte, toks []token, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		if toks[j].kind != tPunct {
			continue
		}
		switch toks[j].text(src) {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return -1
}

// calleeBefore is the callee of the "(" at toks[open] as the chunker
// names it: its dotted names with the argument lists of the calls along it
// (`items.map`, `fetch(url).then`, `it.each(…)`: a list that runs over a
// line or past ident.CallbackArguments bytes is "(…)"), or "" when it is no name.
func calleeBefore(src []byte, toks []token, open int) string {
	var parts []string // right to left
	for j := open - 1; j >= 0; {
		switch {
		case toks[j].kind == tIdent:
			parts = append(parts, toks[j].text(src))
			if j == 0 || !isPunct(src, toks[j-1], ".") && !isPunct(src, toks[j-1], "?.") {
				return joinCallee(parts)
			}
			parts = append(parts, toks[j-1].text(src)) // "." or "?."
			j -= 2
		case isPunct(src, toks[j], ")"):
			m := matchBack(src, toks, j)
			if m <= 0 || !isPunct(src, toks[m], "(") {
				return joinCallee(parts)
			}
			args := src[toks[m].start:toks[j].end]
			if len(args) > ident.CallbackArguments || bytes.ContainsAny(args, "\n\r") {
				parts = append(parts, "(…)")
			} else {
				parts = append(parts, strings.Join(strings.Fields(string(args)), " "))
			}
			j = m - 1
		default:
			return joinCallee(parts) // `[1].map`: what follows the array
		}
	}
	return joinCallee(parts)
}

// joinCallee joins a callee's parts, collected right to left, from its
// first name: a "." left dangling by an expression that is no name
// (`[1].map` is "map") is dropped, and parts that open with an argument
// list (`(a || b)(cb)`) are no name.
func joinCallee(parts []string) string {
	if n := len(parts); n > 0 && (parts[n-1] == "." || parts[n-1] == "?.") {
		parts = parts[:n-1]
	}
	if len(parts) == 0 || strings.HasPrefix(parts[len(parts)-1], "(") {
		return ""
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return b.String()
}

// callTitle is the title a test or suite gives its callback, the string
// literal that opens the call's arguments (`it('getPath - %s', …)`),
// clipped as the chunker clips it; "" for any other first argument.
func callTitle(src []byte, toks []token, open, fn int) string {
	a := open + 1
	if a+1 >= fn || toks[a].kind != tString || !isPunct(src, toks[a+1], ",") {
		return ""
	}
	t := toks[a].text(src)
	if t == "" || t[0] != '\'' && t[0] != '"' {
		return "" // a template literal, or a regular expression
	}
	return textfmt.Clip(strings.Join(strings.Fields(t), " "), ident.CallbackTitle)
}

// containerAt is the innermost declaration in the outline around p other
// than the function itself (named name): `tasks` for a `perform` arrow in
// `const tasks = [{ perform: () => … }]`; "" at the top level.
func containerAt(syms []tsls.DocumentSymbol, p tsls.Position, name string) string {
	s := innermostAt(syms, p, func(s *tsls.DocumentSymbol) bool {
		return s.SelectionRange.Start != s.SelectionRange.End && s.Name != name && s.Kind != tsls.KindFile && s.Kind != tsls.KindModule
	})
	if s == nil {
		return ""
	}
	return s.Name
}

// innermostAt is the innermost declaration of the outline syms whose range
// holds p and that keep accepts (the last accepted on the way in), or nil.
func innermostAt(syms []tsls.DocumentSymbol, p tsls.Position, keep func(*tsls.DocumentSymbol) bool) *tsls.DocumentSymbol {
	var best *tsls.DocumentSymbol
	var walk func(list []tsls.DocumentSymbol)
	walk = func(list []tsls.DocumentSymbol) {
		for i := range list {
			s := &list[i]
			if !s.Range.Contains(p) {
				continue
			}
			if keep(s) {
				best = s
			}
			walk(s.Children)
		}
	}
	walk(syms)
	return best
}
