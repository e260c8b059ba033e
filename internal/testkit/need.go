package testkit

import (
	"os"
	"testing"
)

// Need returns the value of the environment variable name, which points a
// test at something scripts/testdeps.sh installs (the corpus, the MCP
// client). Without it the test is skipped, or fails where the variable
// require is "1": scripts/test.sh sets those so that nothing skips in CI.
func Need(t testing.TB, name, require string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		if os.Getenv(require) == "1" {
			t.Fatalf("%s is not set but %s=1 (run scripts/testdeps.sh)", name, require)
		}
		t.Skipf("%s not set (run scripts/testdeps.sh and source .cache/testdeps/env)", name)
	}
	return v
}
