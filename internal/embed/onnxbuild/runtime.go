package onnxbuild

import (
	"os"
	"testing"

	"github.com/scry-dev/scry/internal/embed/onnxrt"
)

// EnvRequire makes a missing ONNX Runtime a test failure instead of a skip
// (CI with the library installed sets it to 1).
const EnvRequire = "SCRY_REQUIRE_ONNX"

// Runtime returns the ONNX Runtime library for tests: from
// SCRY_ONNXRUNTIME_LIB, else scry's cache. Without one the test is
// skipped, or fails when SCRY_REQUIRE_ONNX=1.
func Runtime(t testing.TB) string {
	t.Helper()
	lib, err := onnxrt.FindLibrary("", "")
	if err != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("%s=1 but: %v", EnvRequire, err)
		}
		t.Skipf("no ONNX Runtime (set SCRY_ONNXRUNTIME_LIB or run `scry setup --onnx`): %v", err)
	}
	return lib
}
