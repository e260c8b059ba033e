package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// Script writes text, a shell script, to path as an executable file
// (making its folder), and returns path: a stand-in for a program scry
// runs, such as a TypeScript 7 that never answers or a workspace's own
// "compiler" that leaves a mark when it is run.
func Script(t testing.TB, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
