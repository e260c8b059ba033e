package tsls_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/scry-dev/scry/internal/tsls"
)

// addressLimit reads the address-space limit of a process from /proc.
func addressLimit(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Max address space") {
			return strings.Fields(strings.TrimPrefix(line, "Max address space"))[0]
		}
	}
	t.Fatalf("no address space line in %s", b)
	return ""
}

// TestServerMemoryIsCapped: the server's address space is capped, so that
// a workspace that makes it grow without end (a tsconfig.json including
// /dev/zero took it to 24 GB) kills the server, not the machine.
func TestServerMemoryIsCapped(t *testing.T) {
	tests := []struct {
		name  string
		limit int64
		want  string
	}{
		{"explicit", 6 << 30, strconv.FormatInt(6<<30, 10)},
		{"default", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := startProj(t, tsls.Options{MemoryLimit: tt.limit})
			want := tt.want
			if want == "" {
				def, err := tsls.DefaultMemoryLimit()
				if err != nil || def == 0 {
					t.Skipf("no default limit here (%v)", err)
				}
				want = strconv.FormatInt(def, 10)
			}
			if got := addressLimit(t, srv.Pid()); got != want {
				t.Errorf("server's address-space limit = %s, want %s", got, want)
			}
		})
	}
}

// TestServerCrashLoopIsNotRestarted: a server that keeps dying (as one
// killed at its memory limit does on every load of the same project) is
// restarted a few times, then left down with an error that says why,
// instead of being restarted by every call.
func TestServerCrashLoopIsNotRestarted(t *testing.T) {
	srv, greet, pos := startGreet(t, tsls.Options{})
	ctx := context.Background()
	var err error
	for i := 0; i < 3; i++ {
		if _, err = srv.Hover(ctx, greet, pos); err != nil {
			break
		}
		pid := srv.Pid()
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// The death is found before a request (a process known to be
		// gone) or by one (the connection closes under it): both count.
		if i != 1 {
			waitGone(t, pid)
		}
	}
	if err == nil {
		_, err = srv.Hover(ctx, greet, pos)
	}
	if !errors.Is(err, tsls.ErrCrashLoop) {
		t.Fatalf("after three deaths: %v (restarts %d), want ErrCrashLoop", err, srv.Restarts())
	}
	if srv.Restarts() != 2 {
		t.Errorf("restarts = %d, want 2", srv.Restarts())
	}
	// Later calls fail fast with the same reason, without a new process.
	if _, err := srv.Hover(ctx, greet, pos); !errors.Is(err, tsls.ErrCrashLoop) || srv.Restarts() != 2 {
		t.Errorf("next call: %v, restarts %d", err, srv.Restarts())
	}
	t.Log(err)
}

// TestServerMemory: the loaded server's resident set is read from /proc,
// and its peak is at least what it holds now.
func TestServerMemory(t *testing.T) {
	srv, _ := startProj(t, tsls.Options{})
	rss, peak, err := srv.Memory()
	if err != nil {
		t.Fatal(err)
	}
	if rss < 1<<20 || peak < rss {
		t.Fatalf("rss %d, peak %d: want a megabyte or more, and peak >= rss", rss, peak)
	}
}
