package onnxrt

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeTgz writes an npm-style package tarball.
func writeTgz(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	f.Close()
}

// TestSetupWithStandInNpm runs Setup against a stand-in npm that checks
// its arguments (pack, the pinned version, no scripts) and drops a tarball
// holding the library, other platforms' builds and an entry trying to
// escape the target directory.
func TestSetupWithStandInNpm(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the stand-in tarball is laid out for linux/x64")
	}
	work := t.TempDir()
	tgz := filepath.Join(work, "onnxruntime-node-"+Version+".tgz")
	writeTgz(t, tgz, map[string]string{
		"package/package.json":                                   `{"name":"onnxruntime-node"}`,
		"package/bin/napi-v6/linux/x64/libonnxruntime.so.1":      "ELF linux x64",
		"package/bin/napi-v6/linux/x64/onnxruntime_binding.node": "binding",
		"package/bin/napi-v6/linux/arm64/libonnxruntime.so.1":    "ELF linux arm64",
		"package/bin/napi-v6/linux/x64/../../../../../evil.so":   "escape",
	})
	npm := filepath.Join(work, "npm")
	script := `#!/bin/sh
case "$*" in
  "pack onnxruntime-node@` + Version + ` --json --ignore-scripts --pack-destination "*) ;;
  *) echo "unexpected arguments: $*" >&2; exit 2 ;;
esac
[ "$npm_config_ignore_scripts" = true ] || { echo "scripts not disabled" >&2; exit 3; }
cp "` + tgz + `" "$6/"
echo '[{"filename":"onnxruntime-node-` + Version + `.tgz"}]'
`
	if err := os.WriteFile(npm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	old := npmCommand
	npmCommand = npm
	defer func() { npmCommand = old }()

	cache := t.TempDir()
	for round := 0; round < 2; round++ { // a second run replaces the first
		lib, err := Setup(context.Background(), cache)
		if err != nil {
			t.Fatal(err)
		}
		if lib != filepath.Join(LibDir(cache), "libonnxruntime.so.1") {
			t.Fatalf("library at %s", lib)
		}
		if b, _ := os.ReadFile(lib); string(b) != "ELF linux x64" {
			t.Fatalf("library content %q", b)
		}
	}
	entries, _ := os.ReadDir(LibDir(cache))
	if len(entries) != 1 {
		t.Fatalf("unpacked %d files, want only the library", len(entries))
	}
	filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
		if strings.Contains(p, "evil") || strings.Contains(p, ".setup-") {
			t.Errorf("left behind %s", p)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(filepath.Dir(cache), "evil.so")); err == nil {
		t.Fatal("an entry escaped the cache directory")
	}
	t.Setenv(EnvLib, "")
	got, err := FindLibrary("", cache)
	if err != nil || got != filepath.Join(LibDir(cache), "libonnxruntime.so.1") {
		t.Fatalf("FindLibrary: %s, %v", got, err)
	}
}

func TestFindLibraryOrder(t *testing.T) {
	t.Setenv(EnvLib, "")
	if _, err := FindLibrary("", t.TempDir()); err == nil || !strings.Contains(err.Error(), "scry setup --onnx") {
		t.Fatalf("missing library: %v", err)
	}
	lib := filepath.Join(t.TempDir(), "lib.so")
	os.WriteFile(lib, []byte("x"), 0o644)
	t.Setenv(EnvLib, lib)
	if got, err := FindLibrary("", t.TempDir()); err != nil || got != lib {
		t.Fatalf("env: %s, %v", got, err)
	}
	if _, err := FindLibrary("/nonexistent/lib.so", ""); err == nil {
		t.Fatal("a missing explicit library was accepted")
	}
}

func TestNpmFailureIsReported(t *testing.T) {
	npm := filepath.Join(t.TempDir(), "npm")
	os.WriteFile(npm, []byte("#!/bin/sh\necho 'npm error 404 Not Found' >&2\nexit 1\n"), 0o755)
	old := npmCommand
	npmCommand = npm
	defer func() { npmCommand = old }()
	_, err := Setup(context.Background(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Fatalf("npm failure: %v", err)
	}
}
