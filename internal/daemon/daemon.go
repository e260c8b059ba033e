// Package daemon lets a CLI call be answered by a running `scry serve` for
// the same workspace, whose index is open and whose TypeScript server is
// warm, instead of opening both afresh (seconds on a large repository).
//
// The two meet on a unix socket that only the user can open: the socket
// (mode 0600) lives in a directory of scry's cache (mode 0700, owned by the
// user, checked before every use), named by a hash of the workspace root's
// real path; on Linux the server also checks that the peer runs as the same
// user. The exchange is one JSON line each way: the command line to run,
// then what it printed and its exit status.
package daemon

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Request is a command line for the server to run, as the CLI would.
type Request struct {
	Args []string `json:"args"`
	// Env is the caller's EnvFingerprint: the server declines a call made
	// with other SCRY_* settings than its own, which its engine was opened
	// with.
	Env string `json:"env"`
}

// Response is what the command printed and its exit status.
type Response struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
	// Declined is set when the server did not run the command (other
	// settings in the caller's environment): the caller runs it itself.
	Declined bool `json:"declined,omitempty"`
}

// EnvFingerprint is a hash of the SCRY_* variables in environ (sorted; the
// switch that turns CLI calls to a server off left out), so that a caller
// and a server can tell whether they read the same settings without
// sending them (they include API keys).
func EnvFingerprint(environ []string) string {
	var vars []string
	for _, kv := range environ {
		if strings.HasPrefix(kv, "SCRY_") && !strings.HasPrefix(kv, "SCRY_NO_SERVER=") {
			vars = append(vars, kv)
		}
	}
	slices.Sort(vars)
	h := sha256.Sum256([]byte(strings.Join(vars, "\x00")))
	return hex.EncodeToString(h[:16])
}

// Runner runs one command line against the server's workspace, writing
// what it prints, and returns its exit status.
type Runner func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// Limits on one exchange: a command line is short, so a larger request is
// refused rather than buffered.
const (
	maxRequest  = 64 << 10
	maxArgs     = 256
	readTimeout = 5 * time.Second
	maxParallel = 4
	// dialTimeout bounds the wait for a server: one that does not answer
	// this fast is not worth waiting for, since the CLI can answer itself.
	dialTimeout = 300 * time.Millisecond
)

// ErrInUse is returned by Listen when another server already answers on the
// workspace's socket.
var ErrInUse = errors.New("another scry serve already answers for this workspace")

// maxSocketPath is the longest path a unix socket address holds on Linux
// and macOS (sun_path, less its terminating NUL).
const maxSocketPath = 103

// Path is the socket for the workspace whose root's real path is root,
// under scry's cache directory cacheDir. It creates the socket directory
// (mode 0700) when missing and refuses one that is not the user's own or
// that others can open.
func Path(cacheDir, root string) (string, error) {
	dir := filepath.Join(cacheDir, "run")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("socket directory: %w", err)
	}
	if err := checkPrivate(dir); err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(root))
	p := filepath.Join(dir, hex.EncodeToString(h[:8])+".sock")
	if len(p) > maxSocketPath {
		return "", fmt.Errorf("socket path %s is longer than a unix socket address holds (%d bytes); set SCRY_CACHE_DIR to a shorter directory", p, maxSocketPath)
	}
	return p, nil
}

// checkPrivate refuses a socket directory that is not a real directory,
// that belongs to another user or that others may enter: whoever can open
// the socket can ask the server about the workspace.
func checkPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("socket directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("socket directory %s is not a directory", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("socket directory %s has mode %o: others may open its sockets (chmod 700 it)", dir, fi.Mode().Perm())
	}
	if !ownedByMe(fi) {
		return fmt.Errorf("socket directory %s belongs to another user", dir)
	}
	return nil
}

// Listen opens the socket at path for a server. A socket left by a server
// that has gone is removed first; one that still answers is ErrInUse.
func Listen(path string) (net.Listener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("listen %s: not a socket, not removing it", path)
		}
		if c, err := net.DialTimeout("unix", path, dialTimeout); err == nil {
			c.Close()
			return nil, ErrInUse
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("listen: removing a stale socket: %w", err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	// The directory already keeps others out; the socket's own mode says
	// the same to anyone who looks.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	return ln, nil
}

// Serve answers connections on ln with run until ctx ends or ln is closed,
// at most maxParallel at a time. env is the server's EnvFingerprint.
func Serve(ctx context.Context, ln net.Listener, env string, run Runner) error {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	sem := make(chan struct{}, maxParallel)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("accept: %w", err)
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			defer c.Close()
			serveConn(ctx, c, env, run)
		}()
	}
}

func serveConn(ctx context.Context, c net.Conn, env string, run Runner) {
	if !samePeer(c) {
		return
	}
	c.SetReadDeadline(time.Now().Add(readTimeout))
	line, err := bufio.NewReaderSize(io.LimitReader(c, maxRequest), 4096).ReadString('\n')
	if err != nil {
		return
	}
	var req Request
	if err := json.Unmarshal([]byte(line), &req); err != nil || len(req.Args) == 0 || len(req.Args) > maxArgs {
		writeResponse(c, Response{Stderr: "scry: malformed request to scry serve\n", Code: 2})
		return
	}
	if req.Env != env {
		writeResponse(c, Response{Declined: true})
		return
	}
	c.SetReadDeadline(time.Time{})
	// The call ends with the connection: a client that goes away (Ctrl-C)
	// cancels its command.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var b [1]byte
		c.Read(b[:])
		cancel()
	}()
	var stdout, stderr strings.Builder
	code := run(cctx, req.Args, &stdout, &stderr)
	writeResponse(c, Response{Stdout: stdout.String(), Stderr: stderr.String(), Code: code})
}

func writeResponse(c net.Conn, r Response) {
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	c.Write(append(b, '\n'))
}

// ErrDeclined says the server would not run the call: its settings differ
// from the caller's.
var ErrDeclined = errors.New("scry serve runs with other SCRY_* settings")

// Call asks the server on the socket at path to run args, for a caller
// whose EnvFingerprint is env. An error means no server answered (none
// runs, it went away, or it declined): the caller answers the command
// itself.
func Call(ctx context.Context, path, env string, args []string) (Response, error) {
	if err := checkPrivate(filepath.Dir(path)); err != nil {
		return Response{}, err
	}
	d := net.Dialer{Timeout: dialTimeout}
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return Response{}, fmt.Errorf("no scry serve for this workspace: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	b, err := json.Marshal(Request{Args: args, Env: env})
	if err != nil {
		return Response{}, err
	}
	if _, err := c.Write(append(b, '\n')); err != nil {
		return Response{}, fmt.Errorf("scry serve: %w", err)
	}
	var resp Response
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		return Response{}, fmt.Errorf("scry serve did not answer: %w", err)
	}
	if resp.Declined {
		return Response{}, ErrDeclined
	}
	return resp, nil
}
