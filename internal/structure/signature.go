package structure

import (
	"regexp"
	"strings"

	"github.com/scry-dev/scry/internal/ident"
)

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
	kindLabel     = regexp.MustCompile(`^(?:\([a-z][a-z ]*\)\s+)+`)
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
