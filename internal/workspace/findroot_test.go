package workspace_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// TestFindRoot builds real directory trees and checks which root a command
// run in a subdirectory chooses, and why.
func TestFindRoot(t *testing.T) {
	tests := []struct {
		name      string
		tree      []string // files (path=text) and directories (ending in /) to create
		start     string
		home      string // relative to the tree; "" for none
		want, why string
	}{
		{"git work tree", []string{".git/", "packages/a/package.json", "packages/a/src/"}, "packages/a/src", "", ".", "git work tree"},
		{"git file of a linked worktree", []string{"wt/.git", "wt/src/"}, "wt/src", "", "wt", "git work tree"},
		{"nested git wins over outer", []string{".git/", "vendor/lib/.git/", "vendor/lib/src/"}, "vendor/lib/src", "", "vendor/lib", "git work tree"},
		{"npm workspaces root", []string{"package.json={\"workspaces\":[\"packages/*\"]}", "packages/a/package.json={}", "packages/a/src/"}, "packages/a/src", "", ".", "package.json workspaces"},
		{"pnpm workspace root", []string{"pnpm-workspace.yaml", "packages/a/package.json={}", "packages/a/lib/"}, "packages/a/lib", "", ".", "pnpm-workspace.yaml"},
		{"nearest package.json", []string{"app/package.json={}", "app/src/deep/"}, "app/src/deep", "", "app", "package.json"},
		{"nearest tsconfig.json", []string{"app/tsconfig.json={}", "app/src/"}, "app/src", "", "app", "tsconfig.json"},
		{"nothing marks a project", []string{"a/b/"}, "a/b", "", "a/b", "current directory"},
		{"not above home", []string{".git/", "me/work/"}, "me/work", "me", "me/work", "current directory"},
		{"home itself", []string{"me/.git/"}, "me", "me", "me", "git work tree"},
		// A project unpacked where the repository ignores it (scry's own
		// demo in .cache/demo/rxjs) is its own workspace, not the repository.
		{"ignored by the work tree", []string{".git/", ".gitignore=/.cache/\n", ".cache/demo/rxjs/package.json={}", ".cache/demo/rxjs/src/"}, ".cache/demo/rxjs/src", "", ".cache/demo/rxjs", "package.json"},
		{"ignored by a nested .gitignore", []string{".git/", "tools/.gitignore=out\n", "tools/out/app/tsconfig.json={}"}, "tools/out/app", "", "tools/out/app", "tsconfig.json"},
		{"in node_modules", []string{".git/", "node_modules/lib/package.json={}"}, "node_modules/lib", "", "node_modules/lib", "package.json"},
		{"ignored, markers above the repository do not count", []string{"package.json={\"workspaces\":[\"*\"]}", "repo/.git/", "repo/.gitignore=tmp/\n", "repo/tmp/x/"}, "repo/tmp/x", "", "repo/tmp/x", "current directory"},
		{"not ignored", []string{".git/", ".gitignore=/.cache/\n", "src/app/"}, "src/app", "", ".", "git work tree"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for _, p := range tt.tree {
				name, body, _ := strings.Cut(p, "=")
				files[name] = body
			}
			base := testkit.Tree(t, files)
			home := ""
			if tt.home != "" {
				home = filepath.Join(base, tt.home)
			}
			got, err := workspace.FindRoot(filepath.Join(base, filepath.FromSlash(tt.start)), home)
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(base, filepath.FromSlash(tt.want))
			if got.Dir != want || got.Reason != tt.why {
				t.Errorf("FindRoot = %s (%s), want %s (%s)", got.Dir, got.Reason, want, tt.why)
			}
		})
	}
}
