package structure_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/testkit"
)

func TestImplementationsAndDefinition(t *testing.T) {
	root := fixtureDir(t, "type-hierarchy")
	res := structure.NewCompiler(serverFor(t, root))
	ctx := context.Background()

	impls, err := res.Implementations(ctx, targetOf(t, root, query{File: "models.ts", Decl: "class BaseModel", Symbol: "BaseModel"}))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range impls {
		names = append(names, r.Name+"@"+r.File)
	}
	// Transitive, declarations only: not BaseModel itself.
	if got, want := strings.Join(names, " "), "AuditedModel@diamond.ts User@models.ts AdminUser@models.ts"; got != want {
		t.Errorf("Implementations(BaseModel) = %s, want %s", got, want)
	}

	// Definition through an import: `BaseModel` in diamond.ts's heritage.
	tg := targetOf(t, root, query{File: "diamond.ts", Decl: "extends BaseModel", Symbol: "BaseModel"})
	defs, err := res.Definition(ctx, tg.Position)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Name != "BaseModel" || defs[0].File != "models.ts" || defs[0].Line != 3 || !defs[0].IsAbstract || defs[0].Kind != "class" {
		t.Errorf("Definition = %+v", defs)
	}
}

// TestMetadataSeesEdits: an edit on disk to the target's file shows in the
// next answer, and edits elsewhere show once reported with FilesChanged.
func TestMetadataSeesEdits(t *testing.T) {
	root := t.TempDir()
	testkit.CopyTree(t, fixtureDir(t, "call-chain"), root)
	srv := startServer(t, root)
	res := structure.NewCompiler(srv)
	ctx := context.Background()
	q := query{File: "helper.ts", Decl: "function sanitize", Symbol: "sanitize"}
	md, err := res.Metadata(ctx, targetOf(t, root, q), structure.Options{Sections: structure.SecSignature | structure.SecIncoming})
	if err != nil {
		t.Fatal(err)
	}
	if len(md.IncomingCallers) != 2 {
		t.Fatalf("callers before edit: %+v", md.IncomingCallers)
	}

	touch := func(file, old, new string) {
		t.Helper()
		p := filepath.Join(root, file)
		b, _ := os.ReadFile(p)
		st, _ := os.Stat(p)
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		later := st.ModTime().Add(2 * time.Second)
		_ = os.Chtimes(p, later, later)
	}
	// The target's own file: noticed without being told.
	touch("helper.ts", "(input: string): string", "(input: string, limit = 10): string")
	md, err = res.Metadata(ctx, targetOf(t, root, q), structure.Options{Sections: structure.SecSignature})
	if err != nil {
		t.Fatal(err)
	}
	if md.Signature != "function sanitize(input: string, limit?: number): string" {
		t.Errorf("signature after edit = %q", md.Signature)
	}
	// A caller's file: reported by the index sync through FilesChanged.
	touch("formatter.ts", "sanitize(input)", "input")
	if err := srv.FilesChanged(ctx, filepath.Join(root, "formatter.ts")); err != nil {
		t.Fatal(err)
	}
	md, err = res.Metadata(ctx, targetOf(t, root, q), structure.Options{Sections: structure.SecIncoming})
	if err != nil {
		t.Fatal(err)
	}
	if len(md.IncomingCallers) != 1 || md.IncomingCallers[0].Name != "validate" {
		t.Errorf("callers after editing formatter.ts: %+v", md.IncomingCallers)
	}
}

// TestImplementationsOfAMergedClass: a class merged with a namespace of
// its name (apollo-client's ApolloLink: `export namespace ApolloLink {…}`
// beside `export class ApolloLink`) has its subclasses as implementations,
// not the namespace.
func TestImplementationsOfAMergedClass(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true},"include":["*.ts"]}`,
		"link.ts": "export namespace Link {\n  export interface Operation { name: string }\n}\n\n" +
			"export class Link {\n  request(op: Link.Operation): string {\n    return op.name\n  }\n}\n",
		"http.ts": "import { Link } from './link'\n\nexport class HttpLink extends Link {\n  request(op: Link.Operation): string {\n    return 'http ' + op.name\n  }\n}\n\n" +
			"export class RetryLink extends HttpLink {}\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	impls, err := res.Implementations(context.Background(), targetOf(t, root, query{File: "link.ts", Decl: "export class Link", Symbol: "Link"}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := implNames(impls), "class HttpLink@http.ts, class RetryLink@http.ts"; got != want {
		t.Errorf("Implementations(class Link) = %s, want %s", got, want)
	}
}

// TestImplementationsLeaveOutAliases: in JavaScript the compiler counts
// `var Runnable = require('./runnable')` among class Runnable's
// implementations (mocha's hook.js); it is the class under another
// binding, not a subclass. A value of the name that is built is kept.
func TestImplementationsLeaveOutAliases(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"jsconfig.json": `{"compilerOptions":{"checkJs":false},"include":["*.js"]}`,
		"runnable.js":   "class Runnable {\n  run() {\n    return 1;\n  }\n}\nmodule.exports = Runnable;\n",
		"hook.js":       "var Runnable = require('./runnable');\n\nclass Hook extends Runnable {\n  run() {\n    return 2;\n  }\n}\nmodule.exports = Hook;\n",
	})
	res := structure.NewCompiler(startServer(t, root))
	impls, err := res.Implementations(context.Background(), targetOf(t, root, query{File: "runnable.js", Decl: "class Runnable", Symbol: "Runnable"}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := implNames(impls), "class Hook@hook.js"; got != want {
		t.Errorf("Implementations(class Runnable) = %s, want %s", got, want)
	}
}

// implNames lists implementations as "kind name@file".
func implNames(impls []structure.SymbolRef) string {
	var names []string
	for _, r := range impls {
		names = append(names, r.Kind+" "+r.Name+"@"+r.File)
	}
	return strings.Join(names, ", ")
}
