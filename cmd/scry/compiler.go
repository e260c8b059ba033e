package main

import (
	"context"
	"fmt"
	"io"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/tsls"
)

// attachCompiler connects the TypeScript 7 server when one can be found, so
// structure comes from the compiler; otherwise scry answers from the index
// and marks those answers approximate. With wait false the server starts in
// the background and answers switch to it once its project is loaded. The
// returned function shuts it down.
func attachCompiler(ctx context.Context, e *engine.Engine, cfg config.Config, log io.Writer, wait bool) func() {
	dir, _ := cacheDir()
	path, _, err := tsls.Find(tsls.FindOptions{Flag: cfg.TSGo, Root: e.Root.Dir(), CacheDir: dir})
	if err != nil {
		fmt.Fprintf(log, "scry: structure is approximate: %v\n", err)
		return func() {}
	}
	start := func() *engine.Compiler {
		comp, err := e.StartCompiler(context.WithoutCancel(ctx), path)
		if err != nil {
			fmt.Fprintf(log, "scry: structure is approximate: %v\n", err)
			return nil
		}
		e.SetCompiler(comp)
		return comp
	}
	if wait {
		comp := start()
		return func() {
			if comp != nil {
				e.SetCompiler(nil)
				comp.Close()
			}
		}
	}
	done := make(chan *engine.Compiler, 1)
	go func() { done <- start() }()
	return func() {
		select {
		case comp := <-done:
			if comp != nil {
				e.SetCompiler(nil)
				comp.Close()
			}
		default:
		}
	}
}
