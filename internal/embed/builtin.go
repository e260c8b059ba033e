package embed

import (
	"context"
	"fmt"

	"github.com/scry-dev/scry/internal/embed/builtin"
)

// ProviderBuiltin is scry's own static code-search model, compiled into
// the binary (package builtin): no download, no runtime, no key.
const ProviderBuiltin = "builtin"

// BuiltinEmbedder embeds with the shipped model.
type BuiltinEmbedder struct{ m *builtin.Model }

// NewBuiltin loads the shipped model.
func NewBuiltin() (*BuiltinEmbedder, error) {
	m, err := builtin.Default()
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	return &BuiltinEmbedder{m: m}, nil
}

func (b *BuiltinEmbedder) ModelID() string { return b.m.ID() }
func (b *BuiltinEmbedder) Dim() int        { return b.m.Dim() }

// ModelSize is the model's size in bytes, as compiled in.
func (b *BuiltinEmbedder) ModelSize() int { return b.m.Size() }

// EmbedDocuments embeds chunk texts; it checks ctx between texts only, as
// one text takes microseconds.
func (b *BuiltinEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = b.m.Embed(t, builtin.Doc)
	}
	return out, nil
}

func (b *BuiltinEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return b.m.Embed(text, builtin.Query), nil
}

func (b *BuiltinEmbedder) Close() error { return nil }

// DefaultProvider is the embedder used when none is configured: the
// built-in model, whose nearest neighbours join the lexical candidates.
// Measured on fix commits, JSDoc questions and agent questions alike it
// ranks better than lexical candidates alone (BENCHMARKS.md), for a larger
// index and a slower first index (the vectors); "none" turns vector search
// off.
const DefaultProvider = ProviderBuiltin
