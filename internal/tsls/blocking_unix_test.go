//go:build unix

package tsls_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// fifoProject writes files (slash paths) under a new root and makes a
// FIFO at each of fifos.
func fifoProject(t *testing.T, files map[string]string, fifos ...string) string {
	t.Helper()
	root := testkit.Tree(t, files)
	for _, f := range fifos {
		testkit.FIFO(t, filepath.Join(root, filepath.FromSlash(f)))
	}
	return root
}

// wantBlocking checks that err is ErrBlockingFile naming name as a FIFO.
func wantBlocking(t *testing.T, what string, err error, name string) {
	t.Helper()
	if !errors.Is(err, tsls.ErrBlockingFile) || !strings.Contains(err.Error(), name+" is a FIFO") {
		t.Errorf("%s: %v, want ErrBlockingFile naming %s", what, err, name)
	}
}

// startSwapping starts TypeScript 7 on root within ctx, checks that it
// answers a question about a, then replaces the file at swapped with a FIFO.
func startSwapping(t *testing.T, ctx context.Context, root, a, swapped string) (*tsls.Server, tsls.Position) {
	t.Helper()
	srv, err := tsls.StartWithOptions(ctx, tsls.Options{Root: root, TsgoPath: tslstest.Binary(t), ReadyTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	at := tsls.Position{Line: 0, Character: 13}
	if _, err := srv.References(ctx, a, at, false); err != nil {
		t.Fatalf("before the swap: %v", err)
	}
	if err := os.Remove(swapped); err != nil {
		t.Fatal(err)
	}
	testkit.FIFO(t, swapped)
	return srv, at
}

// TestFIFOUnderIncludeRefusesStart: a FIFO named like a source under the
// root (here imported) holds TypeScript 7 in its project load until the
// ready timeout (120 s for every structure command); the start is refused
// at once, naming the file.
func TestFIFOUnderIncludeRefusesStart(t *testing.T) {
	bin := tslstest.Binary(t)
	root := fifoProject(t, map[string]string{
		"tsconfig.json": `{"include":["src/**/*"]}`,
		"src/a.ts":      "import { p } from './pipe';\nexport const a = p;\n",
	}, "src/pipe.ts")
	srv, err := tsls.StartWithOptions(context.Background(), tsls.Options{Root: root, TsgoPath: bin, ReadyTimeout: 20 * time.Second})
	if err == nil {
		srv.Close()
		t.Fatal("started with a FIFO under its include")
	}
	wantBlocking(t, "start", err, "src/pipe.ts")
}

// TestFileSwappedForFIFOStopsTheServer: a running server told that a
// source it reads changed, when the source is now a FIFO, would block
// re-reading it and hold every later request. It is stopped instead (not
// counted as a crash): the notice and the requests after it are refused at
// once, naming the file, and once the file is a file again a request starts
// a new server. The deadline only keeps a regression from hanging.
func TestFileSwappedForFIFOStopsTheServer(t *testing.T) {
	const bSrc = "import { a } from './a';\nexport const b = a;\n"
	root := fifoProject(t, map[string]string{
		"tsconfig.json": `{"include":["src/**/*"]}`,
		"src/a.ts":      "export const a = 1;\n",
		"src/b.ts":      bSrc,
	})
	a, b := filepath.Join(root, "src", "a.ts"), filepath.Join(root, "src", "b.ts")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, at := startSwapping(t, ctx, root, a, b)
	wantBlocking(t, "notice of the swap", srv.FilesChanged(ctx, b), "src/b.ts")
	_, err := srv.References(ctx, a, at, false)
	wantBlocking(t, "request after the swap", err, "src/b.ts")
	if ctx.Err() != nil {
		t.Fatal("a request waited for the deadline")
	}
	if n := srv.Restarts(); n != 0 {
		t.Errorf("restarts %d: stopping it on purpose is not a crash", n)
	}

	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	testkit.WriteTree(t, root, map[string]string{"src/b.ts": bSrc})
	for {
		locs, err := srv.References(ctx, a, at, false)
		if err == nil {
			if len(locs) == 0 {
				t.Error("no references once the file came back")
			}
			break
		}
		if !errors.Is(err, tsls.ErrBlockingFile) || ctx.Err() != nil {
			t.Fatalf("once the file came back: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestRequestedFileSwappedForFIFO: the file a request is about, found
// changed on disk before the request (no notice came), is now a FIFO: the
// request is refused at once, naming it, instead of the server blocking
// on re-reading it.
func TestRequestedFileSwappedForFIFO(t *testing.T) {
	root := fifoProject(t, map[string]string{
		"tsconfig.json": `{}`,
		"a.ts":          "export const a = 1;\nexport const b = a;\n",
	})
	a := filepath.Join(root, "a.ts")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, at := startSwapping(t, ctx, root, a, a)
	_, err := srv.References(ctx, a, at, false)
	wantBlocking(t, "request after the swap", err, "a.ts")
	if ctx.Err() != nil {
		t.Fatal("the request waited for the deadline")
	}
}

// TestSilentServerFailsWithinARequestTime: a "TypeScript 7" that never
// answers initialize is given up after a request's timeout, not after the
// project-load timeout.
func TestSilentServerFailsWithinARequestTime(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tsc")
	script := "#!/bin/sh\ncase \"$1\" in --version) echo 'Version 7.0.2';; *) exec sleep 300;; esac\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte("export const a = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := tsls.StartWithOptions(context.Background(), tsls.Options{Root: root, TsgoPath: bin, RequestTimeout: time.Second, ReadyTimeout: time.Minute})
	if err == nil {
		srv.Close()
		t.Fatal("a server that never answers started")
	}
	if !errors.Is(err, tsls.ErrTimeout) || !strings.Contains(err.Error(), "initialize") {
		t.Errorf("error %q, want ErrTimeout on initialize", err)
	}
}
