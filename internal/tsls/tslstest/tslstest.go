// Package tslstest gives tests the real TypeScript 7 language server.
package tslstest

import (
	"os"
	"testing"

	"github.com/scry-dev/scry/internal/tsls"
)

// EnvRequire makes a missing server a test failure instead of a skip (CI
// sets it together with SCRY_TSGO).
const EnvRequire = "SCRY_REQUIRE_TSGO"

// Binary returns the tsgo binary named by $SCRY_TSGO. Without it the test is
// skipped, or fails when $SCRY_REQUIRE_TSGO=1. A $SCRY_TSGO that does not
// point at TypeScript ≥ 7 always fails: it is a broken setup, not a
// missing one.
func Binary(t testing.TB) string {
	t.Helper()
	if os.Getenv(tsls.EnvTsgo) == "" {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("%s=1 but %s is not set: point it at TypeScript 7's tsc (npm typescript@%s)", EnvRequire, tsls.EnvTsgo, tsls.PinnedVersion)
		}
		t.Skipf("TypeScript 7 not available: set %s to its tsc binary (npm install typescript@%s; the binary is node_modules/@typescript/typescript-<os>-<arch>/lib/tsc) to run this test", tsls.EnvTsgo, tsls.PinnedVersion)
	}
	bin, _, err := tsls.Find(tsls.FindOptions{Getenv: os.Getenv})
	if err != nil {
		t.Fatalf("%s: %v", tsls.EnvTsgo, err)
	}
	return bin
}
