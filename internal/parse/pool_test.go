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

// Language gives the grammar of each language scry parses, and none for
// another; KindTable finds a named kind under its id and leaves the rest
// zero.
func TestLanguageAndKindTable(t *testing.T) {
	if _, ok := Language("python"); ok {
		t.Error("a grammar for python")
	}
	for _, lang := range []string{LangTypeScript, LangTSX, LangJavaScript} {
		l, ok := Language(lang)
		if !ok {
			t.Fatalf("no grammar for %s", lang)
		}
		kinds := KindTable(l, map[string]int{"identifier": 7})
		if len(kinds) != int(l.NodeKindCount()) {
			t.Fatalf("%s: %d kinds, want %d", lang, len(kinds), l.NodeKindCount())
		}
		found := 0
		for id, k := range kinds {
			switch {
			case k == 7 && l.NodeKindForId(uint16(id)) == "identifier":
				found++
			case k != 0:
				t.Errorf("%s: kind id %d (%s) is %d", lang, id, l.NodeKindForId(uint16(id)), k)
			}
		}
		if found == 0 {
			t.Errorf("%s: identifier not in the table", lang)
		}
	}
}
