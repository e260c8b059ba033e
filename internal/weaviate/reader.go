package weaviate

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// bm25Properties weigh the full-text fields as SQLite's bm25() column
// weights do (store.bm25Weights: name 10, breadcrumb 6, signature 4,
// jsdoc 3, idents 5).
var bm25Properties = []string{"fName^10", "fBreadcrumb^6", "fSignature^4", "fJsdoc^3", "fIdents^5"}

// chunkFields are the chunk properties a full read returns; light reads
// leave out fullSource (see chunkindex.Query.Light).
const (
	lightFields = `chunkId path language fileHash nodeKind name parentName parentChunkId childChunkIds depth seq signature jsdoc embeddingText breadcrumb startLine endLine relevantImports modifiers exported`
	fullFields  = lightFields + ` fullSource`
)

// object is a chunk object as a query returns it.
type object struct {
	ChunkID         string   `json:"chunkId"`
	Path            string   `json:"path"`
	Language        string   `json:"language"`
	FileHash        string   `json:"fileHash"`
	NodeKind        string   `json:"nodeKind"`
	Name            string   `json:"name"`
	ParentName      string   `json:"parentName"`
	ParentChunkID   string   `json:"parentChunkId"`
	ChildChunkIDs   []string `json:"childChunkIds"`
	Depth           int      `json:"depth"`
	Seq             int      `json:"seq"`
	Signature       string   `json:"signature"`
	FullSource      string   `json:"fullSource"`
	JSDoc           string   `json:"jsdoc"`
	EmbeddingText   string   `json:"embeddingText"`
	Breadcrumb      string   `json:"breadcrumb"`
	StartLine       int      `json:"startLine"`
	EndLine         int      `json:"endLine"`
	RelevantImports []string `json:"relevantImports"`
	Modifiers       []string `json:"modifiers"`
	Exported        bool     `json:"exported"`
	Extra           struct {
		Score    string  `json:"score"`
		Distance float64 `json:"distance"`
		ID       string  `json:"id"`
	} `json:"_additional"`
}

func (o *object) chunk(light bool) chunk.Chunk {
	c := chunk.Chunk{
		ID: o.ChunkID, FilePath: o.Path, RelativePath: o.Path, NodeKind: o.NodeKind, Name: o.Name,
		ParentName: o.ParentName, ParentChunkID: o.ParentChunkID, ChildChunkIDs: o.ChildChunkIDs,
		Depth: o.Depth, Signature: o.Signature, FullSource: o.FullSource, StartLine: o.StartLine,
		EndLine: o.EndLine, JSDoc: o.JSDoc, RelevantImports: o.RelevantImports,
		EmbeddingText: o.EmbeddingText, Breadcrumb: o.Breadcrumb, Exported: o.Exported, Modifiers: o.Modifiers,
	}
	if light {
		c.FullSource = ""
		if len(c.EmbeddingText) > chunkindex.LightText {
			c.EmbeddingText = c.EmbeddingText[:chunkindex.LightText]
		}
	} else if c.EmbeddingText == "" {
		c.EmbeddingText = c.FullSource
	}
	return c
}

// maxResults is the most objects one query returns (the server's default
// QUERY_MAXIMUM_RESULTS).
const maxResults = 10000

// tenant answers reads from one repository's tenant.
type tenant struct {
	c    *Client
	repo string
}

// where is a GraphQL where filter, or "" for none.
type where string

func cond(path, op, valueKind, value string) where {
	return where(fmt.Sprintf(`{path:[%s],operator:%s,%s:%s}`, quote(path), op, valueKind, value))
}

func eqText(path, v string) where { return cond(path, "Equal", "valueText", quote(v)) }

func anyText(path string, vs []string) where {
	return cond(path, "ContainsAny", "valueText", quoteList(vs))
}

func and(ws ...where) where { return join("And", ws) }
func or(ws ...where) where  { return join("Or", ws) }

func join(op string, ws []where) where {
	var parts []string
	for _, w := range ws {
		if w != "" {
			parts = append(parts, string(w))
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return where(parts[0])
	}
	return where(fmt.Sprintf(`{operator:%s,operands:[%s]}`, op, strings.Join(parts, ",")))
}

// readFields is what a read of chunks asks for (light: without their
// text, see lightFields) and at which consistency level.
func (t *tenant) readFields(ctx context.Context, light bool) (fields, level string, err error) {
	fields = fullFields
	if light {
		fields = lightFields
	}
	level, err = t.c.readLevel(ctx)
	return fields, level, err
}

// get runs a Get on chunks with extra arguments and returns the objects
// whose file version is live (see the package comment).
func (t *tenant) get(ctx context.Context, args string, w where, limit int, light bool) ([]object, error) {
	fields, level, err := t.readFields(ctx, light)
	if err != nil {
		return nil, err
	}
	a := fmt.Sprintf("tenant:%s,limit:%d%s", quote(t.repo), min(max(limit, 1), maxResults), level)
	if args != "" {
		a += "," + args
	}
	if w != "" {
		a += ",where:" + string(w)
	}
	objs, err := t.getChunks(ctx, a, fields+" _additional{score}")
	if err != nil {
		return nil, fmt.Errorf("weaviate: read %s: %w", t.repo, err)
	}
	return t.live(ctx, objs)
}

// getChunks runs one GraphQL Get of the chunk class with args, asking for
// fields, and returns its objects.
func (t *tenant) getChunks(ctx context.Context, args, fields string) ([]object, error) {
	q := fmt.Sprintf(`{Get{%s(%s){%s}}}`, ChunkClass, args, fields)
	var resp struct {
		Get map[string][]object `json:"Get"`
	}
	if err := t.c.gql(ctx, q, &resp); err != nil {
		return nil, err
	}
	return resp.Get[ChunkClass], nil
}

// live keeps the objects of their file's live version.
func (t *tenant) live(ctx context.Context, objs []object) ([]object, error) {
	if len(objs) == 0 {
		return objs, nil
	}
	seen := map[string]bool{}
	var paths []string
	for _, o := range objs {
		if !seen[o.Path] {
			seen[o.Path] = true
			paths = append(paths, o.Path)
		}
	}
	level, err := t.c.readLevel(ctx)
	if err != nil {
		return nil, err
	}
	hash := make(map[string]string, len(paths))
	for start := 0; start < len(paths); start += 500 {
		part := paths[start:min(start+500, len(paths))]
		q := fmt.Sprintf(`{Get{%s(tenant:%s,limit:%d%s,where:%s){path hash state}}}`, FileClass, quote(t.repo), len(part), level, and(anyText("path", part), eqText("state", stateLive)))
		var resp struct {
			Get map[string][]remoteFile `json:"Get"`
		}
		if err := t.c.gql(ctx, q, &resp); err != nil {
			return nil, fmt.Errorf("weaviate: read %s: %w", t.repo, err)
		}
		for _, r := range resp.Get[FileClass] {
			hash[r.Path] = r.Hash
		}
	}
	out := objs[:0]
	for _, o := range objs {
		if h, ok := hash[o.Path]; ok && h == o.FileHash {
			out = append(out, o)
		}
	}
	return out, nil
}

// overfetch is how many objects to ask for to return limit of them when
// scry drops some of what the server's filter lets through (see
// pathFilter).
func overfetch(limit int, exact bool) int {
	if exact {
		return limit
	}
	return min(limit*3, maxResults)
}

// keepPaths drops the objects whose path keep refuses (nil keeps all),
// then all but the first limit.
func keepPaths(objs []object, keep func(string) bool, limit int) []object {
	if keep != nil {
		kept := objs[:0]
		for _, o := range objs {
			if keep(o.Path) {
				kept = append(kept, o)
			}
		}
		objs = kept
	}
	return objs[:min(limit, len(objs))]
}

// listPage is the page size of list (a variable so tests can cross page
// boundaries with few objects).
var listPage = 5000

// list reads every live chunk a filter matches, however many: pages in
// chunk-id order, each starting at the last id of the one before (the
// cursor API takes no filter, and one query returns at most maxResults
// objects). Two versions of a chunk during a file's switch share an id;
// the objects already read at the page boundary are skipped by object id.
func (t *tenant) list(ctx context.Context, w where, light bool) ([]object, error) {
	fields, level, err := t.readFields(ctx, light)
	if err != nil {
		return nil, err
	}
	var out []object
	last := ""
	seen := map[string]bool{}
	for {
		pw := w
		if last != "" {
			pw = and(w, cond("chunkId", "GreaterThanEqual", "valueText", quote(last)))
		}
		args := fmt.Sprintf(`tenant:%s,limit:%d%s,sort:[{path:["chunkId"],order:asc}]`, quote(t.repo), listPage, level)
		if pw != "" {
			args += ",where:" + string(pw)
		}
		page, err := t.getChunks(ctx, args, fields+" _additional{id}")
		if err != nil {
			return nil, fmt.Errorf("weaviate: list %s: %w", t.repo, err)
		}
		for _, o := range page {
			if o.ChunkID == last && seen[o.Extra.ID] {
				continue
			}
			out = append(out, o)
		}
		if len(page) < listPage {
			break
		}
		next := page[len(page)-1].ChunkID
		if next == last {
			return nil, fmt.Errorf("weaviate: list %s: more than %d objects share chunk id %s", t.repo, listPage, last)
		}
		seen = map[string]bool{}
		for _, o := range page {
			if o.ChunkID == next {
				seen[o.Extra.ID] = true
			}
		}
		last = next
	}
	return t.live(ctx, out)
}

// nearest finds the chunks whose vectors (of model) are nearest vec, by
// the server's vector index, within the paths and languages asked for.
func (t *tenant) nearest(ctx context.Context, vec []float32, model string, k int, paths, languages []string) ([]object, error) {
	w, exact, keep := pathFilter(paths, languages)
	nums := make([]string, len(vec))
	for i, x := range vec {
		nums[i] = strconv.FormatFloat(float64(x), 'g', -1, 32)
	}
	args := fmt.Sprintf("nearVector:{vector:[%s]}", strings.Join(nums, ","))
	level, err := t.c.readLevel(ctx)
	if err != nil {
		return nil, err
	}
	found, err := t.getChunks(ctx, fmt.Sprintf(`tenant:%s,limit:%d%s,%s,where:%s`,
		quote(t.repo), overfetch(min(max(k, 1), maxResults), exact), level, args, and(w, eqText("embedModel", model))),
		"chunkId path fileHash _additional{distance}")
	if err != nil {
		return nil, fmt.Errorf("weaviate: nearest in %s: %w", t.repo, err)
	}
	objs, err := t.live(ctx, found)
	if err != nil {
		return nil, err
	}
	return keepPaths(objs, keep, k), nil
}

func (t *tenant) search(ctx context.Context, q chunkindex.Query) ([]chunkindex.Hit, error) {
	var words []string
	for _, term := range q.Terms {
		if s := strings.TrimSpace(term); s != "" {
			words = append(words, s)
		}
	}
	if len(words) == 0 {
		return nil, nil
	}
	w, exact, keep := pathFilter(q.Paths, q.Languages)
	limit := q.Limit
	if limit <= 0 {
		limit = chunkindex.DefaultLimit
	}
	args := fmt.Sprintf("bm25:{query:%s,properties:%s}", quote(strings.Join(words, " ")), quoteList(bm25Properties))
	objs, err := t.get(ctx, args, w, overfetch(limit, exact), q.Light)
	if err != nil {
		return nil, err
	}
	objs = keepPaths(objs, keep, limit)
	hits := make([]chunkindex.Hit, len(objs))
	for i := range objs {
		s, _ := strconv.ParseFloat(objs[i].Extra.Score, 64)
		hits[i] = chunkindex.Hit{Chunk: objs[i].chunk(q.Light), Score: s, Language: objs[i].Language}
	}
	// Equal scores in file and declaration order, as the local index
	// breaks ties (by insertion order).
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return lineOrder(hits[i].Chunk, hits[j].Chunk)
	})
	return hits, nil
}

func lineOrder(a, b chunk.Chunk) bool {
	if a.RelativePath != b.RelativePath {
		return a.RelativePath < b.RelativePath
	}
	if a.StartLine != b.StartLine {
		return a.StartLine < b.StartLine
	}
	return a.Depth < b.Depth
}

// aggregate counts chunks: one count per alias, each with its filter.
func (t *tenant) aggregate(ctx context.Context, filters map[string]where) (map[string]int, error) {
	var b strings.Builder
	b.WriteString("{Aggregate{")
	for alias, w := range filters {
		fmt.Fprintf(&b, "%s:%s(tenant:%s", alias, ChunkClass, quote(t.repo))
		if w != "" {
			b.WriteString(",where:" + string(w))
		}
		b.WriteString("){meta{count}}")
	}
	b.WriteString("}}")
	var resp aliasCounts
	if err := t.c.gql(ctx, b.String(), &resp); err != nil {
		return nil, fmt.Errorf("weaviate: count %s: %w", t.repo, err)
	}
	out := make(map[string]int, len(filters))
	for alias, rows := range resp.Aggregate {
		if len(rows) > 0 {
			out[alias] = rows[0].Meta.Count
		}
	}
	return out, nil
}

func (t *tenant) termStats(ctx context.Context, ts []string) (chunkindex.TermStats, error) {
	st := chunkindex.TermStats{DocFreq: map[string]int{}}
	fs := map[string]where{"total": ""}
	alias := map[string]string{}
	for i, term := range ts {
		if strings.TrimSpace(term) == "" || strings.ContainsAny(term, " \t\n") {
			continue
		}
		a := "t" + strconv.Itoa(i)
		alias[a] = term
		// The local index counts a term in any column; name, signature
		// and JSDoc are inside idents, the path inside the breadcrumb.
		fs[a] = or(eqText("fIdents", term), eqText("fBreadcrumb", term))
	}
	counts, err := t.aggregate(ctx, fs)
	if err != nil {
		return st, err
	}
	st.Chunks = counts["total"]
	for a, term := range alias {
		if n := counts[a]; n > 0 {
			st.DocFreq[term] = n
		}
	}
	return st, nil
}

func (t *tenant) nameCounts(ctx context.Context, names []string) (map[string]int, error) {
	out := make(map[string]int, len(names))
	for start := 0; start < len(names); start += 500 {
		part := names[start:min(start+500, len(names))]
		q := fmt.Sprintf(`{Aggregate{%s(tenant:%s,groupBy:["name"],limit:%d,where:%s){groupedBy{value} meta{count}}}}`,
			ChunkClass, quote(t.repo), len(part)+1, anyText("name", part))
		var resp groupedCounts
		if err := t.c.gql(ctx, q, &resp); err != nil {
			return nil, fmt.Errorf("weaviate: name counts %s: %w", t.repo, err)
		}
		for _, g := range resp.Aggregate[ChunkClass] {
			out[g.GroupedBy.Value] += g.Meta.Count
		}
	}
	return out, nil
}

func sortLines(objs []object) {
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i], objs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.StartLine != b.StartLine {
			return a.StartLine < b.StartLine
		}
		if a.Depth != b.Depth {
			return a.Depth < b.Depth
		}
		return a.Seq < b.Seq
	})
}

func chunks(objs []object, light bool) []chunk.Chunk {
	out := make([]chunk.Chunk, len(objs))
	for i := range objs {
		out[i] = objs[i].chunk(light)
	}
	return out
}

func (t *tenant) chunksNamed(ctx context.Context, names []string, limit int) ([]chunk.Chunk, error) {
	if len(names) == 0 {
		return nil, nil
	}
	objs, err := t.get(ctx, "", or(anyText("name", names), anyText("assignedName", names)), maxResults, true)
	if err != nil {
		return nil, err
	}
	sortLines(objs)
	exactNamesFirst(objs, func(o object) string { return o.Name }, names)
	return chunks(objs[:min(limit, len(objs))], true), nil
}

// exactNamesFirst moves the items named exactly one of names before the
// rest (the definitions assigned to a dotted path that ends in one), each
// group in the order it had, as the SQLite store orders ChunksNamed.
func exactNamesFirst[T any](xs []T, name func(T) string, names []string) {
	exact := make(map[string]bool, len(names))
	for _, n := range names {
		exact[n] = true
	}
	sort.SliceStable(xs, func(i, j int) bool { return exact[name(xs[i])] && !exact[name(xs[j])] })
}

func (t *tenant) topLevelDefinitions(ctx context.Context, path string, kinds []string, limit int) ([]chunk.Chunk, error) {
	w := and(eqText("path", path), cond("depth", "LessThanEqual", "valueInt", "1"), anyText("nodeKind", kinds))
	objs, err := t.get(ctx, "", w, maxResults, true)
	if err != nil {
		return nil, err
	}
	sortLines(objs)
	return chunks(objs[:min(limit, len(objs))], true), nil
}

func (t *tenant) chunkIDsFiltered(ctx context.Context, paths, languages, kinds []string) ([]string, error) {
	w, _, keep := pathFilter(paths, languages)
	if len(kinds) > 0 {
		w = and(w, anyText("nodeKind", kinds))
	}
	objs, err := t.list(ctx, w, true)
	if err != nil {
		return nil, err
	}
	objs = keepPaths(objs, keep, len(objs))
	ids := make([]string, len(objs))
	for i, o := range objs {
		ids[i] = o.ChunkID
	}
	return ids, nil
}

func (t *tenant) chunksByIDs(ctx context.Context, ids []string) (map[string]chunk.Chunk, error) {
	out := make(map[string]chunk.Chunk, len(ids))
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		objs, err := t.get(ctx, "", anyText("chunkId", part), len(part)*2, false)
		if err != nil {
			return nil, err
		}
		for i := range objs {
			out[objs[i].ChunkID] = objs[i].chunk(false)
		}
	}
	return out, nil
}

// chunksByName finds chunks named name, or statements declaring several
// variables of which name is one (named "A, B"; see store.ChunksByName).
func (t *tenant) chunksByName(ctx context.Context, name string) ([]chunk.Chunk, error) {
	w := eqText("name", name)
	if name != "" && !strings.ContainsAny(name, ",*?") {
		like := func(p string) where { return cond("name", "Like", "valueText", quote(p)) }
		w = or(w, and(anyText("nodeKind", []string{"const", "variable"}),
			or(like(name+", *"), like("*, "+name), like("*, "+name+", *"))))
	}
	objs, err := t.list(ctx, w, false)
	if err != nil {
		return nil, err
	}
	sortLines(objs)
	out := chunks(objs, false)
	for i := range out {
		c := &out[i]
		if c.Name == name || !strings.Contains(c.Name, ", ") {
			continue
		}
		if !containsName(c.Name, name) {
			continue
		}
		if strings.HasSuffix(c.Breadcrumb, " > "+c.Name) {
			c.Breadcrumb = strings.TrimSuffix(c.Breadcrumb, c.Name) + name
		}
		c.Name = name
	}
	kept := out[:0]
	for _, c := range out {
		if c.Name == name {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

func containsName(list, name string) bool {
	for _, n := range strings.Split(list, ", ") {
		if n == name {
			return true
		}
	}
	return false
}

// liveFile reads the record of a file's live version: its content hash,
// and its text (decompressed) when withText.
func (t *tenant) liveFile(ctx context.Context, path string, withText bool) (hash, text string, err error) {
	level, err := t.c.readLevel(ctx)
	if err != nil {
		return "", "", err
	}
	fields := "hash"
	if withText {
		fields = "hash text"
	}
	q := fmt.Sprintf(`{Get{%s(tenant:%s,limit:1%s,where:%s){%s}}}`, FileClass, quote(t.repo), level, and(eqText("path", path), eqText("state", stateLive)), fields)
	var resp struct {
		Get map[string][]struct {
			Hash string `json:"hash"`
			Text string `json:"text"`
		} `json:"Get"`
	}
	if err := t.c.gql(ctx, q, &resp); err != nil {
		return "", "", fmt.Errorf("weaviate: file %s of %s: %w", path, t.repo, err)
	}
	rows := resp.Get[FileClass]
	if len(rows) == 0 {
		return "", "", fmt.Errorf("weaviate: file %s of %s: %w", path, t.repo, chunkindex.ErrNotFound)
	}
	if withText {
		if text, err = decompress(rows[0].Text); err != nil {
			return "", "", fmt.Errorf("weaviate: file %s of %s: %w", path, t.repo, err)
		}
	}
	return rows[0].Hash, text, nil
}

// aliasCounts is the answer of an Aggregate of counts under aliases: the
// count under each alias.
type aliasCounts struct {
	Aggregate map[string][]struct {
		Meta struct {
			Count int `json:"count"`
		} `json:"meta"`
	} `json:"Aggregate"`
}

// count is the count under alias (0 when there is none).
func (a aliasCounts) count(alias string) int {
	if rows := a.Aggregate[alias]; len(rows) > 0 {
		return rows[0].Meta.Count
	}
	return 0
}

// groupedCounts is an Aggregate's answer grouped by one property: each
// value with how many objects hold it.
type groupedCounts struct {
	Aggregate map[string][]struct {
		GroupedBy struct {
			Value string `json:"value"`
		} `json:"groupedBy"`
		Meta struct {
			Count int `json:"count"`
		} `json:"meta"`
	} `json:"Aggregate"`
}
