package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// TestStructureStaysInRoot is issue 18 item 3 as a user sees it: a
// workspace tsconfig.json including ../outside must not make `scry refs`,
// `callers`, `impls` or `def` print lines of the files there.
func TestStructureStaysInRoot(t *testing.T) {
	tslstest.Binary(t) // skips (or fails under CI) without TypeScript 7
	base := t.TempDir()
	root := filepath.Join(base, "root")
	files := map[string]string{
		"root/tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src/**/*.ts", "../outside/**/*.ts"]}`,
		"root/src/api.ts":    "export function shared(x: number): number { return x + 1; }\nexport class Base { id = 1; }\n",
		"root/src/use.ts":    "import { shared } from './api';\nimport { outsideHelper } from '../../outside/secret';\nexport function caller(): number { return shared(1) + outsideHelper(); }\n",
		"outside/secret.ts": "import { shared, Base } from '../root/src/api';\nexport const SECRET_TOKEN = shared(41);\n" +
			"export class SecretSubclass extends Base {}\nexport function outsideHelper(): number { return shared(2); }\n",
	}
	testkit.WriteTree(t, base, files)
	idx := filepath.Join(t.TempDir(), "index.db")
	tests := []struct {
		args   []string
		inRoot string // proof the answer came from the compiler at all
	}{
		{[]string{"refs", "shared"}, "use.ts"},
		{[]string{"callers", "shared"}, "caller"},
		{[]string{"impls", "Base"}, ""},
		{[]string{"calls", "caller"}, "shared"},
		{[]string{"info", "caller"}, "caller"},
	}
	for _, tt := range tests {
		out := mustScry(t, append(tt.args, "--root", root, "--index", idx)...)
		for _, leak := range []string{"SECRET_TOKEN", "SecretSubclass", "outside/secret", "shared(41)", "shared(2)"} {
			if strings.Contains(out, leak) {
				t.Errorf("%v prints %q from outside the root:\n%s", tt.args, leak, out)
			}
		}
		if !strings.Contains(out, tt.inRoot) {
			t.Errorf("%v lacks %q:\n%s", tt.args, tt.inRoot, out)
		}
	}
}

// TestChunksConfinedToRoot: `scry chunks` takes its paths like every other
// path argument, inside the workspace root, and reads files through it: a
// path outside, a `..` path and a link out of the root are refused with an
// error naming the root, and nothing of the outside file is printed.
func TestChunksConfinedToRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, outside, map[string]string{"secret.ts": "export function outsideSecret() { return 42; }\n"})
	testkit.WriteTree(t, root, map[string]string{"a.ts": "export function inside() {}\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.ts"), filepath.Join(root, "link.ts")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, filepath.Join(outside, "secret.ts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{filepath.Join(outside, "secret.ts"), outside, rel, "link.ts"} {
		for _, extra := range [][]string{nil, {"--stats"}, {"--json"}} {
			args := append(append([]string{"chunks", "--root", root}, extra...), arg)
			out, err := runScry(t, args...)
			if err == nil || !strings.Contains(err.Error(), "outside the workspace root") {
				t.Errorf("%v: error %v, want a refusal naming the root", args, err)
			}
			if strings.Contains(out, "outsideSecret") {
				t.Errorf("%v printed the outside file:\n%s", args, out)
			}
		}
	}
	out, err := runScry(t, "chunks", "--root", root, root)
	if err != nil || !strings.Contains(out, "inside") {
		t.Errorf("chunks of the root itself: %v\n%s", err, out)
	}
}
