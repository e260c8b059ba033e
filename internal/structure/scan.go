package structure

import (
	"bytes"
	"strings"

	"github.com/scry-dev/scry/internal/ident"
)

// A small TypeScript lexer. The compiler answers the semantic questions;
// this only finds *where* to ask them — heritage names in a class header,
// type parameters, identifiers in call position, the modifiers written
// before a name — without being fooled by comments, strings, template
// literals or regular expressions.

type tokKind byte

const (
	tIdent  tokKind = 'i'
	tNumber tokKind = 'n'
	tString tokKind = 's' // string, template chunk or regex literal
	tPunct  tokKind = 'p'
)

type token struct {
	kind       tokKind
	start, end int
}

func (t token) text(src []byte) string { return string(src[t.start:t.end]) }

// regexAllowedAfter lists keywords after which "/" starts a regex literal.
var regexAllowedAfter = map[string]bool{
	"return": true, "typeof": true, "case": true, "do": true, "else": true, "in": true,
	"of": true, "new": true, "delete": true, "void": true, "throw": true, "yield": true, "await": true,
}

// lex tokenizes src[start:end]. Template literals produce string tokens for
// their literal chunks and ordinary tokens for their ${} expressions.
func lex(src []byte, start, end int) []token {
	if end > len(src) {
		end = len(src)
	}
	var toks []token
	// braces records, for each open "{", whether it opened a template
	// substitution ("${"), so the matching "}" resumes the template.
	var braces []bool
	i := start
	lastSignificant := func() (token, bool) {
		if len(toks) == 0 {
			return token{}, false
		}
		return toks[len(toks)-1], true
	}
	// scanTemplate scans template text from i (just after "`" or "}")
	// up to and including the closing "`" or the next "${"; the token
	// starts at s (the opening backtick for a template's first chunk).
	scanTemplate := func(s int) {
		for i < end {
			switch src[i] {
			case '\\':
				i += 2
				continue
			case '`':
				i++
				toks = append(toks, token{tString, s, i})
				return
			case '$':
				if i+1 < end && src[i+1] == '{' {
					toks = append(toks, token{tString, s, i})
					i += 2
					braces = append(braces, true)
					return
				}
			}
			i++
		}
		toks = append(toks, token{tString, s, end})
	}
	for i < end {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < end && src[i+1] == '/':
			for i < end && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < end && src[i+1] == '*':
			j := strings.Index(string(src[i+2:end]), "*/")
			if j < 0 {
				i = end
			} else {
				i += j + 4
			}
		case c == '"' || c == '\'':
			s := i
			i++
			for i < end && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
			if i > end {
				i = end
			}
			toks = append(toks, token{tString, s, i})
		case c == '`':
			i++
			scanTemplate(i - 1)
		case c == '/':
			prev, ok := lastSignificant()
			isRegex := !ok
			if ok {
				switch prev.kind {
				case tIdent:
					isRegex = regexAllowedAfter[prev.text(src)]
				case tNumber, tString:
					isRegex = false
				case tPunct:
					p := src[prev.start]
					isRegex = p != ')' && p != ']' && p != '}'
				}
			}
			if !isRegex {
				toks = append(toks, token{tPunct, i, i + 1})
				i++
				continue
			}
			s := i
			i++
			inClass := false
			for i < end && src[i] != '\n' {
				ch := src[i]
				if ch == '\\' {
					i += 2
					continue
				}
				if ch == '[' {
					inClass = true
				} else if ch == ']' {
					inClass = false
				} else if ch == '/' && !inClass {
					i++
					break
				}
				i++
			}
			for i < end && ident.PartByte(src[i]) { // flags
				i++
			}
			toks = append(toks, token{tString, s, i})
		case ident.StartByte(c) || (c == '#' && i+1 < end && ident.StartByte(src[i+1])):
			s := i
			i++
			for i < end && ident.PartByte(src[i]) {
				i++
			}
			toks = append(toks, token{tIdent, s, i})
		case c >= '0' && c <= '9':
			s := i
			for i < end && (ident.PartByte(src[i]) || src[i] == '.') {
				i++
			}
			toks = append(toks, token{tNumber, s, i})
		case c == '{':
			braces = append(braces, false)
			toks = append(toks, token{tPunct, i, i + 1})
			i++
		case c == '}':
			if n := len(braces); n > 0 {
				tmpl := braces[n-1]
				braces = braces[:n-1]
				if tmpl {
					i++
					scanTemplate(i - 1)
					continue
				}
			}
			toks = append(toks, token{tPunct, i, i + 1})
			i++
		case c == '=' && i+1 < end && src[i+1] == '>':
			toks = append(toks, token{tPunct, i, i + 2})
			i += 2
		case c == '?' && i+1 < end && src[i+1] == '.':
			toks = append(toks, token{tPunct, i, i + 2})
			i += 2
		default:
			toks = append(toks, token{tPunct, i, i + 1})
			i++
		}
	}
	return toks
}

func isPunct(src []byte, t token, s string) bool {
	return t.kind == tPunct && string(src[t.start:t.end]) == s
}

// header is what a class or interface declaration says before its body.
type header struct {
	typeParams []TypeParameter
	extends    []heritage
	implements []heritage
	bodyStart  int // offset of the body's "{", -1 if not found
}

// heritage is one name in an extends/implements clause.
type heritage struct {
	written string // as written: "Repository<T>", "ns.Base"
	name    string // the last identifier of the dotted name: "Repository", "Base"
	offset  int    // byte offset of name, where definition is asked
}

// scanHeader reads a class/interface header starting right after its name.
func scanHeader(src []byte, nameEnd int) header {
	h := header{bodyStart: -1}
	// A header is short; bound the scan so a malformed file costs little.
	limit := nameEnd + 8192
	if limit > len(src) {
		limit = len(src)
	}
	toks := lex(src, nameEnd, limit)
	i := 0
	if i < len(toks) && isPunct(src, toks[i], "<") {
		j := matchAngle(src, toks, i)
		h.typeParams = parseTypeParams(src, toks[i+1:j])
		i = j + 1
	}
	var clause *[]heritage
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.kind == tIdent && t.text(src) == "extends":
			clause = &h.extends
			i++
			continue
		case t.kind == tIdent && t.text(src) == "implements":
			clause = &h.implements
			i++
			continue
		case isPunct(src, t, "{"):
			h.bodyStart = t.start
			return h
		case clause == nil:
			i++
			continue
		}
		// One heritage item: a dotted name, then optional type arguments
		// or (for mixins) call arguments, up to "," or the next clause.
		if t.kind != tIdent {
			i++
			continue
		}
		first, last := t.start, t
		i++
		for i+1 < len(toks) && isPunct(src, toks[i], ".") && toks[i+1].kind == tIdent {
			last = toks[i+1]
			i += 2
		}
		for i < len(toks) {
			t := toks[i]
			if t.kind == tIdent && (t.text(src) == "extends" || t.text(src) == "implements") {
				break
			}
			if isPunct(src, t, "{") || isPunct(src, t, ",") {
				break
			}
			switch {
			case isPunct(src, t, "<"):
				i = matchAngle(src, toks, i) + 1
			case isPunct(src, t, "("):
				i = matchPair(src, toks, i, "(", ")") + 1
			default:
				i++
			}
		}
		*clause = append(*clause, heritage{
			written: collapseSpace(string(src[first:toks[i-1].end])),
			name:    last.text(src),
			offset:  last.start,
		})
		if i < len(toks) && isPunct(src, toks[i], ",") {
			i++
		}
	}
	return h
}

// nesting is how a punctuation token changes the bracket depth of a
// signature: +1 for an opener, -1 for a closer ("<" and ">" included, for
// type arguments; "=>" is one token, an arrow), 0 otherwise.
func nesting(punct string) int {
	switch punct {
	case "<", "(", "[", "{":
		return 1
	case ">", ")", "]", "}":
		return -1
	}
	return 0
}

// topLevel returns the index of the first token reading punct outside any
// bracket, or -1.
func topLevel(src []byte, toks []token, punct string) int {
	depth := 0
	for j, t := range toks {
		if t.kind != tPunct {
			continue
		}
		s := t.text(src)
		if depth == 0 && s == punct {
			return j
		}
		depth += nesting(s)
	}
	return -1
}

// matchAngle returns the index of the ">" closing the "<" at toks[i],
// treating "=>" as an arrow, not a closer. Other brackets nest inside.
func matchAngle(src []byte, toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		if toks[j].kind != tPunct {
			continue
		}
		d := nesting(toks[j].text(src))
		depth += d
		if d < 0 && depth == 0 {
			return j
		}
	}
	return len(toks) - 1
}

// signatureAt reports whether the name at toks[j], whose "(" is toks[k],
// declares a method or an overload rather than calls one: it starts a
// member (nothing before it in the range, or "{", "}", ";", ",", a
// modifier or a line break) and its parameter list is followed by a return
// type or a body (`component(name: string): Component`, an interface's
// member; `go(x) {`, an object's method; `get size() {`). A call at a
// statement's start is followed by neither; one in a conditional (`ok ?
// f(x) : g(x)`) follows a "?".
func signatureAt(src []byte, toks []token, j, k int) bool {
	if j > 0 {
		p := toks[j-1]
		switch {
		case p.kind == tPunct && (isPunct(src, p, "{") || isPunct(src, p, "}") || isPunct(src, p, ";") || isPunct(src, p, ",")):
		case p.kind == tIdent && memberModifiers[p.text(src)]:
		case bytes.IndexByte(src[p.end:toks[j].start], '\n') >= 0:
			// First on its line: members without semicolons.
		default:
			return false
		}
	}
	m := matchPair(src, toks, k, "(", ")")
	return m+1 < len(toks) && (isPunct(src, toks[m+1], ":") || isPunct(src, toks[m+1], "{"))
}

// memberModifiers are the words that may stand before a member's name.
var memberModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "readonly": true,
	"abstract": true, "override": true, "declare": true, "export": true, "default": true,
	"async": true, "get": true, "set": true,
}

func matchPair(src []byte, toks []token, i int, open, close string) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.kind != tPunct {
			continue
		}
		switch t.text(src) {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

// splitTop splits tokens at top-level commas (outside any bracket).
func splitTop(src []byte, toks []token) [][]token {
	var out [][]token
	depth, from := 0, 0
	for j, t := range toks {
		if t.kind != tPunct {
			continue
		}
		s := t.text(src)
		if s == "," && depth == 0 {
			out = append(out, toks[from:j])
			from = j + 1
		}
		depth += nesting(s)
	}
	if from < len(toks) {
		out = append(out, toks[from:])
	}
	return out
}

func spanText(src []byte, toks []token) string {
	if len(toks) == 0 {
		return ""
	}
	return collapseSpace(string(src[toks[0].start:toks[len(toks)-1].end]))
}

// parseTypeParams reads "const T extends A = B, in out U" style lists.
func parseTypeParams(src []byte, toks []token) []TypeParameter {
	var out []TypeParameter
	for _, part := range splitTop(src, toks) {
		// Skip the modifiers a type parameter may carry.
		k := 0
		for k < len(part)-1 && part[k].kind == tIdent {
			w := part[k].text(src)
			if w != "const" && w != "in" && w != "out" {
				break
			}
			k++
		}
		if k >= len(part) || part[k].kind != tIdent {
			continue
		}
		tp := TypeParameter{Name: part[k].text(src)}
		rest := part[k+1:]
		ext, eq := -1, topLevel(src, rest, "=")
		if len(rest) > 0 && rest[0].kind == tIdent && rest[0].text(src) == "extends" {
			ext = 0
		}
		switch {
		case ext >= 0 && eq >= 0:
			tp.Constraint = spanText(src, rest[ext+1:eq])
			tp.Default = spanText(src, rest[eq+1:])
		case ext >= 0:
			tp.Constraint = spanText(src, rest[ext+1:])
		case eq >= 0:
			tp.Default = spanText(src, rest[eq+1:])
		}
		out = append(out, tp)
	}
	return out
}

func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// modifierWords are the keywords scry reports as modifiers, in the
// vocabulary of its parser ("exported" for export). Declaration keywords
// (const, get, set, ...) are kinds, not modifiers.
var modifierWords = map[string]string{
	"export": "exported", "default": "default", "declare": "declare", "abstract": "abstract",
	"async": "async", "static": "static", "public": "public", "private": "private",
	"protected": "protected", "readonly": "readonly", "override": "override",
	"accessor": "accessor",
}

// modifiersBefore reads the modifier keywords written before a declaration
// name, scanning back from nameStart to the start of the declaration
// (bounded by declStart and by statement punctuation).
func modifiersBefore(src []byte, declStart, nameStart int) []string {
	if declStart < 0 {
		declStart = 0
	}
	if declStart > nameStart {
		declStart = nameStart
	}
	// The declaration range may start at a decorator or earlier line; the
	// tokens we want are the last run of words before the name.
	toks := lex(src, declStart, nameStart)
	var words []string
	for j := len(toks) - 1; j >= 0; j-- {
		t := toks[j]
		if t.kind != tIdent {
			if isPunct(src, t, "*") { // generator star: function* name
				continue
			}
			break
		}
		words = append(words, t.text(src))
	}
	var out []string
	seen := map[string]bool{}
	for j := len(words) - 1; j >= 0; j-- {
		if m, ok := modifierWords[words[j]]; ok && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// declKeyword returns the declaration keyword written right before a name
// ("class", "interface", "function", "type", "enum", "namespace", "const",
// ...), or "" when the name is not preceded by one (methods, properties).
func declKeyword(src []byte, nameStart int) string {
	toks := lex(src, lineStartBefore(src, nameStart), nameStart)
	for j := len(toks) - 1; j >= 0; j-- {
		t := toks[j]
		if t.kind != tIdent {
			if isPunct(src, t, "*") {
				continue
			}
			return ""
		}
		switch w := t.text(src); w {
		case "class", "interface", "function", "type", "enum", "namespace", "module",
			"const", "let", "var", "get", "set":
			return w
		}
		if _, ok := modifierWords[t.text(src)]; !ok && t.text(src) != "declare" {
			return ""
		}
	}
	return ""
}

// isAbstractDecl reports whether the declaration whose name starts at
// nameStart is written `abstract class`.
func isAbstractDecl(src []byte, nameStart int) bool {
	for _, m := range modifiersBefore(src, lineStartBefore(src, nameStart), nameStart) {
		if m == "abstract" {
			return true
		}
	}
	return false
}

// lineStartBefore returns the start of the line holding off: a safe place
// to start lexing (never inside a token, unless inside a multi-line
// comment or string, which declaration headers are not).
func lineStartBefore(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// nonCallWords are identifiers that precede "(" without being calls.
var nonCallWords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "function": true,
	"return": true, "typeof": true, "await": true, "yield": true, "import": true,
	"constructor": true, "get": true, "set": true, "async": true, "void": true, "delete": true,
	"in": true, "of": true, "instanceof": true, "new": true, "with": true, "do": true, "else": true,
}

// callSite is an identifier used as a callee: called (name(...),
// name<T>(...)), used as a template tag, or constructed with new.
type callSite struct {
	offset, end int
	name        string
}

// callSites finds identifiers in call position within src[start:end],
// skipping declarations' own names (`function f(`, method heads `f(...) {`
// are filtered by the caller via the compiler).
func callSites(src []byte, start, end int) []callSite {
	toks := lex(src, start, end)
	var out []callSite
	for j, t := range toks {
		if t.kind != tIdent {
			continue
		}
		word := t.text(src)
		if nonCallWords[word] {
			continue
		}
		prevNew := j > 0 && toks[j-1].kind == tIdent && toks[j-1].text(src) == "new"
		prevFunction := j > 0 && toks[j-1].kind == tIdent && (toks[j-1].text(src) == "function")
		if prevFunction {
			continue
		}
		k := j + 1
		if k < len(toks) && isPunct(src, toks[k], "<") {
			// Type arguments: only if a "(" follows the matching ">".
			m := matchAngle(src, toks, k)
			if m+1 < len(toks) && isPunct(src, toks[m+1], "(") {
				k = m + 1
			}
		}
		isCall := k < len(toks) && (isPunct(src, toks[k], "(") ||
			(toks[k].kind == tString && src[toks[k].start] == '`'))
		if isCall && !prevNew && signatureAt(src, toks, j, k) {
			continue // a method or overload signature, not a call
		}
		if isCall || prevNew {
			out = append(out, callSite{offset: t.start, end: t.end, name: word})
		}
	}
	return out
}

// typeNames returns the names a type text refers to, in order, without
// duplicates; dotted names are reported whole ("ns.Type"). Primitives,
// keywords, type parameters in scope, and property/parameter names inside
// object and function types are skipped.
func typeNames(typeText string, typeParams map[string]bool) []string {
	src := []byte(typeText)
	toks := lex(src, 0, len(src))
	var out []string
	seen := map[string]bool{}
	for j := 0; j < len(toks); j++ {
		t := toks[j]
		if t.kind != tIdent {
			continue
		}
		if j > 0 && isPunct(src, toks[j-1], ".") {
			continue // member of a dotted name, handled with its head
		}
		// Names followed by ":" or "?:" are members or parameters.
		if j+1 < len(toks) && (isPunct(src, toks[j+1], ":") ||
			(isPunct(src, toks[j+1], "?") && j+2 < len(toks) && isPunct(src, toks[j+2], ":"))) {
			continue
		}
		name := t.text(src)
		k := j
		for k+2 < len(toks) && isPunct(src, toks[k+1], ".") && toks[k+2].kind == tIdent {
			k += 2
			name += "." + toks[k].text(src)
		}
		if typeKeywords[name] || typeParams[name] || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, name)
	}
	return out
}

// typeKeywords are type-level words that never name a declaration.
var typeKeywords = map[string]bool{
	"string": true, "number": true, "boolean": true, "bigint": true, "symbol": true, "object": true,
	"void": true, "undefined": true, "null": true, "never": true, "unknown": true, "any": true,
	"true": true, "false": true, "this": true, "typeof": true, "keyof": true, "readonly": true,
	"infer": true, "extends": true, "is": true, "asserts": true, "unique": true, "in": true,
	"out": true, "const": true, "new": true, "abstract": true, "as": true,
}
