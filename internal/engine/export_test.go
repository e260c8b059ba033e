package engine

import "github.com/scry-dev/scry/internal/store"

// Store is the engine's index, for tests that look at chunks directly.
func (e *Engine) Store() *store.Store { return e.store }

// Vectors is how many vectors the in-memory index holds (0 without an
// embedder); it loads them if no question has yet.
func (e *Engine) Vectors() (int, error) {
	ix, err := e.neural.vectors()
	if ix == nil {
		return 0, err
	}
	return ix.Len(), nil
}
