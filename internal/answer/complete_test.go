package answer_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// TestDeclarationsSharingALine: two declarations on one line are one chunk
// (siblings never share a line), yet each is found by its name, with its
// own kind, and answers info and references, from either source.
func TestDeclarationsSharingALine(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true}}`,
		"x.ts":          "export const a = 1; export function sameLine(): number { return a; }\n",
		"y.ts":          "import { sameLine } from './x';\nexport const v = sameLine();\n",
	})
	ctx := context.Background()
	bothSources(t, root, func(t *testing.T, e *engine.Engine, approximate bool) {
		sym := theSymbol(t, e, "sameLine")
		if d := sym.Declaration; d.Name != "sameLine" || d.Kind != "function" || d.Line != 1 {
			t.Errorf("declaration = %+v, want function sameLine on line 1", d)
		}
		refs, err := reads(e).References(ctx, sym, 0)
		if err != nil {
			t.Fatal(err)
		}
		var inY int
		for _, s := range refs.Sites {
			if s.File == "y.ts" {
				inY++
			}
		}
		if inY != 2 {
			t.Errorf("references in y.ts = %d, want the import and the call: %+v", inY, refs.Sites)
		}
		info, err := reads(e).Info(ctx, sym, 1)
		if err != nil {
			t.Fatal(err)
		}
		if info.Structure.Approximate != approximate || !approximate && len(info.Structure.CalledBy) != 1 {
			t.Errorf("info: approximate %v, called by %+v", info.Structure.Approximate, info.Structure.CalledBy)
		}
		found, err := reads(e).FindSymbols(ctx, answer.SymbolQuery{Name: "sameLine", Kinds: []string{"function"}})
		if err != nil || len(found) != 1 || found[0].Name != "sameLine" {
			t.Errorf("find symbol sameLine = %+v, %v", found, err)
		}
	})
}

// TestAnswersSayWhyWhileTheCompilerStarts: while TypeScript 7 loads (here
// one that never answers), answers come from the index marked approximate
// and say the compiler is still loading, not merely "unavailable"; once
// its start has failed (within a request's timeout), they say that and
// why.
func TestAnswersSayWhyWhileTheCompilerStarts(t *testing.T) {
	bin := tslstest.Silent(t)
	root := testkit.Tree(t, map[string]string{
		"a.ts": "export function helper(): number { return 1; }\n",
		"b.ts": "import { helper } from './a';\nexport const v = helper();\n",
	})
	ctx := context.Background()
	// compilerWait 0: questions do not wait for the loading compiler
	// (TestWarmupAnswersAgree covers the wait), so they are answered
	// during the start.
	e := openIndexed(t, root, withTSGo(bin, engine.CompilerBackground, 0))
	sym := theSymbol(t, e, "helper")
	refs, err := reads(e).References(ctx, sym, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !refs.Approximate || !strings.Contains(refs.Reason, "still loading") {
		t.Errorf("during the start: approximate %v, reason %q", refs.Approximate, refs.Reason)
	}
	if text := render.References(refs); !strings.Contains(text, "TypeScript 7 is still loading the project") {
		t.Errorf("the answer does not say why:\n%s", text)
	}
	// The start fails when initialize goes unanswered (10 s); answers then
	// say it did not start, and why.
	for !strings.Contains(refs.Reason, "did not start") {
		time.Sleep(100 * time.Millisecond)
		if refs, err = reads(e).References(ctx, sym, 0); err != nil {
			t.Fatal(err)
		}
	}
	if !refs.Approximate || !strings.Contains(refs.Reason, "initialize") {
		t.Errorf("after the failed start: approximate %v, reason %q", refs.Approximate, refs.Reason)
	}
	tree, err := reads(e).Callers(ctx, sym, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !tree.Approximate || !strings.Contains(render.CallTree(tree), "did not start") {
		t.Errorf("callers do not say why:\n%s", render.CallTree(tree))
	}
}

// TestImportersThroughAliasesAndBarrels: in a monorepo a file is imported
// through a tsconfig paths alias, through its package's name, and through
// a barrel's `export *`; every importer is listed and says which way it
// reaches the file.
func TestImportersThroughAliasesAndBarrels(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"tsconfig.json": `{
  // comments and trailing commas, as tsconfig.json allows
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@scope/pkg/*": ["packages/pkg/src/*"], },
  },
}`,
		"packages/pkg/package.json":        `{"name": "@scope/pkg", "version": "1.0.0"}`,
		"packages/pkg/src/data/restore.ts": "export function restoreElement(): number { return 1; }\n",
		"packages/pkg/src/binding.ts":      "export function updateBoundElements(): number { return 2; }\nexport const unrelated = 3;\n",
		"packages/pkg/src/index.ts":        "export * from './binding';\nexport { restoreElement } from './data/restore';\n",
		"packages/pkg/src/inner.ts":        "import { updateBoundElements } from './binding';\nexport const i = updateBoundElements();\n",
		"app/a.ts":                         "import { restoreElement } from '@scope/pkg/data/restore';\nexport const a = restoreElement();\n",
		"app/b.ts":                         "import { restoreElement } from '../packages/pkg/src/data/restore';\nexport const b = restoreElement();\n",
		"app/c.ts":                         "import { updateBoundElements } from '@scope/pkg';\nexport const c = updateBoundElements();\n",
		"app/d.ts":                         "import { updateBoundElements } from '../packages/pkg/src';\nexport const d = updateBoundElements();\n",
		"app/e.ts":                         "import { unrelated } from '@scope/pkg';\nexport const e = unrelated;\n",
		"app/f.ts":                         "import { restoreElement } from '@scope/pkg';\nexport const f = restoreElement();\n",
	})
	e := openIndexed(t, root, engine.Options{})
	for target, imps := range wantImporters(t, e, []importersCase{
		{"packages/pkg/src/data/restore.ts", []string{
			"app/a.ts (the tsconfig paths alias @scope/pkg/*)",
			"app/b.ts ()",
			"app/f.ts (the barrel packages/pkg/src/index.ts (through the workspace package @scope/pkg))",
			"packages/pkg/src/index.ts ()",
		}},
		{"updateBoundElements", []string{
			"app/c.ts (the barrel packages/pkg/src/index.ts (through the workspace package @scope/pkg))",
			"app/d.ts (the barrel packages/pkg/src/index.ts)",
			"packages/pkg/src/index.ts ()",
			"packages/pkg/src/inner.ts ()",
		}},
	}) {
		if text := render.Importers(target, imps); !strings.Contains(text, "(via the barrel packages/pkg/src/index.ts") {
			t.Errorf("importers %s do not say how they reach it:\n%s", target, text)
		}
	}
}

// TestImportersThroughPackageExports: a workspace package says in its
// package.json `exports` which file each subpath is (a pattern, a plain
// subpath with conditions, its root); importers written against those
// subpaths are listed, saying which key of the map they went through; a
// subpath the map excludes (null) reaches nothing.
func TestImportersThroughPackageExports(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"packages/ui/package.json": `{"name": "@scope/ui", "exports": {
  ".": {"types": "./lib/entry.ts", "default": "./dist/entry.js"},
  "./feature": {"types": "./dist/feature.d.ts", "import": "./lib/feature/main.ts", "require": "./dist/feature.cjs"},
  "./*": "./lib/*.ts",
  "./internal/*": null
}}`,
		"packages/ui/lib/button.ts":       "export function button(): number { return 1; }\n",
		"packages/ui/lib/feature/main.ts": "export function feature(): number { return 2; }\n",
		"packages/ui/lib/entry.ts":        "export * from './feature/main';\n",
		"packages/ui/lib/internal/x.ts":   "export const hidden = 4;\n",
		"packages/util/package.json":      `{"name": "util", "exports": "./src/main.ts"}`,
		"packages/util/src/main.ts":       "export const util = 3;\n",
		"app/a.ts":                        "import { button } from '@scope/ui/button';\nexport const a = button();\n",
		"app/b.ts":                        "import { feature } from '@scope/ui/feature';\nexport const b = feature();\n",
		"app/c.ts":                        "import { feature } from '@scope/ui';\nexport const c = feature();\n",
		"app/d.ts":                        "import { util } from 'util';\nexport const d = util;\n",
		// Excluded by its null entry: TypeScript does not resolve it.
		"app/e.ts": "import { hidden } from '@scope/ui/internal/x';\nexport const e = hidden;\n",
	})
	wantImporters(t, openIndexed(t, root, engine.Options{}), []importersCase{
		{"packages/ui/lib/button.ts", []string{"app/a.ts (the package.json exports ./* of @scope/ui)"}},
		{"packages/ui/lib/feature/main.ts", []string{
			"app/b.ts (the package.json exports ./feature of @scope/ui)",
			"app/c.ts (the barrel packages/ui/lib/entry.ts (through the package.json exports . of @scope/ui))",
			"packages/ui/lib/entry.ts ()",
		}},
		{"packages/util/src/main.ts", []string{"app/d.ts (the package.json exports . of util)"}},
		{"packages/ui/lib/internal/x.ts", nil},
	})
}

// TestImportersWithTheCompiler: a tsconfig extending a shared config from
// node_modules gets its `paths` alias from there, which the index's
// resolver does not read (a package's files are not the workspace's);
// with TypeScript 7 running, the importer written against the alias is
// listed anyway, saying the compiler resolved it, and the others keep how
// they reach the file.
func TestImportersWithTheCompiler(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"node_modules/@company/tsconfig/package.json": `{"name": "@company/tsconfig", "version": "1.0.0"}`,
		"node_modules/@company/tsconfig/base.json":    `{"compilerOptions": {"strict": true, "paths": {"@app/*": ["${configDir}/src/*"]}}}`,
		"tsconfig.json":    `{"extends": "@company/tsconfig/base.json", "include": ["src/**/*"]}`,
		"src/lib/tools.ts": "export function helper(): number { return 1; }\nexport const other = 2;\n",
		"src/app.ts":       "import { helper } from '@app/lib/tools';\nexport const a = helper();\n",
		"src/near.ts":      "import { other } from './lib/tools';\nexport const n = other;\n",
		"src/unrelated.ts": "export const u = 3;\n",
	})
	ctx := context.Background()
	e := openCompiled(t, root, engine.Options{})
	for _, tc := range []struct {
		target string
		want   []string // file:line (via)
	}{
		{"src/lib/tools.ts", []string{"src/app.ts:1 (TypeScript 7's module resolution)", "src/near.ts:1 ()"}},
		{"helper", []string{"src/app.ts:1 (TypeScript 7's module resolution)"}},
	} {
		imps, err := reads(e).Importers(ctx, tc.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, im := range imps {
			got = append(got, fmt.Sprintf("%s:%d (%s)", im.File, im.Line, im.Via))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("importers %s:\n%s\nwant\n%s", tc.target, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestImportersListTheCodeFirst: a package's importers list the code's
// files, then the tests', then auxiliary code's (a package's 155
// importers in TanStack router began with benchmarks/).
func TestImportersListTheCodeFirst(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"benchmarks/run.ts":          "import { pad } from 'left-pad';\nexport const r = pad('a');\n",
		"src/__tests__/main.test.ts": "import { pad } from 'left-pad';\nexport const t = pad('b');\n",
		"src/main.ts":                "import { pad } from 'left-pad';\nexport const m = pad('c');\n",
	})
	imps, err := reads(openIndexed(t, root, engine.Options{})).Importers(context.Background(), "left-pad")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, im := range imps {
		got = append(got, im.File)
	}
	if want := []string{"src/main.ts", "src/__tests__/main.test.ts", "benchmarks/run.ts"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("importers of left-pad %v, want %v", got, want)
	}
}
