package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

// Open reads the workspace's .scry.toml and the environment, lays the
// front end's overrides over them, validates the result, and indexes only
// the files the final configuration selects.
func TestOpenLoadsConfigurationOnce(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"src/a.ts":   "export const a = 1;\n",
		"lib/b.ts":   "export const b = 2;\n",
		".scry.toml": "maxTokenBudget = 1234\nexclude = [\"lib\"]\ncallDepth = 2\n",
		"tools/x.ts": "export const x = 3;\n",
	})
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name      string
		getenv    func(string) string
		configure func(*config.Config) error
		keep      bool
		wantErr   string
		wantFiles int
		check     func(t *testing.T, cfg config.Config)
	}{
		{name: "file", getenv: env(nil), wantFiles: 2, check: func(t *testing.T, cfg config.Config) {
			if cfg.Budget != 1234 || cfg.CallDepth != 2 {
				t.Errorf("budget %d, call depth %d: want the file's 1234, 2", cfg.Budget, cfg.CallDepth)
			}
		}},
		{name: "environment over file", getenv: env(map[string]string{"SCRY_BUDGET": "99"}), wantFiles: 2, check: func(t *testing.T, cfg config.Config) {
			if cfg.Budget != 99 {
				t.Errorf("budget %d, want the environment's 99", cfg.Budget)
			}
		}},
		{name: "override over environment", getenv: env(map[string]string{"SCRY_BUDGET": "99"}),
			configure: func(c *config.Config) error { c.Budget, c.Exclude = 7, nil; return nil }, wantFiles: 3,
			check: func(t *testing.T, cfg config.Config) {
				if cfg.Budget != 7 {
					t.Errorf("budget %d, want the override's 7", cfg.Budget)
				}
			}},
		{name: "invalid override", getenv: env(nil), configure: func(c *config.Config) error { c.Threshold = 2; return nil }, wantErr: "minimumRelevanceThreshold"},
		{name: "invalid environment", getenv: env(map[string]string{"SCRY_BUDGET": "lots"}), wantErr: "SCRY_BUDGET"},
		{name: "invalid environment kept for diagnosis", getenv: env(map[string]string{"SCRY_BUDGET": "lots"}), keep: true, wantFiles: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := engine.Open(context.Background(), engine.Options{
				Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"),
				Getenv: tt.getenv, Configure: tt.configure, KeepBrokenConfig: tt.keep, Sync: tt.wantFiles >= 0,
			})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					if e != nil {
						e.Close()
					}
					t.Fatalf("error %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if tt.keep {
				if e.ConfigErr() == nil || !strings.Contains(e.ConfigErr().Error(), "SCRY_BUDGET") {
					t.Errorf("ConfigErr %v, want the broken setting", e.ConfigErr())
				}
				return
			}
			if e.ConfigErr() != nil {
				t.Errorf("ConfigErr %v on a valid configuration", e.ConfigErr())
			}
			if got := e.LastSync().Files; got != tt.wantFiles {
				t.Errorf("indexed %d files, want %d", got, tt.wantFiles)
			}
			tt.check(t, e.Config())
		})
	}
}

func TestConfinePaths(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src", "auth"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(context.Background(), engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tests := []struct {
		in      string
		want    string // joined with ","; "" drops the filter
		wantErr bool
	}{
		{in: "src", want: "src"},
		{in: "./src/auth/", want: "src/auth"},
		{in: filepath.Join(e.Dir(), "src"), want: "src"},
		{in: ".", want: ""},
		{in: "src/**/*.ts", want: "src/**/*.ts"},
		{in: "./src/*.ts", want: "src/*.ts"},
		{in: "*.ts", want: "*.ts"},
		{in: "../elsewhere", wantErr: true},
		{in: "../**/*.ts", wantErr: true},
		{in: "/etc/*.conf", wantErr: true},
	}
	for _, tt := range tests {
		got, err := e.ConfinePaths([]string{tt.in})
		if (err != nil) != tt.wantErr {
			t.Errorf("ConfinePaths(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && strings.Join(got, ",") != tt.want {
			t.Errorf("ConfinePaths(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
