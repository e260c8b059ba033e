//go:build unix

package answer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// TestFileToolsRefuseSpecialFiles asks find_definition about a FIFO, a
// character device and a file far over the size limit. Each call used to
// block in open (a FIFO waits for a writer) or read without end; ten
// thousand blocked calls crash the process at its thread limit.
func TestFileToolsRefuseSpecialFiles(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte("export function a() { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e := openIndexed(t, root, engine.Options{})
	dir := root
	testkit.FIFO(t, filepath.Join(dir, "pipe.ts"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.ts")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "big.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(4 << 30); err != nil { // sparse
		t.Fatal(err)
	}
	big.Close()
	defer func() {
		// Let calls still blocked on the FIFO (without the fix) return.
		if f, err := os.OpenFile(filepath.Join(dir, "pipe.ts"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}()

	tests := []struct {
		file  string
		calls int
		want  error
	}{
		{"pipe.ts", 10000, workspace.ErrNotRegular},
		// A device cannot be made without privileges; a link to one is
		// outside the root, which path confinement refuses first.
		{"zero.ts", 100, workspace.ErrOutsideRoot},
		{"big.ts", 100, workspace.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			done := make(chan error, tt.calls)
			var wg sync.WaitGroup
			for range tt.calls {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := reads(e).Definition(ctx, tt.file, 1, 1)
					done <- err
				}()
			}
			finished := make(chan struct{})
			go func() { wg.Wait(); close(finished) }()
			select {
			case <-finished:
			case <-time.After(time.Minute):
				t.Fatalf("%d find_definition calls on %s did not return in a minute", tt.calls, tt.file)
			}
			close(done)
			for err := range done {
				if !errors.Is(err, tt.want) {
					t.Fatalf("find_definition on %s: %v, want %v", tt.file, err, tt.want)
				}
			}
		})
	}
}
