package answer

import (
	"context"
	"errors"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/tsls"
)

// source answers structural questions about declarations. Two implement
// it: compilerSource (TypeScript 7, exact) and syntactic (the index,
// approximate); ask chooses between them.
type source interface {
	// metadata is SymbolMetadata with the sections and call depth opts
	// asks for.
	metadata(ctx context.Context, c chunk.Chunk, opts structure.Options) (*structure.SymbolMetadata, error)
	// describe is a result as the connection graph shows it.
	describe(ctx context.Context, c chunk.Chunk, callDepth int) (graph.Result, error)
	references(ctx context.Context, c chunk.Chunk, limit int) ([]Site, error)
	implementations(ctx context.Context, c chunk.Chunk) ([]Declaration, error)
	definitionAt(ctx context.Context, absFile string, line, column int) ([]Declaration, error)
}

// Why structure came from the index rather than the compiler; the engine
// gives the first three (Local.Compiler).
const (
	ReasonNoServer   = "TypeScript server unavailable"
	ReasonLoading    = "TypeScript 7 is still loading the project"
	ReasonNotStarted = "TypeScript 7 did not start"
	reasonNoAnswer   = "TypeScript 7 did not answer"
	reasonAnonymous  = "it has no name of its own to ask the compiler about (a callback, a default export, an assignment to a path)"
	reasonUnresolved = "the compiler did not resolve it"
)

// ask is the one place the fallback is chosen: a question goes to the
// compiler when one is attached and the declaration has a name to ask
// about (named), and to the index otherwise or when the compiler fails.
// reason is "" when the compiler answered, else why the index did.
//
// While the compiler is still loading, the question waits for it up to the
// configured time (Local.Compiler); the reason then says how far it got.
func ask[T any](ctx context.Context, x Local, named bool, q func(source) (T, error)) (v T, reason string, err error) {
	comp, reason := x.compiler(ctx)
	if comp != nil {
		if !named {
			reason = reasonAnonymous
		} else {
			v, err = q(compilerSource{comp, x.Root.Dir()})
			if err == nil {
				return v, "", nil
			}
			reason = reasonUnresolved
			if errors.Is(err, tsls.ErrClosed) || errors.Is(err, tsls.ErrTimeout) || errors.Is(err, tsls.ErrCrashLoop) || errors.Is(err, tsls.ErrBlockingFile) {
				reason = reasonNoAnswer + ": " + err.Error()
			}
		}
	}
	v, err = q(syntactic{ix: x, reason: reason})
	return v, reason, err
}

// named reports whether a declaration has a name the compiler can be asked
// about: callbacks, default exports, assignments to a path (the compiler
// reads Runner.prototype.run = function … as an untyped value) and computed
// names do not.
func named(c chunk.Chunk) bool { return ident.Is(strings.TrimPrefix(c.Name, "#")) }

// metadataOf is SymbolMetadata for a chunk: from the compiler when
// attached, else from the index (marked approximate, with the reason).
func (x Local) metadataOf(ctx context.Context, c chunk.Chunk, opts structure.Options) (*structure.SymbolMetadata, error) {
	md, _, err := ask(ctx, x, named(c), func(s source) (*structure.SymbolMetadata, error) { return s.metadata(ctx, c, opts) })
	return md, err
}
