//go:build unix

package testkit

import (
	"syscall"
	"testing"
)

// FIFO makes a named pipe at path, for the tests that check a FIFO named
// like a source or settings file never blocks scry. A file system that
// refuses named pipes leaves such a test nothing to check: it is skipped.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}
