//go:build unix

package testkit

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.ts")
	FIFO(t, path)
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Fatalf("%s: %v, %v; want a named pipe", path, fi, err)
	}
}
