//go:build unix

package workspace

import (
	"bytes"
	"errors"
	"github.com/scry-dev/scry/internal/testkit"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// returns fails the test when f does not return in a minute: the reads
// tested here used to block forever.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s blocked for a minute", what)
	}
}

func TestReadFileRefuses(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.ts", "export const a = 1\n")
	write("big.ts", "x")
	if err := os.Truncate(filepath.Join(dir, "big.ts"), 3<<30); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	testkit.FIFO(t, filepath.Join(dir, "fifo.ts"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "passwd.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ok.ts", filepath.Join(dir, "alias.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.ts"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A socket path must be short; the test's own directory may not be.
	sockDir, err := os.MkdirTemp("", "s")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	l, err := net.Listen("unix", filepath.Join(sockDir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Symlink(filepath.Join(sockDir, "s"), filepath.Join(dir, "sock.ts")); err != nil {
		t.Fatal(err)
	}
	r, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		want error // nil: read
	}{
		{"ok.ts", nil},
		{"alias.ts", nil},
		{"fifo.ts", ErrNotRegular},
		{"zero.ts", ErrNotRegular},
		{"sock.ts", ErrNotRegular},
		{"dir.ts", ErrNotRegular},
		{"big.ts", ErrTooLarge},
		{"passwd.ts", ErrOutsideRoot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b []byte
			var err error
			returns(t, "reading "+tt.name, func() { b, err = r.ReadFile(filepath.Join(r.Dir(), tt.name), 1<<20) })
			if tt.want == nil {
				if err != nil || string(b) != "export const a = 1\n" {
					t.Fatalf("ReadFile = %q, %v", b, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("ReadFile = %d bytes, %v; want %v", len(b), err, tt.want)
			}
		})
	}
}

// TestReadFileReplacedBeforeOpen replaces a checked file in the window
// between the check and the open, as an attacker racing a sync would: with
// a FIFO (opening it for reading waits for a writer), with a symlink to a
// file outside the root, and with a file that is larger than the limit.
func TestReadFileReplacedBeforeOpen(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "passwd")
	if err := os.WriteFile(secret, []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		replace func(t *testing.T, path string)
		want    error
	}{
		{"fifo", func(t *testing.T, path string) { testkit.FIFO(t, path) }, ErrNotRegular},
		{"symlink outside", func(t *testing.T, path string) {
			if err := os.Symlink(secret, path); err != nil {
				t.Fatal(err)
			}
		}, ErrOutsideRoot},
		{"grown", func(t *testing.T, path string) {
			if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 4096), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.ts")
			if err := os.WriteFile(path, []byte("export {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := NewRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			betweenStatAndOpen = func(p string) {
				if err := os.Remove(p); err != nil {
					t.Error(err)
				}
				tt.replace(t, p)
			}
			defer func() { betweenStatAndOpen = nil }()
			var b []byte
			returns(t, "reading a file replaced by a "+tt.name, func() { b, err = r.ReadFile(path, 1024) })
			if !errors.Is(err, tt.want) {
				t.Fatalf("ReadFile = %q, %v; want %v", b, err, tt.want)
			}
		})
	}
}

// TestReadFileSwappedBack: the path led outside when it was opened and was
// put back before it was resolved; the opened file is not the one the path
// names now.
func TestReadFileSwappedBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.ts")
	if err := os.WriteFile(path, []byte("export {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(other, []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := os.Stat(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.confineOpened(path, opened); !errors.Is(err, ErrChanged) {
		t.Fatalf("confineOpened = %v, want ErrChanged", err)
	}
}

// TestManyReadsOfAFIFO: ten thousand concurrent reads of a FIFO, as from an
// agent calling a file tool in a loop, each used to hold a thread blocked
// in open until the process hit its thread limit and crashed.
func TestManyReadsOfAFIFO(t *testing.T) {
	dir := t.TempDir()
	r, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(r.Dir(), "p.ts")
	testkit.FIFO(t, path)
	returns(t, "10,000 reads of a FIFO", func() {
		var wg sync.WaitGroup
		errs := make(chan error, 10000)
		for range 10000 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := r.ReadFile(path, 1<<20)
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("ReadFile = %v, want ErrNotRegular", err)
				return
			}
		}
	})
}

// TestDiscoverSpecialFiles: FIFOs and devices under source names are
// skipped and counted, and an ignore file that is a FIFO (which discovery
// used to open and wait on) is not read.
func TestDiscoverSpecialFiles(t *testing.T) {
	root := testkit.Tree(t, map[string]string{"ok.ts": "export {}\n", ".git/info/": ""})
	testkit.FIFO(t, filepath.Join(root, "pipe.ts"))
	testkit.FIFO(t, filepath.Join(root, ".git", "info", "exclude"))
	symlink(t, root, "/dev/zero", "zero.ts")
	var res Result
	returns(t, "discovery", func() { res = mustDiscover(t, root, Options{}) })
	if got := rels(res); len(got) != 1 || got[0] != "ok.ts" {
		t.Errorf("files = %v, want [ok.ts]", got)
	}
	if n := res.SkipCounts()[SkipNotRegular]; n != 2 {
		t.Errorf("skipped %d as %s, want 2 (pipe.ts, zero.ts): %v", n, SkipNotRegular, res.Skipped)
	}
}
