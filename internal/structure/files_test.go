package structure

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileCacheBoundedInBytes: the file cache used to hold up to 4,096
// files whatever their size.
func TestFileCacheBoundedInBytes(t *testing.T) {
	defer func(n int64) { maxCachedBytes = n }(maxCachedBytes)
	maxCachedBytes = 64 << 10
	dir := t.TempDir()
	text := strings.Repeat("export const x = 1\n", 1000) // 19 KB
	var c fileCache
	for i := range 20 {
		p := filepath.Join(dir, fmt.Sprintf("f%d.ts", i))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := c.get(p); err != nil {
			t.Fatal(err)
		}
		var held int64
		for _, e := range c.m {
			held += int64(e.text.Len())
		}
		if held > maxCachedBytes {
			t.Fatalf("after %d files the cache holds %d bytes (bound %d)", i+1, held, maxCachedBytes)
		}
	}
	// Still a cache: the last file is served without a read.
	p := filepath.Join(dir, "f19.ts")
	a, _ := c.get(p)
	b, _ := c.get(p)
	if a != b {
		t.Error("the same unchanged file was read twice")
	}
}
