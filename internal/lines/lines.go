// Package lines owns what a line is, so that every line number scry shows
// — chunk and symbol ranges, snapshots, grep matches, compiler positions —
// is the one an editor shows for the same file. A line ends at "\n", at
// "\r\n" or at a lone "\r", as in the language server protocol, editors and
// TypeScript 7's own positions; counting only "\n" (tree-sitter's rows)
// would put every line after a lone "\r" on the wrong number.
//
// U+2028 and U+2029 (and U+0085) end no line, although ECMAScript counts
// the first two as line terminators: the protocol does not, so neither do
// the compiler's answers nor editors' line numbers, and a line number is
// only useful if it is the one the editor shows. (File names holding them
// are never indexed: internal/textfmt.)
package lines

import (
	"bytes"
	"sort"
	"strings"
)

// Starts returns the byte offset where each line of src begins: line 1 at
// 0, then one after every terminator. A final terminator starts an empty
// last line, so "a\n" has starts [0 2].
func Starts(src []byte) []int {
	if bytes.IndexByte(src, '\r') < 0 {
		// Only "\n" ends lines: found with IndexByte, which scans many
		// bytes at a time, rather than byte by byte.
		starts := make([]int, 1, 1+bytes.Count(src, newline))
		for i := 0; ; {
			k := bytes.IndexByte(src[i:], '\n')
			if k < 0 {
				return starts
			}
			i += k + 1
			starts = append(starts, i)
		}
	}
	return startsByByte(src, make([]int, 1, 1+count(src)))
}

// startsByByte appends to starts (which holds line 1's 0) where each line
// after the first begins, reading src one byte at a time: any terminator.
func startsByByte(src []byte, starts []int) []int {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue // the "\n" ends this line
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

var newline = []byte{'\n'}

// count is an upper bound of the terminators in src, for the allocation.
func count(src []byte) int {
	return bytes.Count(src, newline) + bytes.Count(src, []byte{'\r'})
}

// Count returns how many terminators src holds: the lines a text spans,
// less one.
func Count(src []byte) int {
	if bytes.IndexByte(src, '\r') < 0 {
		return bytes.Count(src, newline)
	}
	return len(Starts(src)) - 1
}

// TotalOf is Total(Starts(src), len(src)), without building the starts.
func TotalOf(src []byte) int {
	n := 1 + Count(src)
	if k := len(src) - 1; k >= 0 && (src[k] == '\n' || src[k] == '\r') {
		n--
	}
	return n
}

// Total returns how many lines a file of size bytes with these Starts has:
// a final terminator ends the last line rather than starting an empty one
// (an empty file counts one line, as editors show it).
func Total(starts []int, size int) int {
	if n := len(starts); size > 0 && starts[n-1] == size {
		return n - 1
	}
	return len(starts)
}

// Of returns the 1-based line holding byte offset off, given Starts.
func Of(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}

// End returns the offset just past the content of 1-based line l, before
// its terminator, given Starts of src.
func End[T ~string | ~[]byte](src T, starts []int, l int) int {
	if l >= len(starts) {
		return len(src)
	}
	end := starts[l] - 1 // the terminator's last byte
	if src[end] == '\n' && end > starts[l-1] && src[end-1] == '\r' {
		end--
	}
	return end
}

// Split cuts s into its lines without their terminators, as
// strings.Split(s, "\n") does for files with "\n" endings: a final
// terminator leaves a final empty line.
func Split(s string) []string {
	if !strings.ContainsRune(s, '\r') {
		return strings.Split(s, "\n")
	}
	src := []byte(s)
	starts := Starts(src)
	out := make([]string, len(starts))
	for i := range starts {
		out[i] = s[starts[i]:End(src, starts, i+1)]
	}
	return out
}

// SplitAfter cuts s into its lines, each keeping its terminator, so that
// joining them gives s back. A final terminator does not start another
// line, and an empty s has none.
func SplitAfter(s string) []string {
	if s == "" {
		return nil
	}
	starts := Starts([]byte(s))
	if starts[len(starts)-1] == len(s) {
		starts = starts[:len(starts)-1]
	}
	out := make([]string, len(starts))
	for i, st := range starts {
		end := len(s)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		out[i] = s[st:end]
	}
	return out
}

// Trim removes a line's terminator.
func Trim(line string) string {
	line = strings.TrimSuffix(line, "\n")
	return strings.TrimSuffix(line, "\r")
}
