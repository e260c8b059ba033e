package engine

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/scry-dev/scry/internal/snapshot"
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
			texts[i], errs[i] = p.build("a.ts", abs, target)
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
	if text, err := p.build("a.ts", abs, target); err != nil || !strings.Contains(text, "const limit = 30") {
		t.Errorf("after an edit: %q, %v", text, err)
	}

	// A deleted file is an error, and not remembered as one.
	if err := os.Remove(abs); err != nil {
		t.Fatal(err)
	}
	if _, err := p.build("a.ts", abs, target); err == nil {
		t.Error("a deleted file built without error")
	}
	write("const limit = 4\nexport function check(n: number): boolean {\n  return n < limit\n}\n")
	if text, err := p.build("a.ts", abs, target); err != nil || !strings.Contains(text, "const limit = 4") {
		t.Errorf("after re-creating the file: %q, %v", text, err)
	}
}
