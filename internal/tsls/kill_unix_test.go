//go:build unix

package tsls_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/tsls"
)

// TestServerRestartsAfterKill: SIGKILL the process while serving; the next
// request still answers, from a new process.
func TestServerRestartsAfterKill(t *testing.T) {
	srv, greet, pos := startGreet(t, tsls.Options{})
	ctx := context.Background()
	if _, err := srv.Hover(ctx, greet, pos); err != nil {
		t.Fatal(err)
	}
	pid := killServer(t, srv)
	refs, err := srv.References(ctx, greet, pos, false)
	if err != nil {
		t.Fatalf("request after kill: %v", err)
	}
	if len(refs) != 2 {
		t.Errorf("references after restart = %d, want 2", len(refs))
	}
	if srv.Pid() == pid || srv.Restarts() != 1 {
		t.Errorf("pid %d → %d, restarts %d", pid, srv.Pid(), srv.Restarts())
	}
}

// waitStopped waits until a SIGSTOP has taken effect: the signal is
// delivered asynchronously, and a fast server could still answer a request
// sent right after kill(2) returns. Where /proc is missing, a pause stands in.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	stat := "/proc/" + strconv.Itoa(pid) + "/stat"
	if _, err := os.Stat(stat); err != nil {
		time.Sleep(200 * time.Millisecond)
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(stat)
		// The state follows the parenthesised command name: "T" = stopped.
		if err == nil {
			if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(string(b[i+1:]), " T") {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("process %d did not stop", pid)
}

// killServer SIGKILLs the server's process and waits until it is gone; it
// returns the process's id.
func killServer(t *testing.T, srv *tsls.Server) int {
	t.Helper()
	pid := srv.Pid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	return pid
}

// waitGone waits until pid has exited and been reaped.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("process %d still alive", pid)
}

// TestServerHungIsKilled: a server that stops answering (SIGSTOP) makes the
// request fail after the timeout, not hang; the next request restarts it.
func TestServerHungIsKilled(t *testing.T) {
	srv, greet, pos := startGreet(t, tsls.Options{RequestTimeout: 500 * time.Millisecond})
	ctx := context.Background()
	pid := srv.Pid()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitStopped(t, pid)
	began := time.Now()
	_, err := srv.Hover(ctx, greet, pos)
	if !errors.Is(err, tsls.ErrTimeout) {
		t.Fatalf("hover on a stopped server: err = %v, want ErrTimeout", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("timeout took %s", took)
	}
	h, err := srv.Hover(ctx, greet, pos)
	if err != nil {
		t.Fatalf("hover after restart: %v", err)
	}
	if h.Code() != "function hello(name: string): string" {
		t.Errorf("hover after restart = %q", h.Code())
	}
	if srv.Pid() == pid {
		t.Errorf("still the stopped process")
	}
}

func TestServerClose(t *testing.T) {
	srv, root := startProj(t, tsls.Options{})
	pid := srv.Pid()
	if err := srv.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	waitGone(t, pid)
	_, err := srv.DocumentSymbols(context.Background(), filepath.Join(root, "src", "greet.ts"))
	if !errors.Is(err, tsls.ErrClosed) {
		t.Fatalf("request after close: %v", err)
	}
}

// TestWorkspaceProgramSurvivesRestart: a new process is handed the
// workspace program again, so references stay complete after a kill.
func TestWorkspaceProgramSurvivesRestart(t *testing.T) {
	root, files := newTree(t, map[string]string{
		"lib/hmac.ts": "export function hmac(key: string): string {\n  return key\n}\n",
		"a/one.ts":    "import { hmac } from '../lib/hmac'\nexport const one = () => hmac('1')\n",
		"b/two.ts":    "import { hmac } from '../lib/hmac'\nexport const two = () => hmac('2')\n",
	})
	srv := start(t, root, tsls.Options{ProgramFiles: files})
	hmac := filepath.Join(root, "lib", "hmac.ts")
	pos := at(t, hmac, "hmac", 0)
	want := "a/one.ts b/two.ts"
	if got := refFiles(t, srv, root, hmac, pos); got != want {
		t.Fatalf("references before the kill = %q, want %q", got, want)
	}
	killServer(t, srv)
	if got := refFiles(t, srv, root, hmac, pos); got != want {
		t.Errorf("references after the restart = %q, want %q", got, want)
	}
	if srv.Restarts() != 1 {
		t.Errorf("restarts = %d, want 1", srv.Restarts())
	}
}
