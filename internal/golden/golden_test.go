package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	archive := "a comment\n-- one --\nfirst\nlines\n-- two --\n-- three --\nlast\n"
	comment, files := Parse([]byte(archive))
	if comment != "a comment\n" || len(files) != 3 || files[0] != (File{"one", "first\nlines\n"}) || files[1] != (File{"two", ""}) || files[2] != (File{"three", "last\n"}) {
		t.Fatalf("Parse = %q, %q", comment, files)
	}
	if got := string(Format(comment, files)); got != archive {
		t.Errorf("Format = %q, want %q", got, archive)
	}
	if got := string(Format("", []File{{"x", "no newline"}})); got != "-- x --\nno newline\n" {
		t.Errorf("Format adds the final newline: %q", got)
	}
	for _, line := range []string{"--x--\n", "-- --\n", "--- a ---", "text -- a --\n"} {
		if name, ok := marker(line); ok {
			t.Errorf("marker(%q) = %q", line, name)
		}
	}
}

func TestDiff(t *testing.T) {
	got := Diff("a\nb\nc\nd\n", "a\nb\nc\nX\n")
	for _, want := range []string{"first difference at line 4", "-    4 | d", "+    4 | X", "     3 | c"} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %q:\n%s", want, got)
		}
	}
	if got := Diff("a", "a\nb"); !strings.Contains(got, "-      | (end)") {
		t.Errorf("a longer got:\n%s", got)
	}
}

// Check fails on a difference and passes on the same content.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.txtar")
	if err := os.WriteFile(path, []byte("comment\n-- a --\none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Check(t, path, []File{{"a", "one"}})
	ft := &fakeT{TB: t}
	Check(ft, path, []File{{"a", "two"}})
	if !ft.failed {
		t.Error("a difference passed")
	}
}

type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Helper()               {}
