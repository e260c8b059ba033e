package parse

import (
	"runtime"
	"testing"
)

// TestParsersAreNotLeakedByCollections: parsers are C memory the collector
// cannot free. A sync.Pool dropped its parsers at every collection without
// closing them, so every parse after a collection made (and leaked) a new
// one; the pool now keeps them across collections.
func TestParsersAreNotLeakedByCollections(t *testing.T) {
	src := []byte("export function f(n: number): number {\n  return n + 1\n}\n")
	if _, err := Parse("a.ts", src, ""); err != nil {
		t.Fatal(err)
	}
	before := parsersMade.Load()
	for range 20 {
		runtime.GC()
		runtime.GC()
		if _, err := Parse("a.ts", src, ""); err != nil {
			t.Fatal(err)
		}
	}
	if made := parsersMade.Load() - before; made > 0 {
		t.Fatalf("%d parsers made for 20 sequential parses separated by collections, want 0", made)
	}
}
