package engine

import "github.com/scry-dev/scry/internal/store"

// MetadataOf lets tests ask about any chunk, including the anonymous ones
// no symbol path names.
var MetadataOf = (*Engine).metadataOf

// Store is the engine's index, for tests that look at chunks directly.
func (e *Engine) Store() *store.Store { return e.store }
