package workspace

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
// worktree or submodule); without one, the outermost enclosing workspace
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
			return Found{Dir: d, Reason: "git work tree"}, nil
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
