package answer

import (
	"context"
	"fmt"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
)

// SymbolQuery asks for declarations by name.
type SymbolQuery struct {
	Name      string
	Mode      string // exact (""), prefix, fuzzy, or semantic (Name is plain words)
	Kinds     []string
	Paths     []string // already confined (ConfinePaths)
	Languages []string
	Limit     int
}

// FindSymbols lists declarations matching a name: from the symbol table for
// exact, prefix and fuzzy matches, from the ranking pipeline (ungated,
// unbudgeted) for semantic ones.
func (x Local) FindSymbols(ctx context.Context, q SymbolQuery) ([]Declaration, error) {
	cs, err := x.findSymbols(ctx, q)
	if err != nil {
		return nil, err
	}
	ds := make([]Declaration, len(cs))
	for i, c := range cs {
		ds[i] = declarationOf(c)
	}
	return ds, nil
}

func (x Local) findSymbols(ctx context.Context, q SymbolQuery) ([]chunk.Chunk, error) {
	langs := make([]string, len(q.Languages))
	for i, l := range q.Languages {
		langs[i] = search.NormalizeLanguage(l)
	}
	q.Languages = langs
	switch q.Mode {
	case "", "exact", "prefix", "fuzzy":
		return x.Store.FindSymbols(store.SymbolQuery{Name: q.Name, Match: store.SymbolMatch(q.Mode), Kinds: q.Kinds, Paths: q.Paths, Languages: q.Languages, Limit: q.Limit})
	case "semantic":
	default:
		return nil, fmt.Errorf("find symbols: unknown mode %q (want exact, prefix, fuzzy or semantic)", q.Mode)
	}
	prm := search.DefaultParams()
	prm.Threshold, prm.Budget, prm.Candidates = 0, 0, max(40, q.Limit*3)
	resp, err := x.Pipeline.Search(ctx, search.Request{Query: q.Name, Paths: q.Paths, Languages: q.Languages, Params: prm})
	if err != nil {
		return nil, err
	}
	var found []chunk.Chunk
	for _, r := range resp.Results {
		c := r.Chunk
		if (len(q.Kinds) == 0 || c.NodeKind == q.Kinds[0]) && !statementKind(c.NodeKind) && len(found) < q.Limit {
			found = append(found, c)
		}
	}
	return found, nil
}
