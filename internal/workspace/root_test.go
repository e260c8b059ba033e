package workspace

import (
	"errors"
	"github.com/scry-dev/scry/internal/testkit"
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	outside := testkit.Tree(t, map[string]string{"secret.ts": ""})
	dir := testkit.Tree(t, map[string]string{"src/a.ts": "", "src/sub/": ""})
	symlink(t, dir, outside, "out")
	symlink(t, dir, filepath.Join(outside, "secret.ts"), "src/secret.ts")
	symlink(t, dir, filepath.Join(outside, "not-yet"), "src/dangling-out")
	symlink(t, dir, "a.ts", "src/alias.ts")
	symlink(t, dir, "sub/new.ts", "src/dangling-in.ts")
	symlink(t, dir, "loop2", "loop1")
	symlink(t, dir, "loop1", "loop2")
	symlink(t, filepath.Dir(dir), filepath.Base(dir), "ws-link")

	r, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	real := mustReal(t, dir)
	if r.Dir() != real {
		t.Fatalf("Dir() = %q, want %q", r.Dir(), real)
	}
	wsLink := filepath.Join(filepath.Dir(dir), "ws-link")
	t.Cleanup(func() { os.Remove(wsLink) })

	accept := []struct{ in, rel string }{
		{"", "."},
		{".", "."},
		{"src/a.ts", "src/a.ts"},
		{"./src//sub/../a.ts", "src/a.ts"},
		{"src/alias.ts", "src/alias.ts"},
		{"src/new/deeper/file.ts", "src/new/deeper/file.ts"},
		{"src/dangling-in.ts", "src/dangling-in.ts"},
		{"src/a.ts/x", "src/a.ts/x"},
		{"out/../src/a.ts", "src/a.ts"},
		{filepath.Join(dir, "src", "a.ts"), "src/a.ts"},
		{filepath.Join(real, "src"), "src"},
		{filepath.Join(wsLink, "src", "a.ts"), "src/a.ts"},
	}
	for _, tt := range accept {
		abs, rel, err := r.Resolve(tt.in)
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.in, err)
			continue
		}
		if rel != tt.rel || abs != filepath.Join(real, filepath.FromSlash(tt.rel)) {
			t.Errorf("Resolve(%q) = %q, %q; want rel %q under %q", tt.in, abs, rel, tt.rel, real)
		}
	}

	reject := []string{
		"..",
		"../x",
		"src/../../x",
		"/etc/passwd",
		outside,
		filepath.Join(outside, "secret.ts"),
		"out",
		"out/secret.ts",
		"out/new.ts",
		"src/secret.ts",
		"src/dangling-out",
		"src/dangling-out/x.ts",
	}
	for _, in := range reject {
		if _, _, err := r.Resolve(in); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Resolve(%q) error = %v, want ErrOutsideRoot", in, err)
		}
	}

	if _, _, err := r.Resolve("loop1/x"); err == nil || errors.Is(err, ErrOutsideRoot) {
		t.Errorf("Resolve through a link cycle: %v, want an error other than ErrOutsideRoot", err)
	}
}

func TestNewRoot(t *testing.T) {
	dir := testkit.Tree(t, map[string]string{"f.ts": ""})
	for _, bad := range []string{"", filepath.Join(dir, "f.ts"), filepath.Join(dir, "missing")} {
		if _, err := NewRoot(bad); err == nil {
			t.Errorf("NewRoot(%q): no error", bad)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	if r.Dir() != mustReal(t, wd) {
		t.Errorf("NewRoot(.).Dir() = %q, want %q", r.Dir(), wd)
	}
}
