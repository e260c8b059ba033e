package answer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
)

// TestLoneCRLinesAsEditorsCount: in a file with lone "\r" line endings the
// engine's answers give the lines an editor shows — outline ranges, a
// usage's definition, references.
func TestLoneCRLinesAsEditorsCount(t *testing.T) {
	root := t.TempDir()
	src := strings.Join([]string{
		"export function add(x: number) {",
		"  return x + 1;",
		"}",
		"export const y = add(1);",
		"",
	}, "\r")
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e := openIndexed(t, root, engine.Options{})

	o, err := reads(e).Outline("a.ts", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range o.Files[0].Symbols {
		got = append(got, fmt.Sprintf("%s %d-%d", s.Name, s.StartLine, s.EndLine))
	}
	if want := "add 1-3, y 4-4"; strings.Join(got, ", ") != want {
		t.Errorf("outline %q, want %q", strings.Join(got, ", "), want)
	}
	// `add` in `export const y = add(1);`, line 4, column 18.
	def, err := reads(e).Definition(ctx, "a.ts", 4, 18)
	if err != nil || len(def.Found) != 1 || def.Found[0].Name != "add" || def.Found[0].Line != 1 {
		t.Errorf("definition at 4:18 = %+v, %v; want add at line 1", def, err)
	}
	sym := theSymbol(t, e, "add")
	refs, err := reads(e).References(ctx, sym, 0)
	if err != nil {
		t.Fatal(err)
	}
	var sites []string
	for _, s := range refs.Sites {
		sites = append(sites, fmt.Sprintf("%d:%s", s.Line, s.Context))
	}
	if got, want := strings.Join(sites, " "), "1:declaration 4:call"; got != want {
		t.Errorf("references of add: %s, want %s", got, want)
	}
}
