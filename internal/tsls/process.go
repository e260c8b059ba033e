// The server process: starting it (spawn, the initialize handshake and
// readiness), noticing its death, restarting it with a back-off, and
// giving up on one that keeps dying.

package tsls

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

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
	// A FIFO or device where the compiler reads sources would hold it (and
	// every caller waiting for it) until the ready timeout: say which file,
	// at once, instead.
	if bad := blockingFiles(s.root); len(bad) > 0 {
		return nil, blockingErr(bad)
	}
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
	// initialize answers before any project is loaded: a server that does
	// not answer it within a request's time never will.
	ictx, icancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	err = p.conn.call(ictx, "initialize", params, &init)
	icancel()
	if err != nil {
		if ictx.Err() != nil && ctx.Err() == nil {
			err = fmt.Errorf("%w: no answer to initialize within %s", ErrTimeout, s.opts.RequestTimeout)
		}
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

// retire kills p and forgets it, without counting a death: it is stopped
// on purpose. Until why's moment plus startBackoff, requests get why
// instead of a new start; after it, the next request starts one (which
// spawn refuses again while the cause remains).
func (s *Server) retire(p *process, why error) {
	s.mu.Lock()
	if s.proc == p {
		s.proc = nil
	}
	s.lastStartErr, s.lastStartAt = why, time.Now()
	s.generation.Add(1)
	s.mu.Unlock()
	s.logf("tsls: language server (pid %d) stopped: %v", p.cmd.Process.Pid, why)
	p.kill()
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
