package testkit

import (
	"os"
	"testing"
)

// ShortDir is a new temporary directory, removed when the test ends, whose
// path is short enough for a unix socket's address (at most 104 bytes on
// some systems; t.TempDir's paths, named after the test, can be longer).
func ShortDir(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "scry")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
