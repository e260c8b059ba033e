package daemon_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/daemon"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestRoundTrip serves a runner on a real socket and calls it: the command
// line arrives whole, what it prints and its status come back, the socket
// and its directory are private, and a second server for the same
// workspace is refused while the first runs.
func TestRoundTrip(t *testing.T) {
	cache := testkit.ShortDir(t)
	path, err := daemon.Path(cache, "/src/app")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := daemon.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{filepath.Dir(path): 0o700, path: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %o, want %o", p, fi.Mode().Perm(), want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- daemon.Serve(ctx, ln, "env-a", func(_ context.Context, args []string, stdout, stderr io.Writer) int {
			fmt.Fprintln(stdout, strings.Join(args, "|"))
			fmt.Fprintln(stderr, "note")
			return len(args)
		})
	}()
	resp, err := daemon.Call(context.Background(), path, "env-a", []string{"refs", "--root", "/src/app", "A B"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stdout != "refs|--root|/src/app|A B\n" || resp.Stderr != "note\n" || resp.Code != 4 {
		t.Errorf("response %+v", resp)
	}
	if _, err := daemon.Call(context.Background(), path, "env-b", []string{"refs"}); !errors.Is(err, daemon.ErrDeclined) {
		t.Errorf("a call with other settings: %v, want ErrDeclined", err)
	}
	if _, err := daemon.Listen(path); !errors.Is(err, daemon.ErrInUse) {
		t.Errorf("second Listen: %v, want ErrInUse", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := daemon.Call(context.Background(), path, "env-a", []string{"refs"}); err == nil {
		t.Error("Call succeeded with no server")
	}
}

// TestStaleSocket: a socket left by a server that died is replaced.
func TestStaleSocket(t *testing.T) {
	cache := testkit.ShortDir(t)
	path, err := daemon.Path(cache, "/src/app")
	if err != nil {
		t.Fatal(err)
	}
	// A listener whose file stays after it is closed, as after a kill.
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("the stale socket is gone already: %v", err)
	}
	ln, err := daemon.Listen(path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	ln.Close()
}

// TestRefusesOpenDirectory: a socket directory others may enter is
// refused by both sides, and a non-socket at the path is not removed.
func TestRefusesOpenDirectory(t *testing.T) {
	cache := testkit.ShortDir(t)
	path, err := daemon.Path(cache, "/src/app")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := daemon.Path(cache, "/src/app"); err == nil || !strings.Contains(err.Error(), "others may open") {
		t.Errorf("Path with a 0755 directory: %v", err)
	}
	if _, err := daemon.Call(context.Background(), path, "env-a", []string{"refs"}); err == nil || !strings.Contains(err.Error(), "others may open") {
		t.Errorf("Call with a 0755 directory: %v", err)
	}
	if err := os.Chmod(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := daemon.Listen(path); err == nil {
		t.Error("Listen replaced a regular file")
	}
	if b, _ := os.ReadFile(path); string(b) != "mine" {
		t.Error("the regular file was changed")
	}
}

// TestEnvFingerprint: only SCRY_* settings count, in any order, and the
// switch that turns calls to a server off does not.
func TestEnvFingerprint(t *testing.T) {
	a := daemon.EnvFingerprint([]string{"HOME=/h", "SCRY_BUDGET=10", "SCRY_TSGO=/t"})
	for _, tc := range []struct {
		env  []string
		same bool
	}{
		{[]string{"SCRY_TSGO=/t", "SCRY_BUDGET=10"}, true},
		{[]string{"SCRY_TSGO=/t", "SCRY_BUDGET=10", "SCRY_NO_SERVER=", "PATH=/bin"}, true},
		{[]string{"SCRY_TSGO=/t", "SCRY_BUDGET=11"}, false},
		{[]string{"SCRY_TSGO=/t"}, false},
	} {
		if got := daemon.EnvFingerprint(tc.env) == a; got != tc.same {
			t.Errorf("%v: same = %v, want %v", tc.env, got, tc.same)
		}
	}
}
