package engine

import "github.com/scry-dev/scry/internal/workspace"

// FoundRoot is a workspace root chosen for a directory inside it, and why.
type FoundRoot = workspace.Found

// FindRoot chooses the workspace root for a command run in start without
// --root (workspace.FindRoot): the enclosing git work tree, else the
// enclosing workspace root, else the nearest package.json, tsconfig.json or
// jsconfig.json, searching no higher than below home.
func FindRoot(start, home string) (FoundRoot, error) { return workspace.FindRoot(start, home) }
