// The representative file Start opens to load the workspace's main
// project and keep it warm.

package tsls

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/textfmt"
)

// skipDirs are never searched for a representative file.
var skipDirs = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "out": true, "coverage": true,
	"vendor": true, "target": true, "tmp": true,
}

// walkFiles calls fn for each file under root (entries that cannot be
// read are passed over) outside hidden directories and skipDirs; fn may
// end the walk with filepath.SkipAll.
func walkFiles(root string, fn func(path string, d fs.DirEntry) error) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || skipDirs[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		return fn(path, d)
	})
}

// pickWarmFile chooses a file whose opening loads the workspace's main
// project: the shallowest TypeScript source (not a declaration file),
// preferring src/, then JavaScript when there is no TypeScript.
func pickWarmFile(root string) string {
	best, bestScore := "", 1<<30
	walkFiles(root, func(path string, d fs.DirEntry) error {
		lower := strings.ToLower(d.Name())
		if pathclass.Decl(lower) {
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
		if pathclass.TestCode(filepath.ToSlash(rel)) {
			score += 100
		}
		if score < bestScore || (score == bestScore && path < best) {
			best, bestScore = path, score
		}
		return nil
	})
	return best
}

// ErrBlockingFile is wrapped by the error of a start refused because a file
// the compiler would read is a FIFO, socket or device.
var ErrBlockingFile = errors.New("not started")

// maxBlockingNamed bounds the files an error names.
const maxBlockingNamed = 3

// blockingFiles lists (relative, at most maxBlockingNamed) the FIFOs,
// sockets and devices under root, outside the directories pickWarmFile
// skips, named like a file the compiler reads: a source, declaration or
// JSON file. Opening a FIFO blocks until a writer comes, and TypeScript
// opens every file its tsconfig.json includes.
func blockingFiles(root string) []string {
	var out []string
	walkFiles(root, func(path string, d fs.DirEntry) error {
		if len(out) >= maxBlockingNamed {
			return filepath.SkipAll
		}
		if !compilerReads(d.Name()) {
			return nil
		}
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			fi, err := os.Stat(path)
			if err != nil || fi.IsDir() {
				return nil
			}
			mode = fi.Mode().Type()
		}
		if mode&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeIrregular) != 0 {
			rel, _ := filepath.Rel(root, path)
			out = append(out, fmt.Sprintf("%s is %s", textfmt.Name(filepath.ToSlash(rel)), kindOf(mode)))
		}
		return nil
	})
	return out
}

// blockingErr is the error of a start refused (or a process stopped)
// because of the files bad names.
func blockingErr(bad []string) error {
	return fmt.Errorf("tsls: %w: %s, which TypeScript 7 would block reading (a tsconfig.json include reaches such files); remove it", ErrBlockingFile, strings.Join(bad, ", "))
}

// blockingFile says (as blockingFiles does) whether the file at path under
// root is a FIFO, socket or device named like a file the compiler reads.
func blockingFile(root, path string) (string, bool) {
	if !compilerReads(filepath.Base(path)) {
		return "", false
	}
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() {
		return "", false
	}
	mode := fi.Mode().Type()
	if mode&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeIrregular) == 0 {
		return "", false
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	return fmt.Sprintf("%s is %s", textfmt.Name(filepath.ToSlash(rel)), kindOf(mode)), true
}

func compilerReads(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json":
		return true
	}
	return false
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	}
	return "not a regular file"
}
