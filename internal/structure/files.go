package structure

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/scry-dev/scry/internal/tsls"
)

// fileCache keeps indexed file texts, revalidated by mtime and size on each
// use so an edit on disk is never answered from a stale copy.
type fileCache struct {
	mu    sync.Mutex
	m     map[string]*cachedText
	bytes int64 // sum of the cached files' sizes
}

// maxCachedFiles bounds the cache: a transitive call tree over a large
// repository may touch thousands of files. maxCachedBytes bounds it too:
// thousands of files of a megabyte would hold gigabytes.
const maxCachedFiles = 4096

var maxCachedBytes int64 = 64 << 20

type cachedText struct {
	mtime time.Time
	size  int64
	text  *tsls.Text
}

func (c *fileCache) get(path string) (*tsls.Text, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if e := c.m[path]; e != nil && e.mtime.Equal(st.ModTime()) && e.size == st.Size() {
		c.mu.Unlock()
		return e.text, nil
	}
	c.mu.Unlock()
	txt, err := tsls.ReadText(path)
	if err != nil {
		return nil, err
	}
	size := int64(txt.Len())
	c.mu.Lock()
	if old := c.m[path]; old != nil {
		c.bytes -= int64(old.text.Len())
		delete(c.m, path)
	}
	if c.m == nil || len(c.m) >= maxCachedFiles || c.bytes+size > maxCachedBytes {
		c.m, c.bytes = map[string]*cachedText{}, 0 // crude bound; refilled on demand
	}
	if size <= maxCachedBytes {
		c.m[path] = &cachedText{mtime: st.ModTime(), size: st.Size(), text: txt}
		c.bytes += size
	}
	c.mu.Unlock()
	return txt, nil
}

// pathClass says what kind of code a declaration's file holds.
type pathClass struct {
	external bool   // node_modules, .d.ts, default library
	lib      bool   // TypeScript's default library (lib.*.d.ts)
	pkg      string // npm package name for node_modules files
}

var (
	libFile = regexp.MustCompile(`^lib(\.[a-z0-9_.-]+)?\.d\.ts$`)
	// .d.ts, .d.mts, .d.cts and arbitrary-extension declarations (.d.css.ts).
	declFile = regexp.MustCompile(`\.d\.([^/]+\.)?[mc]?ts$`)
)

func isDeclarationFile(p string) bool { return declFile.MatchString(strings.ToLower(p)) }

// classify decides whether path is user code. Declaration files and
// anything under node_modules are external; TypeScript's own lib files are
// additionally "lib" (never listed as types or callees).
func classify(root, path string) pathClass {
	if strings.Contains(path, "://") {
		// A non-file URI: tsgo can serve its bundled libraries this way.
		return pathClass{external: true, lib: true, pkg: "typescript"}
	}
	slash := filepath.ToSlash(path)
	var pc pathClass
	if i := strings.LastIndex(slash, "/node_modules/"); i >= 0 {
		pc.external = true
		rest := slash[i+len("/node_modules/"):]
		parts := strings.SplitN(rest, "/", 3)
		if strings.HasPrefix(parts[0], "@") && len(parts) > 1 {
			pc.pkg = parts[0] + "/" + parts[1]
		} else {
			pc.pkg = parts[0]
		}
	}
	if isDeclarationFile(slash) {
		pc.external = true
	}
	base := filepath.Base(path)
	if libFile.MatchString(base) && (!within(root, path) || strings.Contains(slash, "/typescript") || strings.Contains(slash, "/@typescript/")) {
		pc.external, pc.lib, pc.pkg = true, true, "typescript"
	}
	return pc
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// relPath renders path for output: relative to root with "/", the base name
// for TypeScript's default library (its install location is machine
// specific), and the path itself for other files outside the root.
func relPath(root, path string) string {
	pc := classify(root, path)
	if pc.lib {
		return filepath.Base(path)
	}
	if rel, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}
