package search

import (
	"context"
	"fmt"
	"sort"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/vector"
)

// DefaultRRFK is reciprocal rank fusion's k: a document at rank r in a list
// contributes 1/(k + r). 60 is the value of the original RRF paper and of
// most engines; it keeps one list's top ranks from drowning the other's.
const DefaultRRFK = 60

// VectorStore is a store that keeps its chunks' vectors and finds the
// nearest ones itself (the shared index on a cluster): the ids of the k
// chunks whose vectors of model are nearest q, within paths and languages.
type VectorStore interface {
	Nearest(ctx context.Context, q []float32, model string, k int, paths, languages []string) ([]string, error)
}

// Hybrid adds vector candidates to the lexical ones (see Retrieve); nil
// keeps the pipeline lexical. The vectors are searched in Index (the
// local index's vectors, in memory) or, when Index is nil, in Remote.
type Hybrid struct {
	Embedder embed.Embedder
	Index    *vector.Index
	Remote   VectorStore
	// K is the RRF constant; 0 means DefaultRRFK.
	K int
	// OnError is told when the query could not be embedded or searched;
	// the search then goes on with lexical candidates alone. nil ignores.
	OnError func(error)
}

// Fused is one candidate after fusion.
type Fused struct {
	ID    string
	Score float64 // normalised to [0,1]: the best candidate has 1
	// LexicalRank and VectorRank are 1-based; 0 means absent from that list.
	LexicalRank, VectorRank int
}

// FuseRRF fuses two ranked id lists by reciprocal rank:
// score(d) = Σ 1/(k + rank(d)) over the lists holding d, then divided by
// the best score so that first-stage scores lie in [0,1] like the lexical
// path's (whose best hit is 1). Ties keep lexical order first, then vector
// order.
func FuseRRF(lexical, vectors []string, k int) []Fused {
	if k <= 0 {
		k = DefaultRRFK
	}
	byID := map[string]*Fused{}
	var order []*Fused
	add := func(ids []string, lex bool) {
		for i, id := range ids {
			f, ok := byID[id]
			if !ok {
				f = &Fused{ID: id}
				byID[id] = f
				order = append(order, f)
			}
			if lex && f.LexicalRank == 0 {
				f.LexicalRank = i + 1
				f.Score += 1 / float64(k+i+1)
			}
			if !lex && f.VectorRank == 0 {
				f.VectorRank = i + 1
				f.Score += 1 / float64(k+i+1)
			}
		}
	}
	add(lexical, true)
	add(vectors, false)
	sort.SliceStable(order, func(i, j int) bool { return order[i].Score > order[j].Score })
	out := make([]Fused, len(order))
	top := 0.0
	if len(order) > 0 {
		top = order[0].Score
	}
	for i, f := range order {
		out[i] = *f
		if top > 0 {
			out[i].Score /= top
		}
	}
	return out
}

// Retrieve returns up to n first-stage candidates with FirstStage in
// [0,1]: the lexical ones alone when h is nil, else lexical and vector
// k-NN candidates fused by reciprocal rank. A query that cannot be
// embedded degrades to lexical candidates (reported to h.OnError).
func (p *Pipeline) Retrieve(ctx context.Context, h *Hybrid, req Request, n int) ([]Result, error) {
	lex, vec, _, err := p.bothSides(ctx, h, req, n, n)
	if err != nil || vec == nil {
		return lex, err
	}
	if n <= 0 {
		n = DefaultParams().Candidates
	}
	lexIDs := make([]string, len(lex))
	byID := make(map[string]Result, len(lex))
	for i, r := range lex {
		lexIDs[i] = r.Chunk.ID
		byID[r.Chunk.ID] = r
	}
	vecIDs := make([]string, len(vec))
	sim := make(map[string]float64, len(vec))
	for i, hit := range vec {
		vecIDs[i] = hit.ID
		sim[hit.ID] = float64(hit.Score)
	}
	fused := FuseRRF(lexIDs, vecIDs, h.K)
	// The vector side's own candidates (at most n) are read in one
	// request.
	var missing []string
	for _, f := range fused {
		if _, ok := byID[f.ID]; !ok {
			missing = append(missing, f.ID)
		}
	}
	var more map[string]chunk.Chunk
	if len(missing) > 0 {
		if more, err = p.Store.ChunksByIDs(missing); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
	}
	out := make([]Result, 0, min(n, len(fused)))
	for _, f := range fused {
		if len(out) == n {
			break
		}
		r, ok := byID[f.ID]
		if !ok {
			c, found := more[f.ID]
			if !found {
				continue // removed since the vector index was loaded
			}
			r = Result{Chunk: c}
		}
		r.FirstStage = f.Score
		r.LexicalRank, r.VectorRank, r.Similarity = f.LexicalRank, f.VectorRank, sim[f.ID]
		out = append(out, r)
	}
	return out, nil
}

// DefaultNeighbours is how many vector neighbours the lexical stage did
// not find join the candidates (Join).
const DefaultNeighbours = 40

// Join returns the first stage's candidates with vector neighbours added:
// up to n lexical candidates exactly as the lexical stage gives them (the
// ones that are also neighbours marked with their VectorRank), then up to
// DefaultNeighbours neighbours the lexical stage did not find, in vector
// order, with FirstStage 0. Unlike FuseRRF it leaves the lexical
// candidates' scores and order alone, so the ranker's lexical features
// mean what they mean without an embedder; the neighbours add recall, to
// be weighed by their semantic features and vector rank. A query that
// cannot be embedded degrades to lexical candidates (reported to
// h.OnError); a nil h gives the lexical candidates.
func (p *Pipeline) Join(ctx context.Context, h *Hybrid, req Request, n int) ([]Result, error) {
	cands, _, err := p.join(ctx, h, req, n)
	return cands, err
}

// join is Join that also returns the query's vector (nil when the vector
// side was not searched), for the candidates that join later.
func (p *Pipeline) join(ctx context.Context, h *Hybrid, req Request, n int) ([]Result, []float32, error) {
	lex, vec, q, err := p.bothSides(ctx, h, req, n, max(n, DefaultNeighbours))
	if err != nil || vec == nil {
		return lex, nil, err
	}
	at := make(map[string]int, len(lex))
	for i, r := range lex {
		at[r.Chunk.ID] = i
		lex[i].LexicalRank = i + 1
	}
	var missing []string // the neighbours to add, in vector order
	var missingAt []int  // and their indexes in vec
	for i, hit := range vec {
		if j, ok := at[hit.ID]; ok {
			lex[j].VectorRank, lex[j].Similarity = i+1, float64(hit.Score)
			continue
		}
		if len(missing) < DefaultNeighbours {
			missing, missingAt = append(missing, hit.ID), append(missingAt, i)
		}
	}
	if err := h.fillSimilarities(q, lex); err != nil {
		return nil, nil, err
	}
	if len(missing) == 0 {
		return lex, q, nil
	}
	more, err := p.Store.ChunksByIDs(missing)
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	for k, id := range missing {
		c, ok := more[id]
		if !ok {
			continue // removed since the vector index was loaded
		}
		i := missingAt[k]
		lex = append(lex, Result{Chunk: c, VectorRank: i + 1, Similarity: float64(vec[i].Score)})
	}
	return lex, q, nil
}

// bothSides reads the n best lexical candidates and, when h has a vector
// side, the query's k nearest neighbours. vec is nil without a vector
// side, or when the query could not be embedded or searched (reported to
// h.OnError): the caller then goes on with the lexical candidates alone.
// q is the query's vector.
func (p *Pipeline) bothSides(ctx context.Context, h *Hybrid, req Request, n, k int) (lex []Result, vec []vector.Hit, q []float32, err error) {
	if lex, err = p.candidates(ctx, req, n); err != nil {
		return nil, nil, nil, err
	}
	if h == nil || h.Embedder == nil || (h.Index == nil && h.Remote == nil) {
		return lex, nil, nil, nil
	}
	if vec, q, err = h.vectorCandidates(ctx, p.Store, req, k); err != nil {
		if h.OnError != nil {
			h.OnError(err)
		}
		return lex, nil, nil, nil
	}
	return lex, vec, q, nil
}

// fillSimilarities gives the lexical candidates that are not among the
// query's nearest neighbours their cosine to the query from the local
// vector index: the ranker's semantic features read every candidate's
// similarity, and a candidate a little below the neighbours is not
// unrelated (left at 0, it ranked below every neighbour, and fix commits,
// whose answers are rarely among a subject line's neighbours, lost symbol
// Hit@5). A shared index's neighbours come without similarities; so do
// its other candidates.
func (h *Hybrid) fillSimilarities(q []float32, cands []Result) error {
	if h == nil || h.Index == nil || q == nil {
		return nil
	}
	var ids []string
	var at []int
	for i, r := range cands {
		if r.VectorRank == 0 {
			ids, at = append(ids, r.Chunk.ID), append(at, i)
		}
	}
	sims, err := h.Index.Similarities(q, ids)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	for k, i := range at {
		cands[i].Similarity = float64(sims[k])
	}
	return nil
}

// vectorCandidates embeds the query and returns its n nearest chunks, best
// first, restricted by the request's filters (computed by SQL first). A
// shared index's neighbours come without their similarity (0).
func (h *Hybrid) vectorCandidates(ctx context.Context, st Reader, req Request, n int) ([]vector.Hit, []float32, error) {
	if h.Index != nil && (h.Index.Model() != h.Embedder.ModelID() || h.Index.Dim() != h.Embedder.Dim()) {
		return nil, nil, fmt.Errorf("search: vector index is for %s, embedder is %s", h.Index.Model(), h.Embedder.ModelID())
	}
	langs := make([]string, len(req.Languages))
	for i, l := range req.Languages {
		langs[i] = NormalizeLanguage(l)
	}
	if n <= 0 {
		n = DefaultParams().Candidates
	}
	if h.Index == nil {
		q, err := h.Embedder.EmbedQuery(ctx, req.Query)
		if err != nil {
			return nil, nil, fmt.Errorf("search: embed query: %w", err)
		}
		ids, err := h.Remote.Nearest(ctx, q, h.Embedder.ModelID(), n, req.Paths, langs)
		if err != nil {
			return nil, nil, fmt.Errorf("search: %w", err)
		}
		hits := make([]vector.Hit, len(ids))
		for i, id := range ids {
			hits[i] = vector.Hit{ID: id}
		}
		return hits, q, nil
	}
	allow, err := st.ChunkIDsFiltered(req.Paths, langs, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	q, err := h.Embedder.EmbedQuery(ctx, req.Query)
	if err != nil {
		return nil, nil, fmt.Errorf("search: embed query: %w", err)
	}
	hits, err := h.Index.Search(vector.Query{Vector: q, K: n, Allow: allow})
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	return hits, q, nil
}
