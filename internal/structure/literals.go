package structure

import (
	"bytes"
	"strings"
)

// The compiler prints inferred literal types: `export const k = API_KEY`
// hovers as `const k: "sk-live-…"` when API_KEY is a string constant. When
// that constant is declared outside the workspace root (a tsconfig
// `include` or a relative import reaching `../../other`), its value would
// be printed although no file of the workspace holds it, and answers never
// show text from outside the root. A declaration's type text therefore
// keeps a literal only when the declaration's own file holds its text;
// any other literal is widened to its type (string, number, bigint), which
// is still true of the value, without the value.

// withholdLiterals widens the string, template, number and bigint literals
// of the type text code that own (the declaration's file) does not hold.
func withholdLiterals(code string, own []byte) string {
	var b strings.Builder
	changed := false
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			end := closingQuote(code, i)
			lit := code[i+1 : max(i+1, end-1)]
			if !holds(own, lit) {
				b.WriteString("string")
				changed = true
			} else {
				b.WriteString(code[i:end])
			}
			i = end
		case c >= '0' && c <= '9' && (i == 0 || !identByte(code[i-1])):
			end := i
			for end < len(code) && (identByte(code[end]) || code[end] == '.') {
				end++
			}
			lit := code[i:end]
			switch {
			case holdsNumber(own, lit):
				b.WriteString(lit)
			case strings.HasSuffix(lit, "n"):
				b.WriteString("bigint")
				changed = true
			default:
				b.WriteString("number")
				changed = true
			}
			i = end
		default:
			b.WriteByte(c)
			i++
		}
	}
	if !changed {
		return code
	}
	return b.String()
}

// closingQuote returns the index just past the literal opened at i (the
// end of code when it is never closed).
func closingQuote(code string, i int) int {
	q := code[i]
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(code)
}

// holds reports whether own holds a string literal's text between quotes
// of any kind: as printed, or unescaped (the compiler prints every string
// in double quotes).
func holds(own []byte, lit string) bool {
	if lit == "" {
		return true // the empty string tells nothing
	}
	forms := []string{lit}
	if un := strings.NewReplacer(`\"`, `"`, `\'`, `'`).Replace(lit); un != lit {
		forms = append(forms, un)
	}
	for _, f := range forms {
		for _, q := range []string{`"`, `'`, "`"} {
			if bytes.Contains(own, []byte(q+f+q)) {
				return true
			}
		}
	}
	return false
}

// holdsNumber reports whether own holds a number literal as a whole token.
func holdsNumber(own []byte, lit string) bool {
	for from := 0; ; {
		i := bytes.Index(own[from:], []byte(lit))
		if i < 0 {
			return false
		}
		i += from
		end := i + len(lit)
		if (i == 0 || !identByte(own[i-1]) && own[i-1] != '.') && (end == len(own) || !identByte(own[end]) && own[end] != '.') {
			return true
		}
		from = i + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
