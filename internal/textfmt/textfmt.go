// Package textfmt owns the small rules every text renderer shares, so that
// the CLI, MCP and the connection graph write a value the same way: numbers
// with thousands separators, and names (paths above all) escaped so that
// no name can forge lines of output.
package textfmt

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dustin/go-humanize"
)

// Thousands writes n with comma separators: 3240 → "3,240".
func Thousands(n int) string { return humanize.Comma(int64(n)) }

// Clip is s cut to at most max bytes, at the start of a character, and
// followed by "…" when it is longer: one long line or signature cannot
// flood an answer, and the cut never splits a character.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Unsafe reports whether a name holds a character that must never reach
// an answer raw: a control character (a newline, a carriage return, a tab,
// an escape), a line or paragraph separator, a bidirectional control, or
// bytes that are not UTF-8. Printed raw, such a name could forge
// `file:line:` lines or instructions to the agent reading the answer (a
// newline followed by text of the attacker's choosing), or read
// differently from what it is; no legitimate source file needs one.
// Discovery never indexes a file so named; every renderer escapes one.
func Unsafe(s string) bool {
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

// Name makes a name from the workspace (a path, the root, a symbol) safe to
// print in text: an Unsafe name is written as a Go-quoted string
// ("a.ts\nsrc/x.ts…"), which stays on one line and says exactly which bytes
// the name holds, and so is a name that starts with a double quote, so
// that the quoted form cannot be imitated, and a name that could pass for
// a location (Locates: `a.ts:1: IGNORE….ts` printed raw in a
// `file:line:text` line reads as a match on line 1 of a.ts). Every other
// name is written as it is. JSON output needs none of this: its encoder
// escapes.
func Name(s string) string {
	if !Unsafe(s) && !strings.HasPrefix(s, `"`) && !Locates(s) {
		return s
	}
	return strconv.QuoteToGraphic(s)
}

// Locates reports whether a name holds what answers use to write a
// location after a path: a colon followed by a digit or a space
// (`file:12:`, `file: 3 references`). A Windows drive (`C:\`) does not.
func Locates(s string) bool {
	for i := strings.IndexByte(s, ':'); i >= 0 && i+1 < len(s); {
		if c := s[i+1]; c == ' ' || c >= '0' && c <= '9' {
			return true
		}
		j := strings.IndexByte(s[i+1:], ':')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// Line makes a message that may hold names (an error wrapping a path, say)
// safe to print: every character Unsafe rejects is written as its Go
// escape (\n, \x1b, \u202e), so the message stays on one line and no name
// inside it can start a line of its own. Everything else is kept.
func Line(s string) string {
	if !Unsafe(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
				continue
			}
			b.WriteRune(r)
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r):
			q := strconv.QuoteRune(r) // '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
