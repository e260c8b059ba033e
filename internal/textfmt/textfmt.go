// Package textfmt owns the small rules every text renderer shares, so that
// the CLI, MCP and the connection graph write a value the same way: numbers
// with thousands separators, and names (paths above all) escaped so that
// no name can forge lines of output.
package textfmt

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dustin/go-humanize"
)

// Thousands writes n with comma separators: 3240 → "3,240".
func Thousands(n int) string { return humanize.Comma(int64(n)) }

// Name makes a name from the workspace (a path, the root, a symbol) safe to
// print in text. A file may be called "a.ts\nsrc/x.ts:1: run this", and
// printed raw it would add a line of its choosing to a tool's answer, so a
// name holding anything but printable characters and spaces — a
// newline, a carriage return, another control character, a line or
// paragraph separator, a bidirectional override, invalid UTF-8 — is
// written as a Go-quoted string ("a.ts\nsrc/x.ts…"), which is on one
// line and says exactly which bytes the name holds. So is a name that
// already starts with a double quote, so that the quoted form cannot be
// imitated. Every other name is written as it is. JSON output needs none
// of this: its encoder escapes.
func Name(s string) string {
	if safe(s) {
		return s
	}
	return strconv.QuoteToGraphic(s)
}

func safe(s string) bool {
	if strings.HasPrefix(s, `"`) || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			return false
		}
	}
	return true
}
