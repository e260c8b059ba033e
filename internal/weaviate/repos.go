package weaviate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// Reader answers the search pipeline's reads (search.Reader) from the
// tenants of the repositories a request names, and from no other: every
// query carries its tenant, so a result cannot come from a repository the
// request did not name.
//
// With one repository, paths and chunk ids are the repository's own, as
// in its local index. With several, each path is prefixed with its
// repository ("repo/src/a.ts") and each id too ("repo:id"), so results of
// different repositories never collide.
type Reader struct {
	ctx     context.Context
	tenants []*tenant
	multi   bool
}

// Reader reads the named repositories; ctx bounds every read.
func (c *Client) Reader(ctx context.Context, repos []string) (*Reader, error) {
	if len(repos) == 0 {
		return nil, fmt.Errorf("weaviate: name at least one repository")
	}
	r := &Reader{ctx: ctx, multi: len(repos) > 1}
	seen := map[string]bool{}
	for _, repo := range repos {
		if err := ValidRepo(repo); err != nil {
			return nil, err
		}
		if !seen[repo] {
			seen[repo] = true
			r.tenants = append(r.tenants, &tenant{c: c, repo: repo})
		}
	}
	r.multi = len(r.tenants) > 1
	return r, nil
}

// Repos are the repositories the reader reads.
func (r *Reader) Repos() []string {
	out := make([]string, len(r.tenants))
	for i, t := range r.tenants {
		out[i] = t.repo
	}
	return out
}

func (r *Reader) name(t *tenant, c chunk.Chunk) chunk.Chunk {
	if !r.multi {
		return c
	}
	c.ID = t.repo + ":" + c.ID
	if c.ParentChunkID != "" {
		c.ParentChunkID = t.repo + ":" + c.ParentChunkID
	}
	kids := make([]string, len(c.ChildChunkIDs))
	for i, k := range c.ChildChunkIDs {
		kids[i] = t.repo + ":" + k
	}
	c.ChildChunkIDs = kids
	c.RelativePath = t.repo + "/" + c.RelativePath
	c.FilePath = c.RelativePath
	c.Breadcrumb = t.repo + "/" + c.Breadcrumb
	return c
}

// Local splits a chunk the reader returned into its repository and the
// chunk as that repository's own index has it (unprefixed id and path).
func (r *Reader) Local(c chunk.Chunk) (repo string, local chunk.Chunk) {
	if !r.multi {
		return r.tenants[0].repo, c
	}
	repo, id, _ := strings.Cut(c.ID, ":")
	strip := func(s, sep string) string { return strings.TrimPrefix(s, repo+sep) }
	c.ID = id
	c.ParentChunkID = strip(c.ParentChunkID, ":")
	kids := make([]string, len(c.ChildChunkIDs))
	for i, k := range c.ChildChunkIDs {
		kids[i] = strip(k, ":")
	}
	c.ChildChunkIDs = kids
	c.RelativePath = strip(c.RelativePath, "/")
	c.FilePath = c.RelativePath
	c.Breadcrumb = strip(c.Breadcrumb, "/")
	return repo, c
}

// FileHash is the content hash of a file's live version (a prefixed path
// with several repositories).
func (r *Reader) FileHash(path string) (string, error) {
	hash, _, err := r.liveFile(path, false)
	return hash, err
}

// liveFile reads the live version's record of a file (a prefixed path with
// several repositories); see tenant.liveFile.
func (r *Reader) liveFile(path string, withText bool) (hash, text string, err error) {
	t, p, ok := r.route(path, "/")
	if !ok {
		return "", "", fmt.Errorf("weaviate: file %s: %w", path, chunkindex.ErrNotFound)
	}
	return t.liveFile(r.ctx, p, withText)
}

// route finds the tenant of a (prefixed) path or id and strips the prefix.
func (r *Reader) route(s, sep string) (*tenant, string, bool) {
	if !r.multi {
		return r.tenants[0], s, true
	}
	repo, rest, ok := strings.Cut(s, sep)
	if !ok {
		return nil, "", false
	}
	for _, t := range r.tenants {
		if t.repo == repo {
			return t, rest, true
		}
	}
	return nil, "", false
}

func (r *Reader) names(t *tenant, cs []chunk.Chunk) []chunk.Chunk {
	for i := range cs {
		cs[i] = r.name(t, cs[i])
	}
	return cs
}

// Search ranks each tenant's chunks by BM25 and merges them by score
// (each tenant's scores use its own statistics).
func (r *Reader) Search(q chunkindex.Query) ([]chunkindex.Hit, error) {
	var all []chunkindex.Hit
	res, err := perTenant(r, func(t *tenant) ([]chunkindex.Hit, error) { return t.search(r.ctx, q) })
	if err != nil {
		return nil, err
	}
	for i, t := range r.tenants {
		hits := res[i]
		for i := range hits {
			hits[i].Chunk = r.name(t, hits[i].Chunk)
		}
		all = append(all, hits...)
	}
	if r.multi {
		sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
		limit := q.Limit
		if limit <= 0 {
			limit = chunkindex.DefaultLimit
		}
		all = all[:min(limit, len(all))]
	}
	return all, nil
}

// Nearest returns the ids of the k chunks whose stored vectors of model
// are nearest q (cosine distance, the server's vector index), within the
// paths and languages asked for; with several repositories, the nearest
// of all of them. It is the shared index's side of the hybrid first
// stage (search.VectorStore).
func (r *Reader) Nearest(ctx context.Context, q []float32, model string, k int, paths, languages []string) ([]string, error) {
	type hit struct {
		id   string
		dist float64
	}
	var all []hit
	res, err := perTenant(r, func(t *tenant) ([]object, error) { return t.nearest(ctx, q, model, k, paths, languages) })
	if err != nil {
		return nil, err
	}
	for i, t := range r.tenants {
		objs := res[i]
		for _, o := range objs {
			id := o.ChunkID
			if r.multi {
				id = t.repo + ":" + id
			}
			all = append(all, hit{id, o.Extra.Distance})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].dist < all[j].dist })
	ids := make([]string, 0, min(k, len(all)))
	for _, h := range all[:min(k, len(all))] {
		ids = append(ids, h.id)
	}
	return ids, nil
}

// TermStats sums the tenants' statistics.
func (r *Reader) TermStats(ts []string) (chunkindex.TermStats, error) {
	sum := chunkindex.TermStats{DocFreq: map[string]int{}}
	res, err := perTenant(r, func(t *tenant) (chunkindex.TermStats, error) { return t.termStats(r.ctx, ts) })
	if err != nil {
		return sum, err
	}
	for i := range r.tenants {
		st := res[i]
		sum.Chunks += st.Chunks
		for k, v := range st.DocFreq {
			sum.DocFreq[k] += v
		}
	}
	return sum, nil
}

// ChunksNamed returns light chunks named any of names, then those assigned
// to a dotted path whose last name is, each group in file order.
func (r *Reader) ChunksNamed(names []string, limit int) ([]chunk.Chunk, error) {
	all, err := r.chunksPerTenant(func(t *tenant) ([]chunk.Chunk, error) { return t.chunksNamed(r.ctx, names, limit) })
	if err != nil {
		return nil, err
	}
	if r.multi {
		sort.SliceStable(all, func(i, j int) bool { return lineOrder(all[i], all[j]) })
		exactNamesFirst(all, func(c chunk.Chunk) string { return c.Name }, names)
		all = all[:min(limit, len(all))]
	}
	return all, nil
}

// NameCounts sums the tenants' counts.
func (r *Reader) NameCounts(names []string) (map[string]int, error) {
	out := map[string]int{}
	res, err := perTenant(r, func(t *tenant) (map[string]int, error) { return t.nameCounts(r.ctx, names) })
	if err != nil {
		return nil, err
	}
	for i := range r.tenants {
		m := res[i]
		for k, v := range m {
			out[k] += v
		}
	}
	return out, nil
}

// TopLevelDefinitions reads one file's definitions near the top level.
func (r *Reader) TopLevelDefinitions(path string, kinds []string, limit int) ([]chunk.Chunk, error) {
	t, p, ok := r.route(path, "/")
	if !ok {
		return nil, nil
	}
	cs, err := t.topLevelDefinitions(r.ctx, p, kinds, limit)
	return r.names(t, cs), err
}

// ChunkIDsFiltered lists chunk ids by path, language and kind (the path
// patterns are matched within each repository).
func (r *Reader) ChunkIDsFiltered(paths, languages, kinds []string) ([]string, error) {
	var all []string
	res, err := perTenant(r, func(t *tenant) ([]string, error) { return t.chunkIDsFiltered(r.ctx, paths, languages, kinds) })
	if err != nil {
		return nil, err
	}
	for i, t := range r.tenants {
		ids := res[i]
		for _, id := range ids {
			if r.multi {
				id = t.repo + ":" + id
			}
			all = append(all, id)
		}
	}
	return all, nil
}

// ChunksByIDs reads chunks in full.
func (r *Reader) ChunksByIDs(ids []string) (map[string]chunk.Chunk, error) {
	by := map[*tenant][]string{}
	for _, id := range ids {
		if t, raw, ok := r.route(id, ":"); ok {
			by[t] = append(by[t], raw)
		}
	}
	out := make(map[string]chunk.Chunk, len(ids))
	for _, t := range r.tenants {
		if len(by[t]) == 0 {
			continue
		}
		m, err := t.chunksByIDs(r.ctx, by[t])
		if err != nil {
			return nil, err
		}
		for _, c := range m {
			c = r.name(t, c)
			out[c.ID] = c
		}
	}
	return out, nil
}

// Chunk reads one chunk in full.
func (r *Reader) Chunk(id string) (chunk.Chunk, error) {
	m, err := r.ChunksByIDs([]string{id})
	if err != nil {
		return chunk.Chunk{}, err
	}
	c, ok := m[id]
	if !ok {
		return chunk.Chunk{}, fmt.Errorf("weaviate: chunk %s: %w", id, chunkindex.ErrNotFound)
	}
	return c, nil
}

// ChunksByName returns the chunks named exactly name, in full.
func (r *Reader) ChunksByName(name string) ([]chunk.Chunk, error) {
	return r.chunksPerTenant(func(t *tenant) ([]chunk.Chunk, error) { return t.chunksByName(r.ctx, name) })
}

// chunksPerTenant reads chunks from every tenant with read, and names them
// as this reader does (see name), tenant by tenant.
func (r *Reader) chunksPerTenant(read func(t *tenant) ([]chunk.Chunk, error)) ([]chunk.Chunk, error) {
	res, err := perTenant(r, read)
	if err != nil {
		return nil, err
	}
	var all []chunk.Chunk
	for i, t := range r.tenants {
		all = append(all, r.names(t, res[i])...)
	}
	return all, nil
}

// FileText is the indexed text of a file (a prefixed path with several
// repositories), for snapshots.
func (r *Reader) FileText(path string) (string, error) {
	_, text, err := r.liveFile(path, true)
	return text, err
}

// perTenant runs read on every tenant, up to eight at a time, and returns
// the results in the tenants' order: a request over several repositories
// costs about one tenant's round trips rather than their sum.
func perTenant[T any](r *Reader, read func(t *tenant) (T, error)) ([]T, error) {
	out := make([]T, len(r.tenants))
	var g errgroup.Group
	g.SetLimit(8)
	for i, t := range r.tenants {
		g.Go(func() error {
			v, err := read(t)
			out[i] = v
			return err
		})
	}
	return out, g.Wait()
}
