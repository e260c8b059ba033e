package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/textfmt"
)

// While TypeScript 7 loads a workspace's project (seconds on a large one),
// the engine says so instead of answering as if it were absent: a question
// that needs the compiler waits for it up to compilerWait seconds, and one
// still unanswered by then is answered from the index with the reason
// "TypeScript 7 is still loading …"; CompilerStatus gives the same state to
// doctor and to the MCP server's notes.

// Compiler phases.
const (
	CompilerAbsent  = "absent"  // not found, not started, or not asked for
	CompilerLoading = "loading" // started, loading the project
	CompilerReady   = "ready"
	CompilerFailed  = "failed" // could not be started
)

// CompilerStatus is the TypeScript 7 server's state.
type CompilerStatus struct {
	Phase string `json:"phase"`
	// Files is how many files the project being loaded holds.
	Files int `json:"files,omitempty"`
	// Elapsed is how long it has been loading (loading), or took (ready).
	Elapsed time.Duration `json:"elapsed,omitempty"`
	// Wait is how long a question waits for a loading compiler.
	Wait time.Duration `json:"wait,omitempty"`
	Err  string        `json:"error,omitempty"`
}

// warmup follows the compiler's start.
type warmup struct {
	mu    sync.Mutex
	phase string
	files int
	since time.Time
	took  time.Duration
	err   string
	done  chan struct{} // closed when loading ends, either way
}

func (w *warmup) begin(files int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.phase, w.files, w.since, w.err = CompilerLoading, files, time.Now(), ""
	w.done = make(chan struct{})
}

func (w *warmup) finish(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.phase != CompilerLoading {
		return
	}
	w.took = time.Since(w.since)
	w.phase = CompilerReady
	if err != nil {
		w.phase, w.err = CompilerFailed, err.Error()
	}
	close(w.done)
}

// CompilerStatus is the TypeScript 7 server's state, as answers report it.
func (e *Engine) CompilerStatus() CompilerStatus {
	w := &e.compiler.warm
	w.mu.Lock()
	defer w.mu.Unlock()
	s := CompilerStatus{Phase: w.phase, Files: w.files, Err: w.err, Wait: e.compilerWait()}
	switch w.phase {
	case "":
		s.Phase = CompilerAbsent
		if e.Compiler() != nil {
			s.Phase = CompilerReady
		}
	case CompilerLoading:
		s.Elapsed = time.Since(w.since)
	case CompilerReady:
		s.Elapsed = w.took
	}
	return s
}

func (e *Engine) compilerWait() time.Duration {
	return time.Duration(e.conf().CompilerWait) * time.Second
}

// awaitCompiler is the attached compiler, waiting for it up to
// compilerWait when it is still loading. reason is why there is none: ""
// when there is one, how far it got when it is still loading, else why
// there is none (noCompiler: not found, failed to start).
func (e *Engine) awaitCompiler(ctx context.Context) (comp *Compiler, reason string) {
	if comp := e.Compiler(); comp != nil {
		return comp, ""
	}
	w := &e.compiler.warm
	w.mu.Lock()
	phase, done := w.phase, w.done
	w.mu.Unlock()
	if phase != CompilerLoading {
		return nil, e.noCompiler()
	}
	if wait := e.compilerWait(); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
		case <-ctx.Done():
		}
	}
	if comp := e.Compiler(); comp != nil {
		return comp, ""
	}
	if s := e.CompilerStatus(); s.Phase == CompilerLoading {
		return nil, LoadingReason(s)
	}
	return nil, e.noCompiler()
}

// LoadingReason says how far a loading compiler has got, or why there is
// none; it is what answers from the index give as their reason.
func LoadingReason(s CompilerStatus) string {
	switch s.Phase {
	case CompilerLoading:
		return fmt.Sprintf("%s (%s files, %s so far)", answer.ReasonLoading,
			textfmt.Thousands(s.Files), s.Elapsed.Round(100*time.Millisecond))
	case CompilerFailed:
		return answer.ReasonNotStarted + ": " + s.Err
	}
	return answer.ReasonNoServer
}
