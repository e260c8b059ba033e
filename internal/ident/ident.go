// Package ident is scry's one rule for what an identifier is: an
// ECMAScript IdentifierName, so `café`, `π` and `数据` are names like any
// other (a function named café is not anonymous).
//
// Two levels, deliberately consistent:
//
//   - Start, Part and Is are exact: Unicode letters and letter numbers
//     (and $ and _) start a name; digits, combining marks, connector
//     punctuation and the zero-width joiners continue it.
//   - StartByte and PartByte are the byte-level rule that scanners use to
//     find where a name begins and ends without decoding UTF-8: ASCII bytes
//     are judged exactly, and every byte of a non-ASCII character counts as
//     part of a name. A multi-byte name is then never split; the price is
//     that non-ASCII punctuation next to a word is taken into it, which the
//     exact rule rejects when it matters (Is on the result).
package ident

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Start reports whether r can begin an identifier.
func Start(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || r == '$' || r|0x20 >= 'a' && r|0x20 <= 'z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

// Part reports whether r can continue an identifier.
func Part(r rune) bool {
	if r < utf8.RuneSelf {
		return Start(r) || r >= '0' && r <= '9'
	}
	return Start(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) ||
		r == '\u200c' || r == '\u200d'
}

// Is reports whether s is one whole identifier.
func Is(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError || i == 0 && !Start(r) || i > 0 && !Part(r) {
			return false
		}
	}
	return s != ""
}

// IsPath reports whether s is an identifier or a path of them joined by
// dots (a.b.c), as code names what it assigns to.
func IsPath(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if !Is(part) {
			return false
		}
	}
	return true
}

// Assigned is the name a definition named by the dotted path it was
// assigned to defines: its last segment (retries for
// Mocha.prototype.retries = function …), and "" for any other name and for
// module.exports, which is the module's export, not a name "exports".
func Assigned(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 || name == "module.exports" || !IsPath(name) {
		return ""
	}
	return name[i+1:]
}

// StartByte is the scanners' rule for a byte that can begin a name.
func StartByte(b byte) bool {
	return b >= utf8.RuneSelf || b == '_' || b == '$' || b|0x20 >= 'a' && b|0x20 <= 'z'
}

// PartByte is the scanners' rule for a byte that can continue a name.
func PartByte(b byte) bool { return StartByte(b) || b >= '0' && b <= '9' }

// Decode is the identifier a name written with Unicode escapes stands
// for, as the compiler reads it: `\u0061bc` and `\u{61}bc` are abc. A name
// without a backslash, or whose escapes do not make an identifier, comes
// back as it is.
func Decode(s string) string {
	if !strings.Contains(s, `\u`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		r, n := escape(s[i:])
		if n == 0 {
			return s
		}
		b.WriteRune(r)
		i += n
	}
	if d := b.String(); Is(d) {
		return d
	}
	return s
}

// escape reads one `\uXXXX` or `\u{X…}` escape at the start of s: the rune
// and its length, or 0 when s does not start with one.
func escape(s string) (rune, int) {
	if len(s) < 3 || s[0] != '\\' || s[1] != 'u' {
		return 0, 0
	}
	digits, n := s[2:], 0
	if digits[0] == '{' {
		end := strings.IndexByte(digits, '}')
		if end < 2 {
			return 0, 0
		}
		digits, n = digits[1:end], end+3
	} else {
		if len(digits) < 4 {
			return 0, 0
		}
		digits, n = digits[:4], 6
	}
	v, err := strconv.ParseUint(digits, 16, 32)
	if err != nil || v > unicode.MaxRune {
		return 0, 0
	}
	return rune(v), n
}

// IndexEscaped returns where in line the identifier name is written with
// Unicode escapes (`\u0061bc` for abc), or -1: the place to point the
// compiler at when the text does not spell the name out.
func IndexEscaped(line, name string) int {
	for i := 0; i < len(line); {
		if !PartByte(line[i]) && line[i] != '\\' {
			i++
			continue
		}
		j := i
		for j < len(line) {
			if PartByte(line[j]) {
				j++
			} else if _, n := escape(line[j:]); n > 0 {
				j += n
			} else {
				break
			}
		}
		if j == i {
			i++
			continue
		}
		if tok := line[i:j]; strings.Contains(tok, `\u`) && Decode(tok) == name {
			return i
		}
		i = j
	}
	return -1
}

// A callback is named after the call it is an argument of,
// `it('parses a date') callback`, `it.each(…)('t') callback`, by the
// chunker and by the compiler's callers alike; these bound what the name
// keeps of the call.
const (
	// CallbackArguments is the longest argument list of a call inside a
	// callee (`fetch(url).then`) kept as written; a longer one, or one
	// over lines, is "(…)".
	CallbackArguments = 24
	// CallbackTitle is the most bytes of a test's or suite's title kept
	// before "…", and CallbackCallee of the callee.
	CallbackTitle  = 40
	CallbackCallee = 40
)
