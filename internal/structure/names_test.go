package structure_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/tsls"
)

// An inferred return type is resolved by a workspace symbol search, which
// is cached across questions; a file created in between must be seen (here
// a second Widget makes the name ambiguous, so it becomes unresolved).
func TestTypeNameSearchFollowsFileChanges(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) string {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("tsconfig.json", `{"compilerOptions": {"strict": true}, "include": ["*.ts"]}`)
	write("widget.ts", "export interface Widget {\n  id: number\n}\nexport function build(): Widget {\n  return { id: 1 }\n}\n")
	write("factory.ts", "import { build } from './widget'\nexport function make() {\n  return build()\n}\n")
	srv := startServer(t, root)
	c := structure.NewCompiler(srv)
	ctx := context.Background()
	q := query{File: "factory.ts", Decl: "function make", Symbol: "make"}
	returns := func() structure.TypeRef {
		t.Helper()
		md, err := c.Metadata(ctx, targetOf(t, root, q), structure.Options{Sections: structure.SecTypeFlows | structure.SecSignature})
		if err != nil {
			t.Fatal(err)
		}
		if md.TypeFlows == nil || md.TypeFlows.Returns == nil || len(md.TypeFlows.Returns.Types) != 1 {
			t.Fatalf("type flows of make = %+v", md.TypeFlows)
		}
		return md.TypeFlows.Returns.Types[0]
	}
	if got := returns(); got.Unresolved || got.File != "widget.ts" || got.Line != 1 {
		t.Fatalf("make returns %+v, want Widget from widget.ts:1", got)
	}
	other := write("legacy.ts", "export interface Widget {\n  name: string\n}\n")
	if err := srv.NotifyFileEvents(ctx, []tsls.FileEvent{{Path: other, Type: tsls.FileCreated}}); err != nil {
		t.Fatal(err)
	}
	if got := returns(); !got.Unresolved {
		t.Errorf("with two Widget declarations, make returns %+v, want unresolved", got)
	}
}
