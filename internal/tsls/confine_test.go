package tsls_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// confineTree is a workspace under root/ whose tsconfig.json includes
// files outside it, under outside/.
var confineTree = map[string]string{
	"root/tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src/**/*.ts", "../outside/**/*.ts"]}`,
	"root/src/api.ts": "export function shared(x: number): number { return x + 1; }\n" +
		"export class Base { id = 1; }\n",
	"root/src/use.ts": "import { shared } from './api';\n" +
		"import { outsideHelper } from '../../outside/secret';\n" +
		"export function caller(): number { return shared(1) + outsideHelper(); }\n" +
		"export const list: Array<number> = [];\n",
	"outside/secret.ts": "import { shared, Base } from '../root/src/api';\n" +
		"export const SECRET_TOKEN = shared(41);\n" +
		"export class LeakedSecret extends Base {}\n" +
		"export function outsideHelper(): number { return shared(2); }\n",
	"outside/linked.ts": "import { shared } from '../root/src/api';\nexport const SECRET_VIA_LINK = shared(3);\n",
	// Inside the root, but its name would forge a line of the answer.
	"root/src/x\napi.ts:1: FORGED.ts": "import { shared } from './api';\nexport const forged = shared(4);\n",
}

// TestAnswersConfinedToRoot is issue 18 item 3: a workspace tsconfig.json
// that includes ../outside pulls files outside the root into the program.
// No answer may point at them (scry would print their lines), while
// in-root answers and TypeScript's own library stay.
func TestAnswersConfinedToRoot(t *testing.T) {
	base := testkit.Tree(t, confineTree)
	root := filepath.Join(base, "root")
	// A symlink inside the root to a file outside it: its real file is
	// outside, whatever name the compiler reports.
	if err := os.Symlink(filepath.Join(base, "outside", "linked.ts"), filepath.Join(root, "src", "linked.ts")); err != nil {
		t.Fatal(err)
	}
	api := filepath.Join(root, "src", "api.ts")
	use := filepath.Join(root, "src", "use.ts")
	srv := start(t, root, tsls.Options{WarmFile: use})
	ctx := context.Background()
	libDir := filepath.Dir(mustReal(t, tslstest.Binary(t)))

	// Every answer must point inside the root or at TypeScript's library.
	check := func(what string, uris []string, wantSome bool) {
		t.Helper()
		if wantSome && len(uris) == 0 {
			t.Errorf("%s: no answer at all (the in-root part is lost)", what)
		}
		for _, u := range uris {
			if strings.Contains(tsls.URIToPath(u), "FORGED") {
				t.Errorf("%s: answer names a file whose name forges lines: %q", what, u)
			}
			real := mustReal(t, tsls.URIToPath(u))
			rel, err := filepath.Rel(root, real)
			inRoot := err == nil && !strings.HasPrefix(rel, "..")
			if !inRoot && filepath.Dir(real) != libDir {
				t.Errorf("%s: answer outside the root: %s", what, u)
			}
		}
	}
	// locURIs takes a location request's answer whole, so that each
	// request below is one line.
	locURIs := func(locs []tsls.Location, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return each(locs, func(l tsls.Location) string { return l.URI })
	}

	sharedPos := at(t, api, "shared", 0)
	check("references(shared)", locURIs(srv.References(ctx, api, sharedPos, true)), true)
	outside := locURIs(srv.Definition(ctx, use, at(t, use, "outsideHelper()", 0)))
	check("definition(outsideHelper)", outside, false)
	if len(outside) != 0 {
		t.Errorf("definition of an outside function: %q, want nothing", outside)
	}
	check("definition(Array)", locURIs(srv.Definition(ctx, use, at(t, use, "Array", 0))), true)
	check("implementation(Base)", locURIs(srv.Implementation(ctx, api, at(t, api, "Base", 0))), false)

	in, err := srv.IncomingCalls(ctx, hierarchyItem(t, srv, api, sharedPos, "shared"))
	if err != nil {
		t.Fatal(err)
	}
	check("incomingCalls(shared)", each(in, func(c tsls.IncomingCall) string { return c.From.URI }), true)

	out, err := srv.OutgoingCalls(ctx, hierarchyItem(t, srv, use, at(t, use, "caller", 0), "caller"))
	if err != nil {
		t.Fatal(err)
	}
	check("outgoingCalls(caller)", each(out, func(c tsls.OutgoingCall) string { return c.To.URI }), true)

	for _, q := range []string{"SECRET", "LeakedSecret", "outsideHelper"} {
		syms, err := srv.WorkspaceSymbol(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		check("workspace/symbol("+q+")", each(syms, func(s tsls.SymbolInformation) string { return s.Location.URI }), false)
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatalf("resolve %s: %v", p, err)
	}
	return r
}
