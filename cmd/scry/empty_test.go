package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyWorkspaceSaysWhy runs the CLI on a directory with no sources
// and checks that it says what it found and what to do, for the command
// that builds the index and for one that answers.
func TestEmptyWorkspaceSaysWhy(t *testing.T) {
	root := t.TempDir()
	index := filepath.Join(t.TempDir(), "index.db")
	for _, args := range [][]string{
		{"index", "--root", root, "--index", index},
		{"search", "--root", root, "--index", index, "token refresh"},
	} {
		out := mustScry(t, args...)
		if !strings.Contains(out, "The index is empty: no TypeScript or JavaScript files") || !strings.Contains(out, "--root DIR") {
			t.Errorf("scry %s does not say the workspace is empty:\n%s", args[0], out)
		}
	}
}
