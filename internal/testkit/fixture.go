package testkit

import (
	"path/filepath"
	"runtime"
	"testing"
)

// Fixture copies the repository's testdata/name (project, impact, ...) to
// a folder of that name in a new temporary directory and returns the copy,
// so that a test may edit it or give it its own .scry.toml.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testkit: no source location to find testdata from")
	}
	dst := filepath.Join(t.TempDir(), name)
	CopyTree(t, filepath.Join(filepath.Dir(here), "..", "..", "testdata", name), dst)
	return dst
}
