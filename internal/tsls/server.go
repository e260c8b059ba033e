// Package tsls runs TypeScript 7's native language server (`tsc --lsp
// --stdio`, the Go port of the compiler, "tsgo") for one workspace and gives
// typed, concurrency-safe access to the requests scry needs.
//
// Lifecycle, as implemented here and checked against tsgo 7.0.2:
//
//   - Readiness. tsgo sends no "project loaded" signal (no $/progress for
//     project loading in 7.0.2), but every document request first brings the
//     file's project fully up to date — it builds the whole program
//     synchronously before answering. Start therefore opens a representative
//     file and waits for a documentSymbol answer on it: once that arrives the
//     configured project is loaded, and no answer can come from a
//     half-loaded program. (workspace/symbol only searches projects that are
//     already loaded, which is a second reason to load one eagerly.)
//   - Files no tsconfig.json governs. Given the workspace's source files
//     (Options.ProgramFiles, SetProgramFiles), the server is also handed
//     those outside every configured project as one program, opened the
//     same way; otherwise each request on such a file would rebuild tsgo's
//     inferred project around it (see program.go).
//   - Keeping it warm. The process lives as long as the Server, and the
//     representative file stays open: tsgo keeps the projects of open files,
//     while a project with no open file may be released and rebuilt on its
//     next request.
//   - File changes. tsgo never watches the disk itself — it asks the client
//     to (a didChangeWatchedFiles registration) — so without notifications
//     edits on disk are never seen (checked: a closed file edited on disk
//     keeps its old answer indefinitely). It honours
//     workspace/didChangeWatchedFiles without any registration, so that is
//     what this client sends: FilesChanged / NotifyFileEvents for files the
//     caller knows changed (scry's index sync), plus an automatic mtime/size
//     check of each request's own document. Files opened with DidOpen are
//     overlays and get didChange instead.
//   - Failure. A request that exceeds the per-request timeout kills the
//     process; a process that dies (killed, crashed) is restarted by the
//     next request, which re-opens the open documents. A request caught by
//     the death is retried once on the new process.
//   - Shutdown. `shutdown` is sent without params (tsgo rejects
//     "params": null), then `exit`; tsgo then exits with status 1 and
//     "context canceled" on stderr, which is its normal exit.
package tsls

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for Options.
const (
	DefaultRequestTimeout = 10 * time.Second
	DefaultReadyTimeout   = 2 * time.Minute
)

// ErrTimeout is returned (wrapped) when a request exceeded the timeout; the
// server process was killed and the next request starts a new one.
var ErrTimeout = errors.New("language server request timed out")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("language server closed")

// Options configures a Server.
type Options struct {
	// Root is the workspace root; the server runs with it as cwd and root URI.
	Root string
	// TsgoPath is the binary (see Find).
	TsgoPath string
	// RequestTimeout bounds each request; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// ReadyTimeout bounds start-up including the project load; 0 means
	// DefaultReadyTimeout. Loading is legitimately slower than a request.
	ReadyTimeout time.Duration
	// WarmFile is the file opened to load the project; "" picks one.
	WarmFile string
	// Stderr receives the server's log output; nil discards it (the last few
	// KiB are kept for error messages either way).
	Stderr io.Writer
	// Logf reports lifecycle events (restarts, kills); nil is silent.
	Logf func(format string, args ...any)
	// ProgramFiles, when not nil, are the workspace's source files
	// (absolute). Those no tsconfig.json or jsconfig.json governs are
	// given to the server as one program (see program.go); SetProgramFiles
	// keeps the list current.
	ProgramFiles []string
	// MemoryLimit caps the server's address space in bytes, where the
	// system allows it (Linux, a native binary); 0 means
	// DefaultMemoryLimit(), negative means no cap. A tsconfig.json that
	// includes /dev/zero made the server grow to tens of gigabytes.
	MemoryLimit int64
}

// Server is a running (or restartable) language server for one workspace.
// All methods are safe for concurrent use.
type Server struct {
	opts Options
	root string
	// realRoot and libDir bound what answers may point at (confine.go).
	realRoot, libDir string

	startMu sync.Mutex // serialises (re)starts
	// syncMu makes a request's check of its file against the disk and the
	// notice of a change it finds one step: two requests on one file run
	// side by side (hover and outline), and the one that did not find the
	// change must not go out before the notice the other one sends.
	syncMu sync.Mutex

	mu      sync.Mutex
	proc    *process
	closed  bool
	docs    map[string]*openDoc // path → document opened by the client
	program *program            // nil until program files are given
	// generation counts changes sent and processes started (Generation).
	generation atomic.Uint64
	stamps     map[string]stamp // path → last state the server was told about
	restarts   int
	readyTime  time.Duration
	version    string

	// A start that failed is not retried for startBackoff, so a broken
	// installation fails each caller fast instead of re-spawning per call.
	lastStartErr error
	lastStartAt  time.Time

	// deaths are when running processes were found dead, within
	// crashWindow; after maxCrashes of them the server is not restarted
	// until restartAfter, so that one that dies of its memory limit (or
	// of anything else the workspace makes it do) is not restarted per
	// call, each time growing to the limit again.
	deaths       []time.Time
	gaveUp       int // times the crash limit was hit: the pause doubles
	restartAfter time.Time
	crashErr     error
}

// Start launches the server for root and waits until its project is loaded.
func Start(ctx context.Context, root, tsgoPath string) (*Server, error) {
	return StartWithOptions(ctx, Options{Root: root, TsgoPath: tsgoPath})
}

// StartWithOptions is Start with every knob.
func StartWithOptions(ctx context.Context, opts Options) (*Server, error) {
	if opts.TsgoPath == "" {
		return nil, errors.New("tsls: no tsgo binary given (see tsls.Find)")
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("tsls: root %q: %w", opts.Root, err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("tsls: root %q is not a directory", root)
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	if opts.ReadyTimeout <= 0 {
		opts.ReadyTimeout = DefaultReadyTimeout
	}
	if opts.WarmFile == "" {
		opts.WarmFile = pickWarmFile(root)
	} else if !filepath.IsAbs(opts.WarmFile) {
		opts.WarmFile = filepath.Join(root, opts.WarmFile)
	}
	s := &Server{
		opts:     opts,
		root:     root,
		realRoot: realDir(root),
		libDir:   filepath.Dir(realDir(opts.TsgoPath)),
		docs:     map[string]*openDoc{},
		stamps:   map[string]stamp{},
	}
	if opts.ProgramFiles != nil {
		s.program = newProgram(root)
		s.program.set(ungovernedFiles(opts.ProgramFiles))
	}
	if _, err := s.live(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Root returns the workspace root (absolute).
func (s *Server) Root() string { return s.root }

// Version returns the server's reported version (e.g. "7.0.2").
func (s *Server) Version() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Pid returns the current process id, 0 when none is running.
func (s *Server) Pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil || s.proc.cmd.Process == nil {
		return 0
	}
	return s.proc.cmd.Process.Pid
}

// Memory returns the running server process's resident set and its peak,
// in bytes (Linux only). Processes it started are not counted.
func (s *Server) Memory() (rss, peak int64, err error) {
	pid := s.Pid()
	if pid == 0 {
		return 0, 0, fmt.Errorf("tsls: no server running")
	}
	rss, peak, err = processMemory(pid)
	if err != nil {
		return 0, 0, fmt.Errorf("tsls: memory of pid %d: %w", pid, err)
	}
	return rss, peak, nil
}

// Restarts counts processes started after the first one.
func (s *Server) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// ReadyTime is how long the last (re)start took from spawn to loaded project.
func (s *Server) ReadyTime() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readyTime
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// call runs one request with the per-request timeout, restarting a dead
// server first. file, when set, is the request's document: it is checked
// for changes on disk before the request is sent.
func (s *Server) call(ctx context.Context, file, method string, params, result any) error {
	for attempt := 0; ; attempt++ {
		p, err := s.live(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if file != "" {
			if err := s.syncFile(p, file); err != nil {
				return fmt.Errorf("%s: %w", method, err)
			}
		}
		rctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
		err = p.conn.call(rctx, method, params, result)
		timedOut := rctx.Err() == context.DeadlineExceeded
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", method, ctx.Err())
		}
		if timedOut {
			s.logf("tsls: %s timed out after %s; killing the server", method, s.opts.RequestTimeout)
			s.discard(p)
			return fmt.Errorf("%s: %w after %s", method, ErrTimeout, s.opts.RequestTimeout)
		}
		var rerr *ResponseError
		retryable := errors.Is(err, errConnClosed) ||
			(errors.As(err, &rerr) && (rerr.Code == codeContentModified || rerr.Code == codeRequestCancelled))
		if retryable && attempt == 0 {
			// The process died under us (or the document moved on while
			// it was answering): ask again, on a new process if needed.
			if errors.Is(err, errConnClosed) {
				s.discard(p)
			}
			continue
		}
		return fmt.Errorf("%s: %w", method, err)
	}
}

// Close shuts the server down: shutdown (no params), exit, then a kill if
// it has not gone within a few seconds.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p == nil || p.dead() {
		if p != nil {
			p.kill()
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	// shutdown must go without a params member: tsgo answers
	// "params": null with -32602.
	if err := p.conn.call(ctx, "shutdown", nil, nil); err == nil {
		_ = p.conn.notify("exit", nil)
	}
	_ = p.stdin.Close()
	select {
	case <-p.exited:
		// Exit status 1 with "context canceled" on stderr is how tsgo ends
		// after exit: not an error.
		return nil
	case <-ctx.Done():
		p.kill()
		<-p.exited
		return fmt.Errorf("tsls: server did not exit after shutdown; killed it")
	}
}
