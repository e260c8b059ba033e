package engine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/scry-dev/scry/internal/daemon"
)

// LocalResponse is what a command run by a running `scry serve` printed,
// and its exit status.
type LocalResponse = daemon.Response

// LocalRunner runs one CLI command line against a serving engine.
type LocalRunner = daemon.Runner

// ErrLocalInUse says another `scry serve` already answers CLI calls for the
// workspace.
var ErrLocalInUse = daemon.ErrInUse

// ErrNoLocalWorkspace says that a reader of the shared index answers no
// CLI calls for a workspace.
var ErrNoLocalWorkspace = errors.New("a reader of the shared index has no local workspace")

// localSocket is the socket of the workspace whose root's real path is
// root.
func localSocket(root string) (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	return daemon.Path(cache, root)
}

// ListenLocal opens the socket on which this engine's `scry serve` answers
// CLI calls for its workspace (package daemon: a socket only the user can
// open).
//
// A stateless reader of the shared index answers none: it has no local
// workspace (ErrNoLocalWorkspace).
func (e *Engine) ListenLocal() (net.Listener, error) {
	if e.store == nil {
		return nil, ErrNoLocalWorkspace
	}
	p, err := localSocket(e.Dir())
	if err != nil {
		return nil, err
	}
	return daemon.Listen(p)
}

// ServeLocal answers CLI calls on ln with run until ctx ends; it declines
// calls from a process whose SCRY_* settings differ from this one's.
func ServeLocal(ctx context.Context, ln net.Listener, run LocalRunner) error {
	return daemon.Serve(ctx, ln, daemon.EnvFingerprint(os.Environ()), run)
}

// CallLocal asks a running `scry serve` for the workspace at root to run a
// CLI command line. An error means none answered: the caller runs the
// command itself.
func CallLocal(ctx context.Context, root string, args []string) (LocalResponse, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return LocalResponse{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return LocalResponse{}, fmt.Errorf("workspace root: %w", err)
	}
	p, err := localSocket(real)
	if err != nil {
		return LocalResponse{}, err
	}
	return daemon.Call(ctx, p, daemon.EnvFingerprint(os.Environ()), args)
}
