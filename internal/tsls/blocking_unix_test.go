//go:build unix

package tsls_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// TestFIFOUnderIncludeRefusesStart: a FIFO named like a source under the
// root (here imported) holds TypeScript 7 in its project load until the
// ready timeout (120 s for every structure command); the start is refused
// at once, naming the file.
func TestFIFOUnderIncludeRefusesStart(t *testing.T) {
	bin := tslstest.Binary(t)
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(os.WriteFile(filepath.Join(root, "tsconfig.json"), []byte(`{"include":["src/**/*"]}`), 0o644))
	must(os.WriteFile(filepath.Join(root, "src", "a.ts"), []byte("import { p } from './pipe';\nexport const a = p;\n"), 0o644))
	must(syscall.Mkfifo(filepath.Join(root, "src", "pipe.ts"), 0o644))
	srv, err := tsls.StartWithOptions(context.Background(), tsls.Options{Root: root, TsgoPath: bin, ReadyTimeout: 20 * time.Second})
	if err == nil {
		srv.Close()
		t.Fatal("started with a FIFO under its include")
	}
	if !errors.Is(err, tsls.ErrBlockingFile) || !strings.Contains(err.Error(), "src/pipe.ts is a FIFO") {
		t.Errorf("error %q, want ErrBlockingFile naming src/pipe.ts", err)
	}
}

// TestFileSwappedForFIFOStopsTheServer: a running server told that a
// source it reads changed, when the source is now a FIFO, would block
// re-reading it and hold every later request. It is stopped instead (not
// counted as a crash): the notice and the requests after it are refused at
// once, naming the file, and once the file is a file again a request starts
// a new server. The deadline only keeps a regression from hanging.
func TestFileSwappedForFIFOStopsTheServer(t *testing.T) {
	bin := tslstest.Binary(t)
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(root, "src")
	must(os.MkdirAll(src, 0o755))
	must(os.WriteFile(filepath.Join(root, "tsconfig.json"), []byte(`{"include":["src/**/*"]}`), 0o644))
	a, b := filepath.Join(src, "a.ts"), filepath.Join(src, "b.ts")
	must(os.WriteFile(a, []byte("export const a = 1;\n"), 0o644))
	must(os.WriteFile(b, []byte("import { a } from './a';\nexport const b = a;\n"), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := tsls.StartWithOptions(ctx, tsls.Options{Root: root, TsgoPath: bin, ReadyTimeout: time.Minute})
	must(err)
	defer srv.Close()
	at := tsls.Position{Line: 0, Character: 13}
	if _, err := srv.References(ctx, a, at, false); err != nil {
		t.Fatalf("before the swap: %v", err)
	}

	must(os.Remove(b))
	must(syscall.Mkfifo(b, 0o644))
	err = srv.FilesChanged(ctx, b)
	if !errors.Is(err, tsls.ErrBlockingFile) || !strings.Contains(err.Error(), "src/b.ts is a FIFO") {
		t.Errorf("notice of the swap: %v, want ErrBlockingFile naming src/b.ts", err)
	}
	if _, err := srv.References(ctx, a, at, false); !errors.Is(err, tsls.ErrBlockingFile) || !strings.Contains(err.Error(), "src/b.ts is a FIFO") {
		t.Errorf("request after the swap: %v, want ErrBlockingFile naming src/b.ts", err)
	}
	if ctx.Err() != nil {
		t.Fatal("a request waited for the deadline")
	}
	if n := srv.Restarts(); n != 0 {
		t.Errorf("restarts %d: stopping it on purpose is not a crash", n)
	}

	must(os.Remove(b))
	must(os.WriteFile(b, []byte("import { a } from './a';\nexport const b = a;\n"), 0o644))
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
	bin := tslstest.Binary(t)
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "tsconfig.json"), []byte(`{}`), 0o644))
	a := filepath.Join(root, "a.ts")
	must(os.WriteFile(a, []byte("export const a = 1;\nexport const b = a;\n"), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := tsls.StartWithOptions(ctx, tsls.Options{Root: root, TsgoPath: bin, ReadyTimeout: time.Minute})
	must(err)
	defer srv.Close()
	at := tsls.Position{Line: 0, Character: 13}
	if _, err := srv.References(ctx, a, at, false); err != nil {
		t.Fatalf("before the swap: %v", err)
	}
	must(os.Remove(a))
	must(syscall.Mkfifo(a, 0o644))
	if _, err := srv.References(ctx, a, at, false); !errors.Is(err, tsls.ErrBlockingFile) || !strings.Contains(err.Error(), "a.ts is a FIFO") {
		t.Errorf("request after the swap: %v, want ErrBlockingFile naming a.ts", err)
	}
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
