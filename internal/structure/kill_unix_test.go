//go:build unix

package structure_test

import (
	"context"
	"errors"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/structure"
)

// TestMetadataSurvivesKill: the language server is SIGKILLed while scry is
// serving; the next question is still answered, identically.
func TestMetadataSurvivesKill(t *testing.T) {
	root := fixtureDir(t, "call-chain")
	srv := startServer(t, root)
	res := structure.NewCompiler(srv)
	q := query{File: "validator.ts", Decl: "function validate", Symbol: "validate"}
	ctx := context.Background()
	before, err := res.Metadata(ctx, targetOf(t, root, q), structure.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pid := srv.Pid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Wait until it is gone (and reaped) so the next question really
	// meets a dead server.
	deadline := time.Now().Add(10 * time.Second)
	for !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d survived SIGKILL", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
	after, err := res.Metadata(ctx, targetOf(t, root, q), structure.Options{})
	if err != nil {
		t.Fatalf("metadata after kill: %v", err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("answer changed across the restart:\nbefore %+v\nafter  %+v", before, after)
	}
	if srv.Restarts() != 1 {
		t.Errorf("restarts = %d, want 1", srv.Restarts())
	}
}
