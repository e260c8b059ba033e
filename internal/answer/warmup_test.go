package answer_test

import (
	"context"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// TestWarmupAnswersAgree starts the real TypeScript 7 in the background,
// as `scry serve` does, and asks for references at once: the question
// waits for the compiler (within compilerWait) instead of answering from
// the index, so the first answer is the compiler's and equals a later one.
func TestWarmupAnswersAgree(t *testing.T) {
	bin := tslstest.Binary(t)
	ctx := context.Background()
	env := map[string]string{"SCRY_TSGO": bin, "SCRY_COMPILER_WAIT": "120"}
	e := openIndexed(t, "../../testdata/project", engine.Options{Compiler: engine.CompilerBackground, Getenv: func(k string) string { return env[k] }})
	syms, err := reads(e).Symbols("TokenService")
	if err != nil || len(syms) == 0 {
		t.Fatalf("symbols: %v", err)
	}
	first, err := reads(e).References(ctx, syms[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	if first.Approximate {
		t.Errorf("the first answer came from the index (status %+v)", e.CompilerStatus())
	}
	if s := e.CompilerStatus(); s.Phase != engine.CompilerReady || s.Files == 0 {
		t.Errorf("status after the first answer: %+v", s)
	}
	later, err := reads(e).References(ctx, syms[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Sites) != len(later.Sites) {
		t.Errorf("first answer %d sites, later %d", len(first.Sites), len(later.Sites))
	}
}
