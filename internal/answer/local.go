package answer

import (
	"context"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/workspace"
)

// Local is the local form of a View: the reads of a workspace's own index
// that the structure questions (symbols, info, references,
// implementations, definitions, call trees, outlines, importers, change
// impact) make. The engine hands it out per question (Engine.Local): on a
// shared index it is this machine's checkout of the repository. The
// syntactic source and the text fallbacks read it alone, so what they may
// touch is written here.
type Local struct {
	Store *store.Store
	Root  *workspace.Root
	// ReadLimit is the largest file read, as the indexer reads them.
	ReadLimit int64
	// Exclude are the configured excludes, hidden from what the questions
	// list of the workspace's files too.
	Exclude []string
	// Pipeline is the ranking pipeline over Store (semantic symbol
	// search).
	Pipeline search.Pipeline
	// Compiler is the attached TypeScript 7, waiting for a loading one
	// up to the configured time; when there is none, reason says why
	// (ReasonNoServer, ReasonLoading …, ReasonNotStarted …). Nil: never
	// one.
	Compiler func(ctx context.Context) (comp *structure.Compiler, reason string)
	// Described keeps compiler descriptions between questions; nil keeps
	// none.
	Described *DescribeCache
}

// readFile reads a workspace file for an answer or a file tool: only a
// regular file (never a FIFO or a device, which would block or never end),
// opened inside the root, within the index's file size limit.
func (x Local) readFile(abs string) ([]byte, error) {
	return x.Root.ReadFile(abs, x.ReadLimit)
}

// ReadFile is readFile for the engine's own reads of the workspace (file
// snapshots, publishing).
func (x Local) ReadFile(abs string) ([]byte, error) { return x.readFile(abs) }

// compiler is the attached compiler (nil when there is none, with why).
func (x Local) compiler(ctx context.Context) (*structure.Compiler, string) {
	if x.Compiler == nil {
		return nil, ReasonNoServer
	}
	return x.Compiler(ctx)
}
