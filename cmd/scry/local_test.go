package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestCLICallUsesServer serves a workspace as `scry serve` does and runs
// CLI commands for it: while the server runs they are answered by its
// engine (the CLI opens no index of its own), with the same text; a call
// with other SCRY_* settings, SCRY_NO_SERVER, or no server at all answers
// itself.
func TestCLICallUsesServer(t *testing.T) {
	cache := shortCache(t)
	root := testkit.Fixture(t, "project")
	e, stop := serveWorkspace(t, root, engine.CompilerWait) // as the CLI opens it: with TypeScript 7 when it is found
	ctx := context.Background()

	ownIndex := func() bool {
		_, err := os.Stat(filepath.Join(cache, "indexes"))
		return err == nil
	}
	// A command that changes things is not run for a CLI call.
	if code := run(e)(ctx, []string{"serve"}, &strings.Builder{}, &strings.Builder{}); code != 2 {
		t.Errorf("serve run for a CLI call: status %d, want 2", code)
	}
	want := "TokenService — src/auth/tokenService.ts:7"
	for _, args := range [][]string{
		{"refs", "--root", root, "TokenService"},
		{"refs", "--root", root, "--json", "TokenService"},
		{"search", "--root", root, "symbol = TokenService"},
		{"importers", "--root", root, "src/auth/tokenService.ts"},
	} {
		out := mustScry(t, args...)
		if !strings.Contains(out, "TokenService") && !strings.Contains(out, "src/") {
			t.Errorf("%v: unexpected answer:\n%s", args, out)
		}
		if ownIndex() {
			t.Fatalf("%v opened an index of its own while a server answers for the workspace", args)
		}
	}
	if out, err := runScry(t, "doctor", "--root", root); err != nil || !strings.Contains(out, "as seen by the running `scry serve`") || ownIndex() {
		t.Errorf("doctor was not answered by the server (%v):\n%s", err, out)
	}
	served, err := runScry(t, "refs", "--root", root, "TokenService")
	if err != nil || !strings.Contains(served, want) {
		t.Fatalf("refs through the server: %v\n%s", err, served)
	}
	// A flag that changes the configuration: the call answers itself.
	if out, err := runScry(t, "search", "--root", root, "--budget", "3000", "symbol = TokenService"); err != nil || !ownIndex() {
		t.Errorf("search --budget was sent to the server (or failed: %v)\n%s", err, out)
	}
	os.RemoveAll(filepath.Join(cache, "indexes"))
	t.Setenv("SCRY_BUDGET", "3000")
	if out, err := runScry(t, "refs", "--root", root, "TokenService"); err != nil || !strings.Contains(out, want) || !ownIndex() {
		t.Errorf("a call with other SCRY_* settings was answered by the server (or failed: %v)\n%s", err, out)
	}
	os.Unsetenv("SCRY_BUDGET")
	os.RemoveAll(filepath.Join(cache, "indexes"))
	t.Setenv(noServerEnv, "1")
	if local, err := runScry(t, "refs", "--root", root, "TokenService"); err != nil || !ownIndex() {
		t.Errorf("SCRY_NO_SERVER did not make the call answer itself (%v)", err)
	} else if answer(local) != answer(served) {
		t.Errorf("the server's answer differs from the CLI's own:\n%s\nCLI:\n%s", served, local)
	}
	os.Unsetenv(noServerEnv)
	os.RemoveAll(filepath.Join(cache, "indexes"))
	stop()
	out, err := runScry(t, "refs", "--root", root, "TokenService")
	if err != nil || !strings.Contains(out, want) || !ownIndex() {
		t.Errorf("with the server gone: %v\n%s", err, out)
	}
}

// answer is the output without the notes on stderr ("scry: ..." lines),
// which say how each process came by its engine.
func answer(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "scry: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
