package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

// The set-ups this package's tests share: the command run in process, and
// a workspace served to CLI calls as `scry serve` serves it.

// runScry runs scry with args and returns what it printed (stdout and
// stderr together) and its error.
func runScry(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runScryWith(t, "", args...)
}

// mustScry is runScry for a call that must succeed: an error fails the
// test, with what the command printed.
func mustScry(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runScry(t, args...)
	if err != nil {
		t.Fatalf("scry %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// runScryWith is runScry with stdin as the command's input.
func runScryWith(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// shortCache gives the test its own scry cache at a short path: a running
// server's socket lives there, and a socket's path must fit 104 bytes.
func shortCache(t *testing.T) string {
	t.Helper()
	cache := testkit.ShortDir(t)
	t.Setenv("SCRY_CACHE_DIR", cache)
	return cache
}

// serveWorkspace opens root with its own index, synced, and answers CLI
// calls for it as `scry serve` does. It returns the engine and a stop that
// ends the server and waits for it (run when the test ends if not before).
func serveWorkspace(t *testing.T, root string, compiler engine.CompilerMode) (*engine.Engine, func()) {
	t.Helper()
	e, err := engine.Open(context.Background(), engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "server.db"), Sync: true,
		Compiler: compiler})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	stopped := serveLocal(ctx, &cobra.Command{}, e)
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-stopped }) }
	t.Cleanup(stop)
	return e, stop
}
