// Package enginetest gives the answer-latency benchmarks their workspace
// and questions, so that the in-process and MCP figures measure the same
// thing.
package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/index"
)

// WarmUp are asked before measuring: they load the tokenizer and the
// server's caches, and are not among Questions, so that every measured
// ask is the first time that question is asked.
var WarmUp = []string{"log a warning message", "subscribe to a stream of events", "a layer that provides a service"}

// Questions reads testdata/questions.txt at the module root.
func Questions(tb testing.TB) []string {
	tb.Helper()
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "questions.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	var qs []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			qs = append(qs, line)
		}
	}
	return qs
}

// Workspace copies the TypeScript sources (src/) of the test corpus's rxjs
// and effect into a new directory and returns an engine on it with its
// index built and the compiler attached as asked, closed when the
// benchmark ends. Without $SCRY_CORPUS the benchmark is skipped.
func Workspace(tb testing.TB, compiler engine.CompilerMode) (*engine.Engine, index.Summary) {
	tb.Helper()
	corpus := os.Getenv("SCRY_CORPUS")
	if corpus == "" {
		tb.Skip("SCRY_CORPUS not set")
	}
	root := tb.TempDir()
	for _, pkg := range []string{"rxjs", "effect"} {
		src := filepath.Join(corpus, "node_modules", pkg, "src")
		if err := os.CopyFS(filepath.Join(root, pkg), os.DirFS(src)); err != nil {
			tb.Fatalf("copy %s: %v", src, err)
		}
	}
	e, err := engine.Open(context.Background(), engine.Options{
		Root: root, IndexPath: filepath.Join(tb.TempDir(), "index.db"),
		Sync: true, Compiler: compiler,
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close() })
	return e, e.LastSync()
}
