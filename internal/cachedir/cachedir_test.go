package cachedir

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	userCache := func() (string, error) { return "/home/u/.cache", nil }
	noCache := func() (string, error) { return "", errors.New("no $HOME") }
	tests := []struct {
		name      string
		env       string
		userCache func() (string, error)
		want      string
		wantErr   string
	}{
		{"environment wins", "/tmp/c", userCache, "/tmp/c", ""},
		{"user cache folder", "", userCache, filepath.Join("/home/u/.cache", "scry"), ""},
		{"environment without a user cache", "/tmp/c", noCache, "/tmp/c", ""},
		{"neither", "", noCache, "", "set $SCRY_CACHE_DIR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == Env {
					return tt.env
				}
				return ""
			}
			got, err := dir(getenv, tt.userCache)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("dir() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
