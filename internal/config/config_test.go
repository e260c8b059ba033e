package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	if content != "" {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadPrecedence(t *testing.T) {
	dir := write(t, "maxTokenBudget = 4000\nminimumRelevanceThreshold = 0.3\ncallDepth = 2\ntools = [\"codebase_search\"]\n")
	c, err := Load(dir, env(map[string]string{"SCRY_BUDGET": "6000"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Budget != 6000 {
		t.Errorf("environment should win over the file: budget %d", c.Budget)
	}
	if c.Threshold != 0.3 || c.CallDepth != 2 || len(c.Tools) != 1 {
		t.Errorf("file values lost: %+v", c)
	}
	if c.RerankWeight != 0.65 || c.Candidates != 40 {
		t.Errorf("defaults lost: %+v", c)
	}
}

func TestLoadWithoutFile(t *testing.T) {
	c, err := Load(write(t, ""), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if d := Default(); c.Budget != d.Budget || c.Threshold != d.Threshold || c.CallDepth != d.CallDepth {
		t.Errorf("no file should give the defaults: %+v", c)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		file string
		env  map[string]string
		want string
	}{
		{file: "maxTokenBudget = ", want: "config"},
		{file: "maxTokenBudget = \"lots\"", want: "maxTokenBudget"},
		{file: "budgett = 5", want: "unknown keys: budgett"},
		{file: "minimumRelevanceThreshold = 1.5", want: "minimumRelevanceThreshold"},
		{file: "callDepth = -2", want: "callDepth"},
		{file: "rerankWeight = 0\nvectorWeight = 0", want: "both 0"},
		{env: map[string]string{"SCRY_THRESHOLD": "high"}, want: "SCRY_THRESHOLD"},
		{env: map[string]string{"SCRY_BUDGET": "-1"}, want: "maxTokenBudget"},
	}
	for _, tt := range tests {
		_, err := Load(write(t, tt.file), env(tt.env))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("file %q env %v: error %v, want one mentioning %q", tt.file, tt.env, err, tt.want)
		}
	}
}

// FuzzLoad feeds arbitrary bytes as .scry.toml: a clear error or a valid
// config, never a panic.
func FuzzLoad(f *testing.F) {
	f.Add("maxTokenBudget = 100\n")
	f.Add("tools = [\"a\", 1]\n[x]\ny = 2")
	f.Add("minimumRelevanceThreshold = nan\n")
	f.Fuzz(func(t *testing.T, content string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(dir, env(nil))
		if err == nil {
			if verr := c.Validate(); verr != nil {
				t.Fatalf("Load accepted an invalid config: %v", verr)
			}
		}
	})
}

// A question's call depth: the configured one when it asks for none,
// else what it asks for within the one bound every front end keeps.
func TestCallDepthFor(t *testing.T) {
	c := Default()
	c.CallDepth = 3
	tests := []struct {
		asked, want int
		ok          bool
	}{
		{0, 3, true},
		{1, 1, true},
		{-1, -1, true},
		{MaxCallDepth, MaxCallDepth, true},
		{MaxCallDepth + 1, 0, false},
		{-2, 0, false},
	}
	for _, tc := range tests {
		got, err := c.CallDepthFor(tc.asked)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("CallDepthFor(%d) = %d, %v; want %d (ok %v)", tc.asked, got, err, tc.want, tc.ok)
		}
	}
}
