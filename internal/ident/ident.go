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

// StartByte is the scanners' rule for a byte that can begin a name.
func StartByte(b byte) bool {
	return b >= utf8.RuneSelf || b == '_' || b == '$' || b|0x20 >= 'a' && b|0x20 <= 'z'
}

// PartByte is the scanners' rule for a byte that can continue a name.
func PartByte(b byte) bool { return StartByte(b) || b >= '0' && b <= '9' }
