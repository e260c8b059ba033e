package answer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/structure"
)

// A file created between two questions must be among the references the
// compiler reports after the next sync, with a tsconfig.json (its project
// re-reads its file list only for files reported as created) and without
// one (the engine's program of ungoverned files grows).
func TestReferencesFollowCreatedFiles(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tsconfig string
	}{
		{"tsconfig", `{"compilerOptions": {"strict": true}, "include": ["src"]}`},
		{"no tsconfig", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(rel, text string) {
				t.Helper()
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.tsconfig != "" {
				write("tsconfig.json", tc.tsconfig)
			}
			write("src/crypto/hmac.ts", "export function hmac(key: string): string {\n  return key + '!'\n}\n")
			write("src/api/sign.ts", "import { hmac } from '../crypto/hmac'\nexport function sign(): string {\n  return hmac('a')\n}\n")
			e := openCompiled(t, root, engine.Options{Warn: func(err error) { t.Errorf("open: %v", err) }})
			ctx := context.Background()

			refs := func() string {
				t.Helper()
				cs, err := reads(e).Store.ChunksByName("hmac")
				if err != nil || len(cs) != 1 {
					t.Fatalf("chunks named hmac: %v, %v", cs, err)
				}
				md, err := answer.MetadataOf(reads(e), ctx, cs[0], structure.Options{Sections: structure.SecReferences})
				if err != nil {
					t.Fatal(err)
				}
				if md.Approximate || md.References == nil {
					t.Fatalf("references not from the compiler: %+v", md)
				}
				return strings.Join(md.References.Files, " ")
			}
			if got, want := refs(), "src/api/sign.ts"; got != want {
				t.Fatalf("references before = %q, want %q", got, want)
			}
			write("src/jobs/rotate.ts", "import { hmac } from '../crypto/hmac'\nexport const rotate = () => hmac('r')\n")
			if _, err := e.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := refs(), "src/api/sign.ts src/jobs/rotate.ts"; got != want {
				t.Errorf("references after creating rotate.ts = %q, want %q", got, want)
			}
		})
	}
}

// A callback has no name to ask the compiler about: its structure comes
// from the index and says so, while named symbols come from the compiler.
func TestCallbackStructureSaysWhyItIsApproximate(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true}}`,
		"jobs.ts":       "export function schedule(run: () => void): void {\n  run()\n}\nexport function start(): void {\n  schedule(() => {\n    console.log('tick')\n    start()\n  })\n}\n",
	}
	for rel, text := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := openCompiled(t, root, engine.Options{Warn: func(err error) { t.Errorf("open: %v", err) }})
	ctx := context.Background()
	cs, err := reads(e).Store.ChunksByFile("jobs.ts")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range cs {
		md, err := answer.MetadataOf(reads(e), ctx, c, structure.Options{})
		if err != nil {
			t.Fatal(err)
		}
		kinds[c.NodeKind] = true
		switch c.NodeKind {
		case "callback":
			if !md.Approximate || len(md.Notes) == 0 || !strings.Contains(md.Notes[0], "anonymous function") {
				t.Errorf("callback %q: approximate %v, notes %q", c.Name, md.Approximate, md.Notes)
			}
		case "function":
			if md.Approximate {
				t.Errorf("function %s: approximate, notes %q", c.Name, md.Notes)
			}
		}
	}
	if !kinds["callback"] || !kinds["function"] {
		t.Fatalf("chunk kinds %v: want a callback and functions", kinds)
	}
}
