package main

import (
	"context"
	"io"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
)

// attachCompiler connects the TypeScript 7 server when one can be found, so
// structure comes from the compiler; otherwise scry answers from the index
// and marks those answers approximate.
func attachCompiler(ctx context.Context, e *engine.Engine, cfg config.Config, log io.Writer) {
}
