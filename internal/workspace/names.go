package workspace

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// SkipUnsafeName marks a file or directory whose name holds a control
// character, a line or paragraph separator, a bidirectional override, or
// bytes that are not UTF-8. Such a name, printed in an answer, could forge
// `file:line:` lines or instructions to the agent reading it (a newline
// followed by text of the attacker's choosing), or read differently from
// what it is; no legitimate source file needs one.
const SkipUnsafeName = "unsafe-name"

// UnsafeName reports whether s holds a character that must never reach an
// answer raw (see SkipUnsafeName).
func UnsafeName(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return true
			}
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			return true
		}
	}
	return false
}

// QuoteName returns s unchanged when it is safe to print, and as a
// Go-quoted string (escapes for every unsafe character) otherwise, for the
// few outputs that name files scry did not discover itself.
func QuoteName(s string) string {
	if !UnsafeName(s) {
		return s
	}
	return strconv.QuoteToASCII(s)
}
