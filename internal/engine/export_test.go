package engine

import "github.com/scry-dev/scry/internal/store"

// Store is the engine's index, for tests that look at chunks directly.
func (e *Engine) Store() *store.Store { return e.store }
