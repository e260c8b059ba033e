// Small text helpers the sections share.

package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/textfmt"
)

func capList(items []string) string {
	if len(items) > listCap {
		items = append(slices.Clone(items[:listCap]), "+"+strconv.Itoa(len(items)-listCap)+" more")
	}
	return strings.Join(items, ", ")
}

func refList(idx []int) string {
	s := make([]string, len(idx))
	for j, i := range idx {
		s[j] = "[" + strconv.Itoa(i) + "]"
	}
	return strings.Join(s, ", ")
}

// oneLine keeps multi-line signatures and values from breaking the layout.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func plural(n int, word string) string {
	s := textfmt.Thousands(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}

// kindNoun turns a kind into a word for prose: "standalone constant".
func kindNoun(kind string) string {
	switch kind {
	case "const":
		return "constant"
	case "type":
		return "type alias"
	case "":
		return "symbol"
	}
	return strings.ReplaceAll(kind, "-", " ")
}
