// The representative file Start opens to load the workspace's main
// project and keep it warm.

package tsls

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// skipDirs are never searched for a representative file.
var skipDirs = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "out": true, "coverage": true,
	"vendor": true, "target": true, "tmp": true,
}

// pickWarmFile chooses a file whose opening loads the workspace's main
// project: the shallowest TypeScript source (not a declaration file),
// preferring src/, then JavaScript when there is no TypeScript.
func pickWarmFile(root string) string {
	best, bestScore := "", 1<<30
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || skipDirs[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		lower := strings.ToLower(name)
		if strings.HasSuffix(lower, ".d.ts") || strings.HasSuffix(lower, ".d.mts") || strings.HasSuffix(lower, ".d.cts") {
			return nil
		}
		score := 0
		switch filepath.Ext(lower) {
		case ".ts", ".tsx", ".mts", ".cts":
		case ".js", ".jsx", ".mjs", ".cjs":
			score += 1000
		default:
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		score += 10 * len(parts)
		if parts[0] != "src" {
			score += 5
		}
		if strings.Contains(lower, ".test.") || strings.Contains(lower, ".spec.") {
			score += 100
		}
		if score < bestScore || (score == bestScore && path < best) {
			best, bestScore = path, score
		}
		return nil
	})
	return best
}
