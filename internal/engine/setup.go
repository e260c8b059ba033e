package engine

import (
	"context"
	"fmt"
	"io"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/embed/onnxrt"
	"github.com/scry-dev/scry/internal/tsls"
)

// Config is every setting of a workspace (internal/config documents the
// keys); front ends lay their flags over it in Options.Configure.
type Config = config.Config

// ParseCheckouts reads NAME=DIR pairs (--checkout) as config does, so that
// the front ends need not import config.
func ParseCheckouts(pairs []string) (map[string]string, error) { return config.ParseCheckouts(pairs) }

// DefaultConfig is the settings with no file, environment or flag.
func DefaultConfig() Config { return config.Default() }

// TypeScriptVersion is the TypeScript 7 release `scry setup` installs.
const TypeScriptVersion = tsls.PinnedVersion

// ONNXRuntimeVersion is the onnxruntime-node release `scry setup --onnx`
// unpacks.
const ONNXRuntimeVersion = onnxrt.Version

// SetupTypeScript installs TypeScript 7 into the cache directory with the
// npm client, logging its progress, and returns the compiler it finds
// there and where it was found.
func SetupTypeScript(ctx context.Context, cacheDir string, log io.Writer) (path, source string, err error) {
	if err := tsls.Setup(ctx, cacheDir, log); err != nil {
		return "", "", err
	}
	return tsls.Find(tsls.FindOptions{CacheDir: cacheDir})
}

// SetupONNX unpacks libonnxruntime from npm's onnxruntime-node into the
// cache directory (no install scripts run) and checks that it loads; it
// returns the library and the runtime's version.
func SetupONNX(ctx context.Context, cacheDir string) (path, version string, err error) {
	path, err = onnxrt.Setup(ctx, cacheDir)
	if err != nil {
		return "", "", err
	}
	if err := onnxrt.Init(path); err != nil {
		return "", "", fmt.Errorf("unpacked %s but it does not load: %w", path, err)
	}
	return path, onnxrt.RuntimeVersion(), nil
}
