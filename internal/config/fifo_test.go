//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// TestConfigFileFIFO: a repository whose .scry.toml is a named pipe used
// to hang every command in the read of its configuration.
func TestConfigFileFIFO(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, FileName)
	testkit.FIFO(t, path)
	defer func() {
		// Release a read still blocked (without the fix).
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}()
	tests := []struct {
		name string
		run  func() error
	}{
		{"load", func() error { _, err := Load(root, func(string) string { return "" }); return err }},
		{"trust check", func() error { _, err := configHash(root); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- tt.run() }()
			select {
			case err := <-done:
				if !errors.Is(err, workspace.ErrNotRegular) {
					t.Fatalf("%s with a FIFO for %s: %v, want ErrNotRegular", tt.name, FileName, err)
				}
			case <-time.After(time.Minute):
				t.Fatalf("%s blocked for a minute on a FIFO named %s", tt.name, FileName)
			}
		})
	}
}
