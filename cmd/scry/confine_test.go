package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	for rel, src := range files {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
		out, err := runScry(t, append(tt.args, "--root", root, "--index", idx)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", tt.args, err, out)
		}
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
