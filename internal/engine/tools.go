package engine

import (
	"context"

	"github.com/scry-dev/scry/internal/chunk"
)

// navigator answers navigation questions with the compiler. Without one,
// the engine answers from the index and says the answer is approximate.
type navigator interface {
	References(ctx context.Context, c chunk.Chunk, limit int) ([]Site, error)
	Implementations(ctx context.Context, c chunk.Chunk) ([]Declaration, error)
	DefinitionAt(ctx context.Context, absFile string, line, column int) ([]Declaration, error)
}

// statementKind reports whether a chunk kind is a statement rather than a
// named declaration (imports, re-exports, expressions, comments).
func statementKind(k string) bool {
	switch k {
	case "import", "re-export", "comment", "expression", "statement":
		return true
	}
	return false
}
