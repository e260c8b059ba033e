// Package cachedir owns where scry keeps what it writes outside a
// workspace: indexes, the TypeScript 7 install, the ONNX Runtime library.
// Every part asks here, so that $SCRY_CACHE_DIR moves all of them at once.
package cachedir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Env names the variable that overrides the location.
const Env = "SCRY_CACHE_DIR"

// Dir is scry's cache directory: $SCRY_CACHE_DIR, else the scry folder of
// the user cache directory.
func Dir() (string, error) {
	return dir(os.Getenv, os.UserCacheDir)
}

func dir(getenv func(string) string, userCache func() (string, error)) (string, error) {
	if d := getenv(Env); d != "" {
		return d, nil
	}
	d, err := userCache()
	if err != nil {
		return "", fmt.Errorf("user cache directory: %w (set $%s)", err, Env)
	}
	return filepath.Join(d, "scry"), nil
}
