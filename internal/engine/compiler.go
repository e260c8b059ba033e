package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/tsls"
)

// Compiler answers structure with the TypeScript 7 language server.
type Compiler struct {
	srv  *tsls.Server
	res  *structure.Compiler
	root string
}

// attachCompiler finds TypeScript 7 and starts it for the workspace, so
// structure comes from the compiler; when it cannot be found or started,
// warn hears why (wrapped around ErrApproximate) and answers come from the
// index, marked approximate. With wait false the server starts in the
// background and answers switch to it once its project is loaded. Close
// shuts it down.
func (e *Engine) attachCompiler(ctx context.Context, flag, cacheDir string, wait bool, warn func(error)) {
	if warn == nil {
		warn = func(error) {}
	}
	// The workspace's own node_modules TypeScript runs only when the user
	// trusts the workspace (config.CheckTrust).
	path, _, err := tsls.Find(tsls.FindOptions{Flag: flag, Root: e.root.Dir(), CacheDir: cacheDir,
		TrustWorkspace: e.conf().Origin.Trust.Trusted,
		PassedOver: func(nm string) {
			warn(fmt.Errorf("not running the TypeScript in %s: the workspace is not trusted (`scry trust`)", nm))
		}})
	if err != nil {
		warn(fmt.Errorf("%w: %w", ErrApproximate, err))
		return
	}
	// The server outlives the call that opened the engine: Close stops it.
	sctx := context.WithoutCancel(ctx)
	files := 0
	if fs, err := e.sourceFiles(); err == nil {
		files = len(fs)
	}
	e.compiler.warm.begin(files)
	start := func() *Compiler {
		comp, err := e.startCompiler(sctx, path)
		if err != nil {
			// The error's own prefixes say what the reason already does.
			why := err.Error()
			for _, p := range []string{"start TypeScript 7: ", "tsls: ", "not started: "} {
				why = strings.TrimPrefix(why, p)
			}
			e.setWhy(answer.ReasonNotStarted + ": " + why)
			e.compiler.warm.finish(err) // after the reason, which the questions it releases read
			warn(fmt.Errorf("%w: %w", ErrApproximate, err))
			return nil
		}
		e.setCompiler(comp)
		e.compiler.warm.finish(nil)
		return comp
	}
	stop := func(comp *Compiler) {
		if comp != nil {
			e.setCompiler(nil)
			comp.Close()
		}
	}
	if wait {
		comp := start()
		e.stopCompiler = func() { stop(comp) }
		return
	}
	// Until it is loaded, answers from the index say so: they may differ
	// from the compiler's.
	e.setWhy(answer.ReasonLoading)
	done := make(chan *Compiler, 1)
	go func() { done <- start() }()
	e.stopCompiler = func() {
		select {
		case comp := <-done:
			stop(comp)
		default:
			// Still starting: the process ends with scry.
		}
	}
}

// startCompiler starts tsgo for the workspace and waits until its project
// is loaded: the configured projects, and one program of the indexed files
// no tsconfig.json governs.
func (e *Engine) startCompiler(ctx context.Context, tsgoPath string) (*Compiler, error) {
	files, err := e.sourceFiles()
	if err != nil {
		return nil, fmt.Errorf("start TypeScript 7: %w", err)
	}
	root := e.root.Dir()
	srv, err := tsls.StartWithOptions(ctx, tsls.Options{Root: root, TsgoPath: tsgoPath, ProgramFiles: files})
	if err != nil {
		return nil, fmt.Errorf("start TypeScript 7: %w", err)
	}
	return &Compiler{srv: srv, res: structure.NewCompiler(srv), root: root}, nil
}

// sourceFiles lists the indexed files as absolute paths.
func (e *Engine) sourceFiles() ([]string, error) {
	recs, err := e.store.AllFiles()
	if err != nil {
		return nil, err
	}
	files := make([]string, len(recs))
	for i, r := range recs {
		files[i] = filepath.Join(e.root.Dir(), filepath.FromSlash(r.Path))
	}
	return files, nil
}

// Close shuts the language server down.
func (c *Compiler) Close() error { return c.srv.Close() }

// Server is the underlying language server.
func (c *Compiler) Server() *tsls.Server { return c.srv }

// compilerBox holds the compiler once it is ready; until then (and if it
// never starts) answers come from the index, saying why (why).
type compilerBox struct {
	p    atomic.Pointer[Compiler]
	why  atomic.Pointer[string]
	warm warmup
}

// setWhy records why answers come from the index while no compiler is
// attached.
func (e *Engine) setWhy(why string) { e.compiler.why.Store(&why) }

// noCompiler is why answers come from the index while no compiler is
// attached: still loading, failed to start, or not found.
func (e *Engine) noCompiler() string {
	if w := e.compiler.why.Load(); w != nil {
		return *w
	}
	return answer.ReasonNoServer
}

// setCompiler makes structure answers come from the compiler (nil: from the
// index again).
func (e *Engine) setCompiler(c *Compiler) {
	if c != nil {
		// A sync may have added or removed files since c started: c
		// learns of them before any question reaches it, so no answer
		// comes from a program missing files the index has.
		e.updateProgram(context.Background(), c)
	}
	e.compiler.p.Store(c)
	e.described.Clear()
}

// updateProgram gives the compiler the index's current file list.
func (e *Engine) updateProgram(ctx context.Context, c *Compiler) {
	if files, err := e.sourceFiles(); err == nil {
		_ = c.srv.SetProgramFiles(ctx, files) // on failure the list is kept: a restarted server opens it
	}
}

// Compiler returns the attached compiler, or nil.
func (e *Engine) Compiler() *Compiler { return e.compiler.p.Load() }
