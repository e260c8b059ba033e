package chunkcheck_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkcheck"
	"github.com/scry-dev/scry/internal/parse"
)

// FuzzParseChunk feeds arbitrary bytes through parse and chunk: nothing may
// panic, and the structural rules — coverage, no overlap, source fidelity,
// hierarchy, breadcrumbs — must hold on any input, however broken.
func FuzzParseChunk(f *testing.F) {
	fixtures, _ := filepath.Glob("../../testdata/fixtures/*.ts*")
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint8(0))
		}
	}
	f.Add([]byte("class A { m() { return [1, 2 }\nexport const x = 1\n"), uint8(1))
	f.Add([]byte("interface P<in out T> {\n  a: T\n}\n"), uint8(0))
	f.Add([]byte("\r\n\r\nfunction f(){\r\n}\r\n"), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, langSel uint8) {
		name := [...]string{"f.ts", "f.js", "f.tsx"}[int(langSel)%3]
		pf, err := parse.Parse(name, src, "")
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		chunks := chunk.File(pf, "/ws/"+name, name)
		for _, v := range chunkcheck.Check(name, src, chunks) {
			switch v.Rule {
			case chunkcheck.RuleCoverage, chunkcheck.RuleOverlap, chunkcheck.RuleFidelity, chunkcheck.RuleHierarchy, chunkcheck.RuleBreadcrumb:
				t.Errorf("%s", v)
			}
		}
	})
}
