package engine

import "github.com/scry-dev/scry/internal/workspace"

// readFile reads a workspace file for an answer or a file tool: only a
// regular file (never a FIFO or a device, which would block or never end),
// opened inside the root, within the index's file size limit.
func (e *Engine) readFile(abs string) ([]byte, error) {
	limit := workspace.DefaultMaxFileSize
	if e.indexer != nil {
		limit = e.indexer.ReadLimit()
	}
	return e.root.ReadFile(abs, limit)
}
