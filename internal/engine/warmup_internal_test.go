package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/answer"
)

// TestAwaitCompiler follows a compiler through its start without running
// one: while it loads, a question with no wait is answered from the index
// with how far loading got; a question with a wait is released as soon as
// loading ends (a failed start then says why), and the status agrees.
func TestAwaitCompiler(t *testing.T) {
	ctx := context.Background()
	e, err := Open(ctx, Options{Root: "../../testdata/project", IndexPath: filepath.Join(t.TempDir(), "index.db"), Sync: true,
		Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if s := e.CompilerStatus(); s.Phase != CompilerAbsent {
		t.Errorf("before any start: %+v", s)
	}
	if _, reason := e.awaitCompiler(ctx); reason != answer.ReasonNoServer {
		t.Errorf("no compiler: reason %q", reason)
	}

	e.compiler.warm.begin(7)
	setWait(e, 0)
	_, reason := e.awaitCompiler(ctx)
	if !strings.Contains(reason, "TypeScript 7 is still loading the project (7 files, ") {
		t.Errorf("loading, no wait: reason %q", reason)
	}
	if s := e.CompilerStatus(); s.Phase != CompilerLoading || s.Files != 7 {
		t.Errorf("loading: status %+v", s)
	}
	syms, err := e.localReads().Symbols("TokenService")
	if err != nil || len(syms) == 0 {
		t.Fatalf("symbols: %v", err)
	}
	refs, err := e.localReads().References(ctx, syms[0], 0)
	if err != nil || !refs.Approximate {
		t.Errorf("references while loading: %v, approximate %v", err, refs.Approximate)
	}

	setWait(e, 600) // the test would time out if the wait were not released
	go func() {     // as attachCompiler ends a failed start
		e.setWhy(answer.ReasonNotStarted + ": tsc exited")
		e.compiler.warm.finish(errors.New("tsc exited"))
	}()
	if _, reason := e.awaitCompiler(ctx); reason != "TypeScript 7 did not start: tsc exited" {
		t.Errorf("after a failed start: reason %q", reason)
	}
	if s := e.CompilerStatus(); s.Phase != CompilerFailed || s.Err != "tsc exited" {
		t.Errorf("failed: status %+v", s)
	}
}

func setWait(e *Engine, seconds int) {
	e.cfgMu.Lock()
	defer e.cfgMu.Unlock()
	e.cfg.CompilerWait = seconds
}
