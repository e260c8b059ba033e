//go:build unix

package index_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// TestSyncFileReplacedDuringSync replaces files after discovery listed them
// and before they are read, as an attacker racing a sync would: with a FIFO
// (the read used to block the sync, and every tool waiting on its lock),
// with a symlink to a file outside the root (its contents used to be
// indexed under the file's name), and with a file far over the size limit.
func TestSyncFileReplacedDuringSync(t *testing.T) {
	e := newEnv(t, map[string]string{
		"fifo.ts": "export const a = 1\n",
		"link.ts": "export const b = 2\n",
		"huge.ts": "export const c = 3\n",
		"keep.ts": "export const d = 4\n",
	})
	e.sync(t)
	secret := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(secret, []byte("export const rootPassword = 'x:0:0'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Changed, so that the next sync reads them.
	testkit.WriteTree(t, e.root, map[string]string{
		"fifo.ts": "export const a = 10\n",
		"link.ts": "export const b = 20\n",
		"huge.ts": "export const c = 30\n",
	})
	replaced := false
	replace := func(done, total int) {
		if replaced {
			return
		}
		replaced = true // first report: discovery is over, nothing is read yet
		for _, name := range []string{"fifo.ts", "link.ts", "huge.ts"} {
			if err := os.Remove(filepath.Join(e.root, name)); err != nil {
				t.Error(err)
			}
		}
		if err := syscall.Mkfifo(filepath.Join(e.root, "fifo.ts"), 0o644); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(secret, filepath.Join(e.root, "link.ts")); err != nil {
			t.Error(err)
		}
		f, err := os.Create(filepath.Join(e.root, "huge.ts"))
		if err == nil {
			err = f.Truncate(2 << 30) // sparse
			f.Close()
		}
		if err != nil {
			t.Error(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan struct{})
	var sum struct {
		skipped map[string]int
		err     error
	}
	go func() {
		defer close(done)
		s, err := e.ix.SyncProgress(ctx, replace)
		sum.skipped, sum.err = s.Skipped, err
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		// Unblock the stuck read so the test can end.
		if f, err := os.OpenFile(filepath.Join(e.root, "fifo.ts"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("a sync blocked for a minute on a file replaced by a FIFO")
	}
	if sum.err != nil {
		t.Fatalf("sync: %v", sum.err)
	}
	want := map[string]int{workspace.SkipNotRegular: 1, workspace.SkipSymlinkOutside: 1, workspace.SkipTooLarge: 1}
	for reason, n := range want {
		if sum.skipped[reason] != n {
			t.Errorf("skipped %s = %d, want %d (all: %v)", reason, sum.skipped[reason], n, sum.skipped)
		}
	}
	files, err := e.st.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo.ts", "link.ts", "huge.ts"} {
		if _, ok := files[name]; ok {
			t.Errorf("%s is still indexed after it was replaced", name)
		}
		cs, err := e.st.ChunksByFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if strings.Contains(c.FullSource, "rootPassword") {
				t.Errorf("%s: the file outside the root was indexed: %q", name, c.FullSource)
			}
		}
	}
	if _, ok := files["keep.ts"]; !ok {
		t.Error("keep.ts is no longer indexed")
	}
}
