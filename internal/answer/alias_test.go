//go:build unix

package answer_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
)

// TestAliasPathsAgree: a path through a symlink inside the root (lib → src,
// alias.ts → a.ts) names the file it leads to. find_definition reads the
// file and always followed the link; the tools that look the path up in
// the index (list_symbols, a symbol path's file, find_importers) used the
// link's own name, which the index does not hold, and failed.
func TestAliasPathsAgree(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/a.ts", "export function add(a: number) {\n  return a + 1;\n}\n")
	write("src/b.ts", "import { add } from './a';\nexport const two = add(1);\n")
	if err := os.Symlink("src", filepath.Join(root, "lib")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.ts", filepath.Join(root, "src", "alias.ts")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e := openIndexed(t, root, engine.Options{})

	for _, path := range []string{"src/a.ts", "lib/a.ts", "src/alias.ts", "lib/alias.ts", filepath.Join(root, "lib", "a.ts")} {
		t.Run(path, func(t *testing.T) {
			def, err := reads(e).Definition(ctx, path, 1, 17)
			if err != nil || len(def.Found) == 0 || def.Found[0].File != "src/a.ts" {
				t.Errorf("find_definition: %+v, %v; want add in src/a.ts", def.Found, err)
			}
			o, err := reads(e).Outline(path, nil)
			if err != nil {
				t.Fatalf("list_symbols: %v", err)
			}
			if len(o.Files) != 1 || o.Files[0].Path != "src/a.ts" || len(o.Files[0].Symbols) == 0 || o.Files[0].Symbols[0].Name != "add" {
				t.Errorf("list_symbols: %+v, want add in src/a.ts", o)
			}
			syms, err := reads(e).Symbols(path + " > add")
			if err != nil || len(syms) != 1 {
				t.Errorf("symbol path %q > add: %d symbols, %v; want 1", path, len(syms), err)
			}
			imps, err := reads(e).Importers(context.Background(), path)
			if err != nil || len(imps) != 1 || imps[0].File != "src/b.ts" {
				t.Errorf("find_importers: %+v, %v; want the import in src/b.ts", imps, err)
			}
		})
	}
	o, err := reads(e).Outline("lib", nil)
	if err != nil || len(o.Files) != 2 {
		t.Errorf("list_symbols of the linked directory: %+v, %v; want its two files", o, err)
	}
}
