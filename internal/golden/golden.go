// Package golden compares test output with golden files and rewrites them
// with -update: one file format (txtar: a comment, then files each
// introduced by a "-- name --" line), one flag, one diff for every golden
// test that uses it. A package moving its goldens here drops its own
// -update flag, since a test binary can define the flag only once.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files from the current output")

// Updating reports whether the test run was asked to rewrite its golden
// files (-update). A golden that is not a txtar archive — one regenerated
// by an outside reference implementation, say — checks it, so that the tree
// still has one -update flag.
func Updating() bool { return *update }

// File is one named part of an archive.
type File struct {
	Name string
	Data string
}

// Parse reads an archive: the comment before the first file, then the
// files in order. A file's data ends with a newline unless it is empty.
func Parse(data []byte) (comment string, files []File) {
	var cur *File
	var b strings.Builder
	flush := func() {
		if cur == nil {
			comment = b.String()
		} else {
			cur.Data = b.String()
			files = append(files, *cur)
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if name, ok := marker(line); ok {
			flush()
			cur = &File{Name: name}
			continue
		}
		b.WriteString(line)
	}
	flush()
	return comment, files
}

// marker reports whether line introduces a file, and its name.
func marker(line string) (string, bool) {
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < 7 {
		return "", false
	}
	return strings.TrimSpace(line[3 : len(line)-3]), true
}

// Format writes an archive. Data that does not end with a newline gets
// one, so that every marker starts a line.
func Format(comment string, files []File) []byte {
	var b bytes.Buffer
	b.WriteString(comment)
	if comment != "" && !strings.HasSuffix(comment, "\n") {
		b.WriteByte('\n')
	}
	for _, f := range files {
		fmt.Fprintf(&b, "-- %s --\n", f.Name)
		b.WriteString(f.Data)
		if f.Data != "" && !strings.HasSuffix(f.Data, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// Check compares got with the archive at path (relative to the test's
// directory): the same files in the same order with the same contents,
// each compared as Format would write it. With -update it writes got,
// keeping the archive's comment.
func Check(t testing.TB, path string, got []File) {
	t.Helper()
	old, err := os.ReadFile(path)
	if err != nil && !(os.IsNotExist(err) && *update) {
		t.Fatalf("golden %s: %v (run the test with -update to create it)", path, err)
	}
	comment, want := Parse(old)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, Format(comment, got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	_, got = Parse(Format("", got)) // normalise trailing newlines as written
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(want):
			t.Errorf("golden %s: unexpected file %q (run with -update if intended)", path, got[i].Name)
		case i >= len(got):
			t.Errorf("golden %s: missing file %q", path, want[i].Name)
		case got[i].Name != want[i].Name:
			t.Errorf("golden %s: file %d is %q, want %q", path, i+1, got[i].Name, want[i].Name)
		case got[i].Data != want[i].Data:
			t.Errorf("golden %s, %q:\n%s", path, want[i].Name, Diff(want[i].Data, got[i].Data))
		}
	}
}

// Diff shows where got first departs from want: the differing line with
// up to two lines of context before it, as want then got.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-2)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d\n", i+1)
	show := func(label string, lines []string) {
		for k := from; k <= i && k < len(lines); k++ {
			mark := " "
			if k == i {
				mark = label
			}
			fmt.Fprintf(&b, "%s %4d | %s\n", mark, k+1, lines[k])
		}
		if i >= len(lines) {
			fmt.Fprintf(&b, "%s      | (end)\n", label)
		}
	}
	show("-", w)
	show("+", g)
	return b.String()
}
