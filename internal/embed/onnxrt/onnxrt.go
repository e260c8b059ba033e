// Package onnxrt loads ONNX Runtime (the shared library from the npm
// package onnxruntime-node, unpacked by `scry setup --onnx`) and runs
// models through github.com/yalue/onnxruntime_go.
//
// The library is loaded once per process: ONNX Runtime has one environment
// per process, so the first successful Init fixes the library path.
package onnxrt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// Version is the onnxruntime-node release scry unpacks and tests against.
const Version = "1.30.0"

// EnvLib names the shared library explicitly, overriding the cache.
const EnvLib = "SCRY_ONNXRUNTIME_LIB"

// platform maps GOOS/GOARCH to the npm package's bin folder and the library
// file name it ships.
func platform() (dir, lib string, err error) {
	switch runtime.GOOS + "/" + runtime.GOARCH {
	case "linux/amd64":
		return "linux/x64", "libonnxruntime.so.1", nil
	case "linux/arm64":
		return "linux/arm64", "libonnxruntime.so.1", nil
	case "darwin/arm64":
		return "darwin/arm64", "libonnxruntime.1.dylib", nil
	}
	return "", "", fmt.Errorf("onnxrt: no ONNX Runtime build in onnxruntime-node for %s/%s", runtime.GOOS, runtime.GOARCH)
}

// LibDir is where setup unpacks the library under cacheDir.
func LibDir(cacheDir string) string {
	return filepath.Join(cacheDir, "onnxruntime", Version)
}

// FindLibrary returns the shared library to load: explicit if given, else
// $SCRY_ONNXRUNTIME_LIB, else the one `scry setup --onnx` unpacked into
// cacheDir ("" means cachedir.Dir()).
func FindLibrary(explicit, cacheDir string) (string, error) {
	for _, p := range []string{explicit, os.Getenv(EnvLib)} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("onnxrt: ONNX Runtime library %s: %w", p, err)
		}
		return p, nil
	}
	dir, _, lib, err := cached(cacheDir)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, lib)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("onnxrt: ONNX Runtime is not installed (run `scry setup --onnx`, or set %s): %w", EnvLib, ErrNoLibrary)
	}
	return p, nil
}

// ErrNoLibrary is wrapped by FindLibrary when no library can be found.
var ErrNoLibrary = errors.New("libonnxruntime not found")

var (
	initMu   sync.Mutex
	initPath string
)

// Init loads the library at path and creates the process's ONNX Runtime
// environment. Later calls with the same path are no-ops; another path is
// an error, since a process can hold only one runtime.
func Init(path string) error {
	initMu.Lock()
	defer initMu.Unlock()
	if initPath != "" {
		if initPath != path {
			return fmt.Errorf("onnxrt: already initialised with %s, cannot switch to %s", initPath, path)
		}
		return nil
	}
	ort.SetSharedLibraryPath(path)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("onnxrt: load %s: %w", path, err)
	}
	initPath = path
	return nil
}

// RuntimeVersion is the loaded library's version ("" before Init).
func RuntimeVersion() string {
	initMu.Lock()
	defer initMu.Unlock()
	if initPath == "" {
		return ""
	}
	return ort.GetVersion()
}
