package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/scry-dev/scry/internal/snapshot"
	"github.com/scry-dev/scry/internal/testkit"
)

func TestParsedFilesFollowTheDisk(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "a.ts")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("const limit = 3\nexport function check(n: number): boolean {\n  return n < limit\n}\n")
	var p parsedFiles
	defer p.close()
	target := []snapshot.Target{{StartLine: 2, EndLine: 4}}

	// Concurrent first uses parse once and give the same snapshot.
	var wg sync.WaitGroup
	texts := make([]string, 8)
	errs := make([]error, 8)
	for i := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts[i], errs[i] = p.build("a.ts", abs, os.ReadFile, target)
		}()
	}
	wg.Wait()
	for i := range texts {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if texts[i] != texts[0] || !strings.Contains(texts[0], "const limit = 3") {
			t.Fatalf("snapshot %d = %q, first %q", i, texts[i], texts[0])
		}
	}
	if n := len(p.entries); n != 1 {
		t.Errorf("%d entries after concurrent first uses, want 1", n)
	}

	// An edit (new size) is parsed again.
	write("const limit = 30\nexport function check(n: number): boolean {\n  return n < limit\n}\n")
	if text, err := p.build("a.ts", abs, os.ReadFile, target); err != nil || !strings.Contains(text, "const limit = 30") {
		t.Errorf("after an edit: %q, %v", text, err)
	}

	// A deleted file is an error, and not remembered as one.
	if err := os.Remove(abs); err != nil {
		t.Fatal(err)
	}
	if _, err := p.build("a.ts", abs, os.ReadFile, target); err == nil {
		t.Error("a deleted file built without error")
	}
	write("const limit = 4\nexport function check(n: number): boolean {\n  return n < limit\n}\n")
	if text, err := p.build("a.ts", abs, os.ReadFile, target); err != nil || !strings.Contains(text, "const limit = 4") {
		t.Errorf("after re-creating the file: %q, %v", text, err)
	}
}

// TestParsedFilesBoundedInBytes: many large files parsed in turn used to
// stay cached up to the entry bound, whatever their size.
func TestParsedFilesBoundedInBytes(t *testing.T) {
	testkit.SetFor(t, &maxParsedBytes, 64<<10)
	dir := t.TempDir()
	var p parsedFiles
	defer p.close()
	body := strings.Repeat("export function f(n: number): number {\n  return n + 1\n}\n", 300) // ~16 KB
	for i := range 20 {
		name := fmt.Sprintf("f%d.ts", i)
		abs := filepath.Join(dir, name)
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := p.build(name, abs, os.ReadFile, []snapshot.Target{{StartLine: 1, EndLine: 3}}); err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		var held int64
		for _, e := range p.entries {
			held += e.size
		}
		n := len(p.entries)
		p.mu.Unlock()
		if held > maxParsedBytes {
			t.Fatalf("after %d files the cache holds %d files, %d bytes of source (bound %d)", i+1, n, held, maxParsedBytes)
		}
	}
}
