package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// checkTree checks that root holds files as WriteTree writes them: each
// file with its text, each name ending in "/" a folder.
func checkTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, want := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if fi, err := os.Stat(full); err != nil || !fi.IsDir() {
				t.Errorf("%s: %v, %v; want a folder", p, fi, err)
			}
			continue
		}
		if got, err := os.ReadFile(full); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
}

// A fixture is copied whole under its own name, and editing the copy
// leaves the repository's testdata as it was.
func TestFixture(t *testing.T) {
	root := Fixture(t, "project")
	if filepath.Base(root) != "project" {
		t.Errorf("copied to %s", root)
	}
	orig, err := os.ReadFile("../../testdata/project/src/auth/tokenService.ts")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "src", "auth", "tokenService.ts")
	if got, err := os.ReadFile(p); err != nil || string(got) != string(orig) {
		t.Fatalf("copy of tokenService.ts: %v\n%s", err, got)
	}
	WriteTree(t, root, map[string]string{"src/auth/tokenService.ts": "edited"})
	if again, _ := os.ReadFile("../../testdata/project/src/auth/tokenService.ts"); string(again) != string(orig) {
		t.Error("editing the copy changed testdata")
	}
}

// A set variable is returned; an unset one skips the test unless it is
// required.
func TestNeed(t *testing.T) {
	const name, require = "SCRY_TESTKIT_NEED", "SCRY_TESTKIT_REQUIRE"
	t.Setenv(name, "/deps/x")
	if got := Need(t, name, require); got != "/deps/x" {
		t.Errorf("Need = %q, want /deps/x", got)
	}
	t.Setenv(name, "")
	t.Setenv(require, "")
	var skipped bool
	t.Run("unset", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Need(t, name, require)
	})
	if !skipped {
		t.Error("an unset, unrequired dependency did not skip the test")
	}
}

func TestForgedLine(t *testing.T) {
	tests := []struct {
		text, marks string
		want        string // "" for none
	}{
		{"ok\n  " + Forged + ".ts", "", "  " + Forged + ".ts"},
		{"ok\n\"" + Forged + ".ts\"", "", ""}, // quoted: not a line of its own
		{"ok\n- `" + Forged + ".ts", "-`", "- `" + Forged + ".ts"},
		{"ok\n- `" + Forged + ".ts", "", ""},
		{"x " + Forged, "", ""},
	}
	for _, tt := range tests {
		got, ok := ForgedLine(tt.text, Forged, tt.marks)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ForgedLine(%q, %q) = %q, %v; want %q", tt.text, tt.marks, got, ok, tt.want)
		}
	}
}

// GitRepo commits every file of the folder, and Git answers about it.
func TestGitRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	WriteTree(t, dir, map[string]string{"a.ts": "1", "src/b.ts": "2"})
	GitRepo(t, dir)
	if got := Git(t, dir, "ls-files"); got != "a.ts\nsrc/b.ts" {
		t.Errorf("committed %q, want a.ts and src/b.ts", got)
	}
	if got := Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("left uncommitted: %q", got)
	}
}

// A script is written where asked, executable, and runs.
func TestScript(t *testing.T) {
	bin := Script(t, filepath.Join(t.TempDir(), "tools", "hello"), "#!/bin/sh\necho hello\n")
	if out, err := exec.Command(bin).Output(); err != nil || string(out) != "hello\n" {
		t.Errorf("%s: %q, %v", bin, out, err)
	}
}

// The steps run in order until stop, and none runs after it returns.
func TestBackground(t *testing.T) {
	var mu sync.Mutex
	var steps []int
	stop := Background(func(i int) {
		mu.Lock()
		steps = append(steps, i)
		mu.Unlock()
	})
	for {
		mu.Lock()
		n := len(steps)
		mu.Unlock()
		if n >= 3 {
			break
		}
		runtime.Gosched()
	}
	stop()
	stop() // a second stop is harmless
	mu.Lock()
	n := len(steps)
	for i, s := range steps {
		if s != i {
			t.Fatalf("steps %v, want 0, 1, 2, ...", steps)
		}
	}
	mu.Unlock()
	runtime.Gosched()
	mu.Lock()
	defer mu.Unlock()
	if len(steps) != n {
		t.Errorf("a step ran after stop returned")
	}
}

// A short directory exists and leaves room in a socket's address.
func TestShortDir(t *testing.T) {
	d := ShortDir(t)
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		t.Fatalf("%s: %v, %v", d, fi, err)
	}
	if len(filepath.Join(d, "indexes", "0123456789abcdef", "scry.sock")) > 104 {
		t.Errorf("%s is too long for a socket beneath it", d)
	}
}
