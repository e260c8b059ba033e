package tslstest

import (
	"os"
	"path/filepath"
	"testing"
)

// Silent writes a stand-in for TypeScript 7 that gives its version and
// then never answers (a start that hangs, as a slow one looks from
// outside), and returns its path.
func Silent(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tsc")
	script := "#!/bin/sh\ncase \"$1\" in --version) echo 'Version 7.0.2';; *) exec sleep 300;; esac\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}
