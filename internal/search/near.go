package search

import (
	"cmp"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/scry-dev/scry/internal/chunk"
)

// maxNear bounds the symbols a missed lookup suggests.
const maxNear = 8

// NearSymbols names what a symbol path that matched nothing most likely
// meant, so that an agent's guess or typo costs one answer, not a search:
// the name itself elsewhere (under another parent or in another file:
// `HonoBase > fetch` is `Hono > fetch`), else the members of the parent
// it names whose names are closest (`Hono > fetchx` → `Hono > fetch`). At
// most maxNear, in LookupSymbol's order or closest first; none when
// neither finds anything (a bare name's typo is the ranked search's).
func NearSymbols(st Reader, p SymbolPath, paths, languages []string) ([]chunk.Chunk, error) {
	if len(p.Parents) > 0 || p.File != "" {
		same, err := LookupSymbol(st, SymbolPath{Name: p.Name}, paths, languages)
		if len(p.Parents) > 0 {
			// The parent whose name is closest to the one asked for first
			// (`HonoBase > fetch`: Hono's fetch before FetcherLike's).
			parent := strings.ToLower(p.Parents[len(p.Parents)-1])
			dist := make(map[string]int, len(same))
			for _, c := range same {
				if _, ok := dist[c.ParentName]; !ok {
					dist[c.ParentName] = levenshtein.ComputeDistance(parent, strings.ToLower(c.ParentName))
				}
			}
			slices.SortStableFunc(same, func(a, b chunk.Chunk) int {
				return cmp.Compare(dist[a.ParentName], dist[b.ParentName])
			})
		}
		if err != nil || len(same) > 0 {
			return same[:min(len(same), maxNear)], err
		}
	}
	if len(p.Parents) == 0 {
		return nil, nil
	}
	last := len(p.Parents) - 1
	parents, err := LookupSymbol(st, SymbolPath{File: p.File, Parents: p.Parents[:last], Name: p.Parents[last]}, paths, languages)
	if err == nil && len(parents) == 0 {
		parents, err = LookupSymbol(st, SymbolPath{Name: p.Parents[last]}, paths, languages)
	}
	if err != nil || len(parents) == 0 {
		return nil, err
	}
	var ids []string
	for _, c := range parents {
		ids = append(ids, c.ChildChunkIDs...)
	}
	kids, err := st.ChunksByIDs(ids)
	if err != nil {
		return nil, err
	}
	want := strings.ToLower(p.Name)
	type near struct {
		c    chunk.Chunk
		dist int
	}
	var out []near
	for _, c := range kids {
		name := strings.ToLower(c.Name)
		d := levenshtein.ComputeDistance(want, name)
		// Close enough to be a typo or another spelling (a third of the
		// name, at least two edits), or one name containing the other
		// (`fetch` for `fetchAll`).
		contains := len(name) >= 3 && len(want) >= 3 && (strings.Contains(name, want) || strings.Contains(want, name))
		if d <= max(2, len(want)/3) || contains {
			out = append(out, near{c, d})
		}
	}
	slices.SortFunc(out, func(a, b near) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), strings.Compare(a.c.RelativePath, b.c.RelativePath), cmp.Compare(a.c.StartLine, b.c.StartLine))
	})
	res := make([]chunk.Chunk, 0, min(len(out), maxNear))
	for _, n := range out[:min(len(out), maxNear)] {
		res = append(res, n.c)
	}
	return res, nil
}
