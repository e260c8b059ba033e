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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
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

const startBackoff = time.Second

const (
	maxCrashes    = 3
	crashWindow   = 5 * time.Minute
	crashPause    = 30 * time.Second
	maxCrashPause = 30 * time.Minute
)

// ErrCrashLoop wraps the error of a server that died too often to be
// restarted for now: answers come from the index meanwhile.
var ErrCrashLoop = errors.New("TypeScript server keeps dying")

type openDoc struct {
	version int
	text    string
}

type stamp struct {
	mtime time.Time
	size  int64
}

// process is one server process and its connection.
type process struct {
	cmd     *exec.Cmd
	conn    *conn
	stdin   io.WriteCloser
	stderr  *tailBuffer
	exited  chan struct{}
	waitErr error
	started time.Time
	// memoryLimit is the address-space cap applied to the process (0: none).
	memoryLimit int64
}

func (p *process) dead() bool {
	if p.conn.isClosed() {
		return true
	}
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

func (p *process) kill() {
	killTree(p.cmd)
	_ = p.stdin.Close()
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

// live returns a running process, starting one if none is alive.
func (s *Server) live(ctx context.Context) (*process, error) {
	s.mu.Lock()
	p, closed := s.proc, s.closed
	s.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	if p != nil && !p.dead() {
		return p, nil
	}

	s.startMu.Lock()
	defer s.startMu.Unlock()
	s.mu.Lock()
	p, closed = s.proc, s.closed
	hadOne := p != nil || s.version != ""
	s.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	if p != nil && !p.dead() {
		return p, nil // another caller restarted it while we waited
	}
	if p != nil {
		s.logf("tsls: language server (pid %d) died: %s", p.cmd.Process.Pid, p.stderr.tail())
		p.kill()
		s.mu.Lock()
		s.noteDeath(p)
		s.mu.Unlock()
	}
	s.mu.Lock()
	lastErr, lastAt := s.lastStartErr, s.lastStartAt
	if s.crashErr != nil && time.Now().Before(s.restartAfter) {
		err := s.crashErr
		s.mu.Unlock()
		return nil, err
	}
	s.mu.Unlock()
	if lastErr != nil && time.Since(lastAt) < startBackoff {
		return nil, lastErr
	}
	np, err := s.spawn(ctx)
	s.mu.Lock()
	s.lastStartErr, s.lastStartAt = err, time.Now()
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		np.kill()
		return nil, ErrClosed
	}
	s.proc = np
	s.generation.Add(1)
	if hadOne {
		s.restarts++
		s.logf("tsls: language server restarted (pid %d)", np.cmd.Process.Pid)
	}
	return np, nil
}

// noteDeath records that p was found dead and, when that makes maxCrashes
// deaths within crashWindow, stops restarts for a pause that doubles each
// time. s.mu is held. The process is forgotten so that it is noted once.
func (s *Server) noteDeath(p *process) {
	if s.proc == p {
		s.proc = nil
	}
	now := time.Now()
	kept := s.deaths[:0]
	for _, d := range s.deaths {
		if now.Sub(d) < crashWindow {
			kept = append(kept, d)
		}
	}
	s.deaths = append(kept, now)
	if len(s.deaths) < maxCrashes {
		return
	}
	pause := crashPause << min(s.gaveUp, 10)
	pause = min(pause, maxCrashPause)
	s.gaveUp++
	s.restartAfter = now.Add(pause)
	why := "it stopped answering"
	select {
	case <-p.exited:
		why = "it exited"
		if p.waitErr != nil {
			why = p.waitErr.Error()
		}
	default:
	}
	if tail := strings.TrimSpace(p.stderr.tail()); tail != "" {
		why += "; " + lastLine(tail)
	}
	if p.memoryLimit > 0 {
		why += fmt.Sprintf("; its memory is capped at %d MiB (SCRY_TSGO_MEMORY)", p.memoryLimit>>20)
	}
	s.crashErr = fmt.Errorf("tsls: %w: it died %d times in the last %s (last: %s); not restarted for %s",
		ErrCrashLoop, len(s.deaths), crashWindow, why, pause)
	s.deaths = s.deaths[:0]
	s.logf("%v", s.crashErr)
}

// lastLine is the last line of s, clipped: the Go runtime's fatal error
// ("out of memory") is printed first, a stack follows.
func lastLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "fatal error:") {
			return l
		}
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// clientCapabilities are the capabilities scry declares. Deliberately
// absent: didChangeWatchedFiles dynamic registration (we notify without it,
// and it would make tsgo register globs we do not serve), workspace
// configuration (defaults are what we want), work-done progress.
var clientCapabilities = map[string]any{
	"general": map[string]any{"positionEncodings": []string{"utf-16"}},
	"textDocument": map[string]any{
		"synchronization": map[string]any{"dynamicRegistration": false},
		"hover":           map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"documentSymbol":  map[string]any{"hierarchicalDocumentSymbolSupport": true},
		"definition":      map[string]any{"linkSupport": false},
		"implementation":  map[string]any{"linkSupport": false},
		"references":      map[string]any{},
		"callHierarchy":   map[string]any{"dynamicRegistration": false},
	},
	"workspace": map[string]any{
		"symbol":                map[string]any{},
		"didChangeWatchedFiles": map[string]any{"dynamicRegistration": false},
	},
}

// spawn starts a process, initialises it, re-opens documents and waits for
// the project to load.
func (s *Server) spawn(ctx context.Context) (*process, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.ReadyTimeout)
	defer cancel()
	begin := time.Now()

	// Not CommandContext: the server must outlive the caller's context.
	cmd := exec.Command(s.opts.TsgoPath, "--lsp", "--stdio")
	cmd.Dir = s.root
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("tsls: stdin pipe: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("tsls: stdout pipe: %w", err)
	}
	p := &process{cmd: cmd, stdin: stdin, stderr: &tailBuffer{max: 8 << 10}, exited: make(chan struct{})}
	if s.opts.Stderr != nil {
		cmd.Stderr = io.MultiWriter(p.stderr, s.opts.Stderr)
	} else {
		cmd.Stderr = p.stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("tsls: start %s: %w", s.opts.TsgoPath, err)
	}
	p.started = time.Now()
	if limit := s.memoryLimit(); limit > 0 {
		if err := limitMemory(cmd.Process.Pid, limit); err != nil {
			s.logf("tsls: cannot cap the server's memory: %v", err)
		} else {
			p.memoryLimit = limit
		}
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	var onNotify func(string, json.RawMessage)
	if s.opts.Stderr != nil {
		// tsgo logs through window/logMessage, not stderr.
		w := s.opts.Stderr
		onNotify = func(method string, params json.RawMessage) {
			if method != "window/logMessage" {
				return
			}
			var m struct {
				Message string `json:"message"`
			}
			if json.Unmarshal(params, &m) == nil {
				fmt.Fprintln(w, m.Message)
			}
		}
	}
	p.conn = newConn(stdout, stdin, serverRequest, onNotify)

	fail := func(step string, err error) (*process, error) {
		p.kill()
		<-p.exited
		if tail := p.stderr.tail(); tail != "" {
			return nil, fmt.Errorf("tsls: %s: %w (server stderr: %s)", step, err, tail)
		}
		return nil, fmt.Errorf("tsls: %s: %w", step, err)
	}

	var init struct {
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	params := map[string]any{
		"processId":  os.Getpid(),
		"clientInfo": map[string]any{"name": "scry"},
		"rootUri":    PathToURI(s.root),
		"rootPath":   s.root,
		"workspaceFolders": []map[string]any{
			{"uri": PathToURI(s.root), "name": filepath.Base(s.root)},
		},
		"capabilities": clientCapabilities,
		// Diagnostics for open files would be computed and pushed for
		// nothing: scry never shows them.
		"initializationOptions": map[string]any{"disablePushDiagnostics": true},
	}
	if err := p.conn.call(ctx, "initialize", params, &init); err != nil {
		return fail("initialize", err)
	}
	if err := p.conn.notify("initialized", map[string]any{}); err != nil {
		return fail("initialized", err)
	}

	// A new process reads the disk afresh: forget what the old one was told.
	s.mu.Lock()
	s.stamps = map[string]stamp{}
	docs := make(map[string]*openDoc, len(s.docs))
	for path, d := range s.docs {
		docs[path] = d
	}
	s.mu.Unlock()
	for path := range docs {
		b, err := readSource(path)
		if err != nil {
			continue // deleted meanwhile: the server will not know it
		}
		s.mu.Lock()
		d := s.docs[path]
		if d != nil {
			d.version++
			d.text = string(b)
		}
		s.mu.Unlock()
		if d != nil {
			if err := p.conn.notify("textDocument/didOpen", didOpenParams(path, d.version, string(b))); err != nil {
				return fail("reopen "+path, err)
			}
		}
	}

	var gates []string
	s.mu.Lock()
	pg := s.program
	withProgram := pg != nil && len(pg.files) > 0
	s.mu.Unlock()
	if withProgram {
		if err := s.sendProgram(p); err != nil {
			return fail("open the workspace program", err)
		}
		gates = append(gates, pg.path)
	}

	warm := s.opts.WarmFile
	if warm != "" {
		s.mu.Lock()
		_, already := s.docs[warm]
		s.mu.Unlock()
		if !already {
			b, err := readSource(warm)
			if err == nil {
				if err := p.conn.notify("textDocument/didOpen", didOpenParams(warm, 1, string(b))); err != nil {
					return fail("open "+warm, err)
				}
				s.mu.Lock()
				s.docs[warm] = &openDoc{version: 1, text: string(b)}
				s.mu.Unlock()
			} else {
				warm = ""
			}
		}
	}
	if warm != "" {
		gates = append(gates, warm)
	}
	for _, gate := range gates {
		// The answer arrives only after the program of the document's
		// project is built: this is the readiness gate.
		var syms json.RawMessage
		if err := p.conn.call(ctx, "textDocument/documentSymbol", map[string]any{
			"textDocument": map[string]any{"uri": PathToURI(gate)},
		}, &syms); err != nil {
			return fail("load project of "+gate, err)
		}
	}

	s.mu.Lock()
	s.version = init.ServerInfo.Version
	s.readyTime = time.Since(begin)
	s.mu.Unlock()
	return p, nil
}

// serverRequest answers the requests tsgo sends to the client. Everything
// it asks for here is acknowledged with null (registerCapability,
// workDoneProgress/create, ...), except workspace/configuration, which
// wants one entry per item: null means "defaults".
func serverRequest(method string, params json.RawMessage) (any, error) {
	if method == "workspace/configuration" {
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(params, &p)
		return make([]any, len(p.Items)), nil
	}
	return nil, nil
}

func languageID(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tsx":
		return "typescriptreact"
	case ".jsx":
		return "javascriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	default:
		return "typescript"
	}
}

func didOpenParams(path string, version int, text string) map[string]any {
	return map[string]any{"textDocument": map[string]any{
		"uri": PathToURI(path), "languageId": languageID(path), "version": version, "text": text,
	}}
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

// discard kills p and forgets it so the next request starts a new one. It
// is called when p died under a request or stopped answering: a death, as
// far as restarting goes.
func (s *Server) discard(p *process) {
	s.mu.Lock()
	if s.proc == p {
		s.noteDeath(p)
	}
	s.mu.Unlock()
	p.kill()
}

// syncFile tells the server about a change to path made on disk since it
// last heard about it. A file first seen now counts as changed when it was
// modified after the process started (the process read the older content).
func (s *Server) syncFile(p *process, path string) error {
	st, err := os.Stat(path)
	s.mu.Lock()
	doc := s.docs[path]
	old, seen := s.stamps[path]
	var cur stamp
	if err == nil {
		cur = stamp{mtime: st.ModTime(), size: st.Size()}
		s.stamps[path] = cur
	} else {
		delete(s.stamps, path)
	}
	s.mu.Unlock()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && seen {
			return s.notifyEvents(p, []FileEvent{{Path: path, Type: FileDeleted}})
		}
		return nil // the request itself will report the problem
	}
	changed := (seen && old != cur) || (!seen && !cur.mtime.Before(p.started))
	if !changed {
		return nil
	}
	if doc != nil {
		return s.changeDoc(p, path)
	}
	return s.notifyEvents(p, []FileEvent{{Path: path, Type: FileChanged}})
}

// FileChangeType is the LSP FileChangeType.
type FileChangeType int

// File change kinds.
const (
	FileCreated FileChangeType = 1
	FileChanged FileChangeType = 2
	FileDeleted FileChangeType = 3
)

// FileEvent is one file change to report.
type FileEvent struct {
	Path string
	Type FileChangeType
}

// NotifyFileEvents reports created, changed and deleted files. Open
// documents are re-sent (or closed) instead, since the server reads them
// from the client, not the disk.
func (s *Server) NotifyFileEvents(ctx context.Context, events []FileEvent) error {
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	var rest []FileEvent
	for _, ev := range events {
		path, err := filepath.Abs(ev.Path)
		if err != nil {
			continue
		}
		ev.Path = path
		s.mu.Lock()
		doc := s.docs[path]
		if st, err := os.Stat(path); err == nil {
			s.stamps[path] = stamp{mtime: st.ModTime(), size: st.Size()}
		} else {
			delete(s.stamps, path)
		}
		s.mu.Unlock()
		switch {
		case doc != nil && ev.Type == FileDeleted:
			if err := s.closeDoc(p, path); err != nil {
				return err
			}
			rest = append(rest, ev)
		case doc != nil:
			if err := s.changeDoc(p, path); err != nil {
				return err
			}
		default:
			rest = append(rest, ev)
		}
	}
	return s.notifyEvents(p, rest)
}

// FilesChanged reports files whose content may have changed on disk:
// existing files as changed, missing ones as deleted. Use NotifyFileEvents
// for created files, which make the server re-read its project's file list.
func (s *Server) FilesChanged(ctx context.Context, paths ...string) error {
	events := make([]FileEvent, 0, len(paths))
	for _, p := range paths {
		t := FileChanged
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			t = FileDeleted
		}
		events = append(events, FileEvent{Path: p, Type: t})
	}
	return s.NotifyFileEvents(ctx, events)
}

// notifyChange sends a notification that changes what the server knows
// of the workspace's files.
func (s *Server) notifyChange(p *process, method string, params any) error {
	s.generation.Add(1)
	return p.conn.notify(method, params)
}

// Generation changes whenever the server may answer differently: a file
// change was sent, a document opened or closed, or a new process started.
// Answers cached under one generation are stale under another.
func (s *Server) Generation() uint64 { return s.generation.Load() }

func (s *Server) notifyEvents(p *process, events []FileEvent) error {
	if len(events) == 0 {
		return nil
	}
	changes := make([]map[string]any, len(events))
	for i, ev := range events {
		changes[i] = map[string]any{"uri": PathToURI(ev.Path), "type": int(ev.Type)}
	}
	if err := s.notifyChange(p, "workspace/didChangeWatchedFiles", map[string]any{"changes": changes}); err != nil {
		return fmt.Errorf("notify file changes: %w", err)
	}
	return nil
}

// SetProgramFiles replaces the workspace's source files (absolute paths)
// from which the program of files without a tsconfig.json is made, and
// sends the server the new program when its list changed: call it after
// files are created or deleted.
func (s *Server) SetProgramFiles(ctx context.Context, files []string) error {
	next := ungovernedFiles(files)
	s.mu.Lock()
	if s.program == nil {
		s.program = newProgram(s.root)
	}
	changed := s.program.set(next)
	s.mu.Unlock()
	if !changed {
		return nil
	}
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	return s.sendProgram(p)
}

// sendProgram opens the program document in p, or sends its new text if
// p has it open already.
func (s *Server) sendProgram(p *process) error {
	s.mu.Lock()
	pg := s.program
	pg.version++
	text, v, open := pg.text(), pg.version, pg.openIn == p
	pg.openIn = p
	s.mu.Unlock()
	if !open {
		if err := s.notifyChange(p, "textDocument/didOpen", didOpenParams(pg.path, v, text)); err != nil {
			return fmt.Errorf("open the workspace program: %w", err)
		}
		return nil
	}
	if err := s.notifyChange(p, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": PathToURI(pg.path), "version": v},
		"contentChanges": []map[string]any{{"text": text}},
	}); err != nil {
		return fmt.Errorf("update the workspace program: %w", err)
	}
	return nil
}

// changeDoc re-reads an open document from disk and sends its whole text.
func (s *Server) changeDoc(p *process, path string) error {
	b, err := readSource(path)
	if err != nil {
		return s.closeDoc(p, path)
	}
	return s.setDoc(p, path, string(b))
}

func (s *Server) setDoc(p *process, path, text string) error {
	s.mu.Lock()
	d := s.docs[path]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	d.version++
	d.text = text
	v := d.version
	s.mu.Unlock()
	return s.notifyChange(p, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": PathToURI(path), "version": v},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

func (s *Server) closeDoc(p *process, path string) error {
	s.mu.Lock()
	_, ok := s.docs[path]
	delete(s.docs, path)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return s.notifyChange(p, "textDocument/didClose", map[string]any{
		"textDocument": map[string]any{"uri": PathToURI(path)},
	})
}

// DidOpen opens path with its current disk content. From then on the server
// reads the client's copy: report edits with DidChange or FilesChanged.
func (s *Server) DidOpen(ctx context.Context, path string) error {
	path, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	b, err := readSource(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil {
		s.mu.Unlock()
		return s.setDoc(p, path, string(b))
	}
	s.docs[path] = &openDoc{version: 1, text: string(b)}
	s.mu.Unlock()
	return s.notifyChange(p, "textDocument/didOpen", didOpenParams(path, 1, string(b)))
}

// DidChange replaces an open document's content (unsaved edits).
func (s *Server) DidChange(ctx context.Context, path, text string) error {
	path, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	_, ok := s.docs[path]
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("didChange %s: document is not open", path)
	}
	return s.setDoc(p, path, text)
}

// DidClose closes a document; the server goes back to reading the disk.
func (s *Server) DidClose(ctx context.Context, path string) error {
	path, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	return s.closeDoc(p, path)
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

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}

// skipDirs are never searched for a representative file.
var skipDirs = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "out": true, "coverage": true,
	"vendor": true, "target": true, "tmp": true,
}

// pickWarmFile chooses a file whose opening loads the workspace's main
// project: the shallowest TypeScript source (not a declaration file),
// preferring src/, then JavaScript when there is no TypeScript.
func pickWarmFile(root string) string {
	best, bestScore := "", 1<<30
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || skipDirs[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		lower := strings.ToLower(name)
		if strings.HasSuffix(lower, ".d.ts") || strings.HasSuffix(lower, ".d.mts") || strings.HasSuffix(lower, ".d.cts") {
			return nil
		}
		score := 0
		switch filepath.Ext(lower) {
		case ".ts", ".tsx", ".mts", ".cts":
		case ".js", ".jsx", ".mjs", ".cjs":
			score += 1000
		default:
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		score += 10 * len(parts)
		if parts[0] != "src" {
			score += 5
		}
		if strings.Contains(lower, ".test.") || strings.Contains(lower, ".spec.") {
			score += 100
		}
		if score < bestScore || (score == bestScore && path < best) {
			best, bestScore = path, score
		}
		return nil
	})
	return best
}

// sortLocations orders locations by path then position, for stable output.
func sortLocations(locs []Location) {
	sort.SliceStable(locs, func(i, j int) bool {
		if locs[i].URI != locs[j].URI {
			return locs[i].URI < locs[j].URI
		}
		return locs[i].Range.Start.Less(locs[j].Range.Start)
	})
}
