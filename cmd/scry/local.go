package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// A CLI call answered by a running `scry serve` (engine.CallLocal): the
// serve process runs the same command line against its open engine, with
// its warm index and TypeScript server, and sends back what it printed.

// noServerEnv, when set, makes every CLI call answer itself.
const noServerEnv = "SCRY_NO_SERVER"

type servedKey struct{}

// withServed marks a command run inside `scry serve` for a CLI call: it
// uses the server's engine instead of opening one.
func withServed(ctx context.Context, e *engine.Engine) context.Context {
	return context.WithValue(ctx, servedKey{}, e)
}

func served(ctx context.Context) *engine.Engine {
	e, _ := ctx.Value(servedKey{}).(*engine.Engine)
	return e
}

// exitError is a failure already reported on stderr (by the server that
// ran the command): main exits with its status and prints nothing more.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// forwardable are the flags a call may carry to a server: they change only
// what the answer shows, never the configuration the server's engine was
// opened with (budget, threshold, file selection, models and the index
// file all do, so a call setting them answers itself).
var forwardable = map[string]bool{"root": true, "json": true, "depth": true, "path": true, "lang": true, "k": true}

// servable are the commands a running server answers for a CLI call.
var servable = map[string]bool{"search": true, "info": true, "refs": true, "calls": true, "callers": true,
	"impls": true, "def": true, "importers": true, "impact": true, "doctor": true}

// viaServer runs the command on a `scry serve` for the same workspace when
// one answers, and reports whether it did (with the command's error).
// args gives the positional arguments, rewritten for the root (called once
// the root is known).
func (w *workspaceFlags) viaServer(cmd *cobra.Command, args func() []string) (bool, error) {
	if served(cmd.Context()) != nil || os.Getenv(noServerEnv) != "" || !servable[cmd.Name()] {
		return false, nil
	}
	if err := w.findRoot(cmd); err != nil {
		return false, nil
	}
	argv := []string{cmd.Name()}
	ok := true
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !forwardable[f.Name] {
			ok = false
			return
		}
		if f.Name == "root" {
			return // sent below, resolved
		}
		switch f.Value.Type() {
		case "stringArray", "stringSlice":
			vals, _ := cmd.Flags().GetStringArray(f.Name)
			if f.Value.Type() == "stringSlice" {
				vals, _ = cmd.Flags().GetStringSlice(f.Name)
			}
			for _, v := range vals {
				if f.Name == "path" {
					v = w.fromCwd(v)
				}
				argv = append(argv, "--"+f.Name+"="+v)
			}
		default:
			argv = append(argv, "--"+f.Name+"="+f.Value.String())
		}
	})
	if !ok {
		return false, nil
	}
	argv = append(argv, "--root", w.root, "--")
	argv = append(argv, args()...)
	resp, err := engine.CallLocal(cmd.Context(), w.root, argv)
	if err != nil {
		return false, nil
	}
	io.WriteString(cmd.OutOrStdout(), resp.Stdout)
	io.WriteString(cmd.ErrOrStderr(), resp.Stderr)
	if resp.Code != 0 {
		return true, exitError{resp.Code}
	}
	return true, nil
}

// serveLocal answers CLI calls for e's workspace until ctx ends: each is
// the command line run as the CLI would run it, against e. A socket that
// cannot be opened (another serve answers already, a cache directory others
// can enter) costs only the speed-up: serve goes on without it.
//
// The returned channel is closed once the socket is closed.
func serveLocal(ctx context.Context, cmd *cobra.Command, e *engine.Engine) <-chan struct{} {
	stopped := make(chan struct{})
	ln, err := e.ListenLocal()
	if err != nil {
		// Another server answers them, or there is no local workspace
		// (a reader of the shared index): nothing to say.
		if !errors.Is(err, engine.ErrLocalInUse) && !errors.Is(err, engine.ErrNoLocalWorkspace) {
			fmt.Fprintln(cmd.ErrOrStderr(), "scry: not answering CLI calls:", render.ErrorLine(err))
		}
		close(stopped)
		return stopped
	}
	go func() {
		defer close(stopped)
		engine.ServeLocal(ctx, ln, run(e))
	}()
	return stopped
}

// run runs a CLI command line against the serving engine e.
func run(e *engine.Engine) engine.LocalRunner {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		// Only the commands that read the workspace run here: serve would
		// read the server's own stdin, and install, trust, setup or index
		// change things a CLI call does itself.
		if len(args) == 0 || !servable[args[0]] {
			fmt.Fprintln(stderr, "scry: scry serve does not run this command for a CLI call")
			return 2
		}
		// The served engine follows .scry.toml, as its MCP calls do.
		if e.ConfigChanged() {
			notes, err := e.ReloadConfig()
			if err != nil {
				fmt.Fprintln(stderr, "scry:", render.ErrorLine(err))
				return 1
			}
			for _, n := range notes {
				fmt.Fprintln(stderr, "scry:", n)
			}
		}
		c := newRootCmd()
		c.SetArgs(args)
		c.SetOut(stdout)
		c.SetErr(stderr)
		if err := c.ExecuteContext(withServed(ctx, e)); err != nil {
			fmt.Fprintln(stderr, "scry:", render.ErrorLine(err))
			return 1
		}
		return 0
	}
}
