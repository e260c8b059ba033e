package answer_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// The questions' tests ask them of a real engine over a real index (and
// TypeScript 7 where they need the compiler): these are the set-ups they
// share.

// reads is the local form of e's View, which the structure questions
// read (a local engine always has one).
func reads(e *engine.Engine) answer.Local {
	l, err := e.Local(context.Background())
	if err != nil {
		panic(err)
	}
	return l
}

// openIndexed opens root with an index of its own, synced, reading none of
// the user's settings unless opt.Getenv is given; opt adds the rest (the
// compiler, watching). The engine is closed when the test ends.
func openIndexed(t testing.TB, root string, opt engine.Options) *engine.Engine {
	t.Helper()
	opt.Root, opt.IndexPath, opt.Sync = root, filepath.Join(t.TempDir(), "index.db"), true
	if opt.Getenv == nil {
		opt.Getenv = func(string) string { return "" }
	}
	e, err := engine.Open(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// withTSGo is options that attach the TypeScript 7 at bin in mode; wait
// (seconds, unless negative) sets how long a question waits for it while
// it loads.
func withTSGo(bin string, mode engine.CompilerMode, wait int) engine.Options {
	return engine.Options{Compiler: mode, Configure: func(c *config.Config) error {
		c.TSGo = bin
		if wait >= 0 {
			c.CompilerWait = wait
		}
		return nil
	}}
}

// openCompiled is openIndexed with TypeScript 7 attached and loaded.
func openCompiled(t testing.TB, root string, opt engine.Options) *engine.Engine {
	t.Helper()
	ts := withTSGo(tslstest.Binary(t), engine.CompilerWait, -1)
	opt.Compiler, opt.Configure = ts.Compiler, ts.Configure
	e := openIndexed(t, root, opt)
	if e.Compiler() == nil {
		t.Fatal("no compiler attached")
	}
	return e
}

// bothSources runs check on an engine answering from the index alone
// (approximate) and on one answering from the TypeScript 7 compiler.
func bothSources(t *testing.T, root string, check func(t *testing.T, e *engine.Engine, approximate bool)) {
	t.Run("index", func(t *testing.T) {
		check(t, openIndexed(t, root, engine.Options{}), true)
	})
	t.Run("compiler", func(t *testing.T) {
		check(t, openCompiled(t, root, engine.Options{}), false)
	})
}

// theSymbol is the one declaration a symbol path names in e.
func theSymbol(t testing.TB, e *engine.Engine, path string) answer.Symbol {
	t.Helper()
	syms, err := reads(e).Symbols(path)
	if err != nil || len(syms) != 1 {
		t.Fatalf("Symbols(%s) = %v, %v; want one", path, syms, err)
	}
	return syms[0]
}

// importersCase is a target of an importers question and its importers,
// each as "file (via)", in order.
type importersCase struct {
	target string
	want   []string
}

// wantImporters asks for each case's importers and checks them; it
// returns the answers by target, for checks of a test's own.
func wantImporters(t testing.TB, e *engine.Engine, cases []importersCase) map[string][]answer.Importer {
	t.Helper()
	answers := map[string][]answer.Importer{}
	for _, tc := range cases {
		imps, err := reads(e).Importers(context.Background(), tc.target)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]string, len(imps))
		for i, im := range imps {
			got[i] = im.File + " (" + im.Via + ")"
		}
		if got, want := strings.Join(got, "\n"), strings.Join(tc.want, "\n"); got != want {
			t.Errorf("importers %s:\n%s\nwant\n%s", tc.target, got, want)
		}
		answers[tc.target] = imps
	}
	return answers
}
