package workspace

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Found is a workspace root chosen for a directory inside it, and why.
type Found struct {
	Dir string
	// Reason names what made Dir the root: "git work tree",
	// "package.json workspaces", "pnpm-workspace.yaml", "package.json",
	// "tsconfig.json", "jsconfig.json", or "current directory" when
	// nothing above start marks a project.
	Reason string
}

// maxManifest bounds the read of a package.json looked at for its
// workspaces field.
const maxManifest = 1 << 20

// FindRoot chooses the workspace root for a command run in start, so that a
// command run from a subdirectory answers about the whole project instead
// of indexing the subdirectory alone. The nearest enclosing git work tree
// wins (a directory holding .git, a directory or a file as in a linked
// worktree or submodule), unless start lies in a directory that tree
// ignores (leftOutBelow: then only what lies below it counts); without
// one, the outermost enclosing workspace
// root (a package.json with a workspaces field, or a pnpm-workspace.yaml);
// without one, the nearest directory with a package.json, tsconfig.json or
// jsconfig.json; and without any, start itself.
//
// The search stops below home (the user's home directory, unless start is
// home itself): a dotfiles repository or a stray package.json there would
// otherwise make the whole home directory the workspace.
func FindRoot(start, home string) (Found, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return Found{}, fmt.Errorf("find workspace root: %w", err)
	}
	if home != "" {
		home = filepath.Clean(home)
	}
	var nearest, monorepo Found
	for d := dir; ; {
		if d == home && d != dir {
			break
		}
		if exists(filepath.Join(d, ".git")) {
			if !leftOutBelow(d, dir) {
				return Found{Dir: d, Reason: "git work tree"}, nil
			}
			// start lies in a part of this repository it ignores: the
			// markers found below decide, none from here up.
			break
		}
		switch {
		case exists(filepath.Join(d, "pnpm-workspace.yaml")):
			monorepo = Found{Dir: d, Reason: "pnpm-workspace.yaml"}
		case declaresWorkspaces(filepath.Join(d, "package.json")):
			monorepo = Found{Dir: d, Reason: "package.json workspaces"}
		}
		if nearest.Dir == "" {
			for _, m := range []string{"package.json", "tsconfig.json", "jsconfig.json"} {
				if exists(filepath.Join(d, m)) {
					nearest = Found{Dir: d, Reason: m}
					break
				}
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	switch {
	case monorepo.Dir != "":
		return monorepo, nil
	case nearest.Dir != "":
		return nearest, nil
	}
	return Found{Dir: dir, Reason: "current directory"}, nil
}

// leftOutBelow reports whether dir, inside the work tree at root, lies in
// a directory its discovery leaves out: one a .gitignore on the way (or
// .git/info/exclude) ignores, or one always skipped (node_modules). A
// project unpacked under a repository's ignored .cache/ is not that
// repository's code: taking the repository as the root would index
// everything but the files asked about.
func leftOutBelow(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	var rules *ignoreSet
	if data, err := ReadRegular(filepath.Join(root, ".git", "info", "exclude"), maxIgnoreFile); err == nil {
		rules = rules.with("", data)
	}
	cur, soFar := root, ""
	for _, name := range strings.Split(filepath.ToSlash(rel), "/") {
		if data, err := ReadRegular(filepath.Join(cur, ".gitignore"), maxIgnoreFile); err == nil {
			rules = rules.with(soFar, data)
		}
		soFar = path.Join(soFar, name)
		if isDefaultExcluded(name) || rules.ignored(soFar, true) {
			return true
		}
		cur = filepath.Join(cur, name)
	}
	return false
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// declaresWorkspaces reports whether the package.json at p has a
// workspaces field (npm, yarn and bun monorepos).
func declaresWorkspaces(p string) bool {
	b, err := ReadRegular(p, maxManifest)
	if err != nil {
		return false
	}
	var m struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	return json.Unmarshal(b, &m) == nil && len(m.Workspaces) > 0 && string(m.Workspaces) != "null"
}
