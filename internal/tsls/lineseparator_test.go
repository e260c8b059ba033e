package tsls_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/tsls"
)

// TestLineSeparatorsAsTheCompilerCounts: U+2028 and U+2029 are line
// terminators to ECMAScript but not to the language server protocol. The
// compiler's positions count them as scry's lines (internal/lines) do —
// not at all — so a declaration after a comment holding both is on the
// same line for scry, the compiler and an editor.
func TestLineSeparatorsAsTheCompilerCounts(t *testing.T) {
	root := t.TempDir()
	src := "// a\u2028b\u2029c\nexport function target(): number { return 1; }\nexport const use = target();\n"
	if err := os.WriteFile(filepath.Join(root, "tsconfig.json"), []byte(`{"compilerOptions":{"noEmit":true},"include":["*.ts"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "a.ts")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, root, tsls.Options{WarmFile: p})
	defs, err := srv.Definition(context.Background(), p, at(t, p, "target()", 1))
	if err != nil {
		t.Fatal(err)
	}
	starts := lines.Starts([]byte(src))
	if want := lines.Of(starts, len("// a\u2028b\u2029c\n")) - 1; len(defs) != 1 || defs[0].Range.Start.Line != want {
		t.Errorf("definition of target: %+v, want one on line %d (0-based), as internal/lines counts", defs, want)
	}
}
