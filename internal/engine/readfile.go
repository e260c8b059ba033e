package engine

import (
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/workspace"
)

// localIndex is what an answer from the workspace's own index reads: the
// store, and the workspace's files within the index's size limit. The
// syntactic source and the text fallbacks (resolve, textReferences,
// textImplementations) take it rather than the whole engine, so what they
// may touch is written here.
type localIndex struct {
	store *store.Store
	root  *workspace.Root
	limit int64 // the largest file read, as the indexer reads them
}

// local is the engine's local index as it stands (Rebuild replaces the
// store).
func (e *Engine) local() localIndex {
	limit := int64(workspace.DefaultMaxFileSize)
	if e.indexer != nil {
		limit = e.indexer.ReadLimit()
	}
	return localIndex{store: e.store, root: e.root, limit: limit}
}

// readFile reads a workspace file for an answer or a file tool: only a
// regular file (never a FIFO or a device, which would block or never end),
// opened inside the root, within the index's file size limit.
func (x localIndex) readFile(abs string) ([]byte, error) {
	return x.root.ReadFile(abs, x.limit)
}
