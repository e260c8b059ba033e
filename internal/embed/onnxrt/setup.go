package onnxrt

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/scry-dev/scry/internal/cachedir"
)

// npmCommand is the npm client; tests point it at a stand-in.
var npmCommand = "npm"

// SetupONNXRuntime unpacks ONNX Runtime's shared library into
// LibDir(cacheDir) ("" means cachedir.Dir()). It runs `npm pack
// onnxruntime-node@<Version>`, which downloads the package tarball through
// whatever registry npm is configured with and runs none of the package's
// scripts (its install script would fetch more binaries), then extracts
// only bin/napi-v6/<platform>/libonnxruntime*. The new library replaces an
// old one atomically, so a running scry never sees half a file.
func SetupONNXRuntime(ctx context.Context, cacheDir string) error {
	_, err := Setup(ctx, cacheDir)
	return err
}

// cached is where the library lives under cacheDir ("": scry's cache
// directory), with this platform's build and library file name.
func cached(cacheDir string) (dir, plat, lib string, err error) {
	if cacheDir == "" {
		if cacheDir, err = cachedir.Dir(); err != nil {
			return "", "", "", err
		}
	}
	if plat, lib, err = platform(); err != nil {
		return "", "", "", err
	}
	return LibDir(cacheDir), plat, lib, nil
}

// Setup is SetupONNXRuntime returning the library's path.
func Setup(ctx context.Context, cacheDir string) (string, error) {
	final, plat, lib, err := cached(cacheDir)
	if err != nil {
		return "", err
	}
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("onnxrt: setup: %w", err)
	}
	work, err := os.MkdirTemp(parent, ".setup-")
	if err != nil {
		return "", fmt.Errorf("onnxrt: setup: %w", err)
	}
	defer os.RemoveAll(work)

	tgz, err := npmPack(ctx, work, "onnxruntime-node@"+Version)
	if err != nil {
		return "", err
	}
	stage := filepath.Join(work, "lib")
	if err := os.Mkdir(stage, 0o755); err != nil {
		return "", fmt.Errorf("onnxrt: setup: %w", err)
	}
	if err := extractLibrary(tgz, "package/bin/napi-v6/"+plat+"/", stage); err != nil {
		return "", fmt.Errorf("onnxrt: setup: %s: %w", filepath.Base(tgz), err)
	}
	if _, err := os.Stat(filepath.Join(stage, lib)); err != nil {
		return "", fmt.Errorf("onnxrt: setup: onnxruntime-node@%s has no %s for %s", Version, lib, plat)
	}
	// Swap directories: rename the old one aside first, because rename
	// onto a non-empty directory fails.
	old := final + ".old"
	os.RemoveAll(old)
	if err := os.Rename(final, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("onnxrt: setup: %w", err)
	}
	if err := os.Rename(stage, final); err != nil {
		return "", fmt.Errorf("onnxrt: setup: %w", err)
	}
	os.RemoveAll(old)
	return filepath.Join(final, lib), nil
}

// npmPack downloads spec's tarball into dir and returns its path.
func npmPack(ctx context.Context, dir, spec string) (string, error) {
	cmd := exec.CommandContext(ctx, npmCommand, "pack", spec, "--json", "--ignore-scripts", "--pack-destination", dir)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_ignore_scripts=true", "npm_config_fund=false", "npm_config_audit=false")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 500 {
			msg = msg[len(msg)-500:]
		}
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("onnxrt: setup needs npm on PATH: %w", err)
		}
		return "", fmt.Errorf("onnxrt: npm pack %s: %w: %s", spec, err, msg)
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if json.Unmarshal(stdout.Bytes(), &packed) == nil && len(packed) == 1 && packed[0].Filename != "" {
		p := filepath.Join(dir, filepath.Base(packed[0].Filename))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	// Older npm clients print the file name instead of JSON.
	m, _ := filepath.Glob(filepath.Join(dir, "*.tgz"))
	if len(m) == 1 {
		return m[0], nil
	}
	return "", fmt.Errorf("onnxrt: npm pack %s: cannot find the tarball in %s", spec, dir)
}

// extractLibrary copies the libonnxruntime* files directly under prefix in
// the tarball into dest. Only base names are used, so no entry can write
// outside dest.
func extractLibrary(tgz, prefix, dest string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	found := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if path.Dir(name)+"/" != prefix || !strings.HasPrefix(path.Base(name), "libonnxruntime") {
			continue
		}
		target := filepath.Join(dest, path.Base(name))
		switch h.Typeflag {
		case tar.TypeReg:
			out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
			if err != nil {
				return err
			}
			if _, err := io.Copy(out, tr); err != nil {
				out.Close()
				return err
			}
			if err := out.Close(); err != nil {
				return err
			}
			found++
		case tar.TypeSymlink:
			if err := os.Symlink(path.Base(h.Linkname), target); err != nil {
				return err
			}
			found++
		}
	}
	if found == 0 {
		return fmt.Errorf("no libonnxruntime files under %s", prefix)
	}
	return nil
}
