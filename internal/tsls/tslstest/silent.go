package tslstest

import (
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// Silent writes a stand-in for TypeScript 7 that gives its version and
// then never answers (a start that hangs, as a slow one looks from
// outside), and returns its path.
func Silent(t testing.TB) string {
	t.Helper()
	return testkit.Script(t, filepath.Join(t.TempDir(), "tsc"), "#!/bin/sh\ncase \"$1\" in --version) echo 'Version 7.0.2';; *) exec sleep 300;; esac\n")
}
