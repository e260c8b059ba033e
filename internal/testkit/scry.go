package testkit

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BuildScry compiles the scry command into a temporary directory and
// returns the binary, for the tests that run it as a user or an agent
// does (over stdio, as a separate process).
func BuildScry(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "scry")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/scry-dev/scry/cmd/scry").CombinedOutput(); err != nil {
		t.Fatalf("build scry: %v\n%s", err, out)
	}
	return bin
}
