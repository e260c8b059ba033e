package weaviate_test

import (
	"context"
	"hash/fnv"
	"math"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/vector"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

var embedWords = regexp.MustCompile(`[A-Za-z]+`)

// hashEmbedding is a small real embedding model: the text's lower-cased
// words (identifiers split at case changes) hashed into dim buckets,
// counted and normalised to unit length, so texts sharing words are near
// each other.
func hashEmbedding(text string, dim int) []float32 {
	v := make([]float32, dim)
	for _, w := range embedWords.FindAllString(text, -1) {
		for _, part := range regexp.MustCompile(`[A-Z]?[a-z]+|[A-Z]+`).FindAllString(w, -1) {
			h := fnv.New32a()
			h.Write([]byte(strings.ToLower(part)))
			v[h.Sum32()%uint32(dim)]++
		}
	}
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		v[0], n = 1, 1
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

// embedAll embeds every chunk of the workspace's local index with scry's
// HTTP embedder on an embeddingServer of dim dimensions, and returns the
// embedder (closed when the test ends).
func (w *workspaceIndex) embedAll(t *testing.T, dim int) embed.Embedder {
	t.Helper()
	srv := embeddingServer(t, dim)
	emb, err := embed.New(context.Background(), embed.Config{Provider: embed.ProviderOpenAI, URL: srv.URL + "/v1", Model: "hash-words", Key: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	if _, err := index.EmbedPending(context.Background(), w.st, emb, index.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	return emb
}

// embeddingServer serves hashEmbedding over the OpenAI embeddings API, so
// the test runs scry's real HTTP embedder against it.
func embeddingServer(t *testing.T, dim int) *httptest.Server {
	return testkit.EmbeddingServer(t, func(text string) []float32 { return hashEmbedding(text, dim) }, nil)
}

// TestHybridFirstStage: with an embedder configured, the shared index's
// vector neighbours are the local index's (the same vectors, searched by
// the cluster's vector index instead of scry's in-memory one), and the
// hybrid first stage fuses them with BM25 as the local pipeline does.
func TestHybridFirstStage(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	w := newWorkspace(t, corpusFiles(t))
	emb := w.embedAll(t, 64)
	model := emb.ModelID()
	repo := weaviatetest.TenantOf(t, c, "hybrid")
	opt := w.vectorOptions(model)
	if _, err := c.Push(ctx, repo, w.st, opt); err != nil {
		t.Fatal(err)
	}
	rd := readerOf(t, c, repo)
	ix, _, err := vector.Load(w.st, model, emb.Dim(), vector.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, chunks, _ := w.st.Stats()
	if ix.Len() != chunks {
		t.Fatalf("local vector index holds %d vectors for %d chunks", ix.Len(), chunks)
	}

	queries := []string{"validate a signed token", "freeze deeply", "apply patches to a base state", "current value of a draft", "auto freeze setting"}
	same, total := 0, 0
	for _, q := range queries {
		qv, err := emb.EmbedQuery(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := ix.Search(vector.Query{Vector: qv, K: 10, Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		remote, err := rd.Nearest(ctx, qv, model, 10, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		local := map[string]bool{}
		for _, h := range hits {
			local[h.ID] = true
		}
		for _, id := range remote {
			if local[id] {
				same++
			}
		}
		total += len(hits)
		if len(remote) == 0 || len(hits) == 0 || remote[0] != hits[0].ID {
			t.Errorf("%q: nearest chunk: cluster %v, local %v", q, remote[:min(1, len(remote))], hits[:min(1, len(hits))])
		}
	}
	t.Logf("vector neighbours: %d of %d of the local top 10 found by the cluster", same, total)
	if float64(same) < 0.9*float64(total) {
		t.Errorf("the cluster's 10 nearest share %d of %d with the local index's", same, total)
	}

	// Filters and the model are honoured: paths restrict, another model's
	// query finds nothing.
	qv, _ := emb.EmbedQuery(ctx, "freeze deeply")
	ids, err := rd.Nearest(ctx, qv, model, 20, []string{"src/**"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rd.ChunksByIDs(ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 || len(got) != len(ids) {
		t.Errorf("nearest within src/**: %d ids, %d read", len(ids), len(got))
	}
	for _, ch := range got {
		if !chunkindex.PathMatch("src/**", ch.RelativePath) {
			t.Errorf("nearest within src/** returned %s", ch.RelativePath)
		}
	}
	if ids, err := rd.Nearest(ctx, qv, "other/model@64", 20, nil, nil); err != nil || len(ids) != 0 {
		t.Errorf("another model's query: %v, %v; want nothing", ids, err)
	}

	// The hybrid first stage: the same fusion over the same neighbours.
	overlap, n := 0, 0
	for _, q := range queries {
		req := search.Request{Query: q, Params: search.DefaultParams()}
		lp := search.Pipeline{Store: w.st}
		rp := search.Pipeline{Store: rd}
		lc, err := lp.Retrieve(ctx, &search.Hybrid{Embedder: emb, Index: ix}, req, 50)
		if err != nil {
			t.Fatal(err)
		}
		rc, err := rp.Retrieve(ctx, &search.Hybrid{Embedder: emb, Remote: rd}, req, 50)
		if err != nil {
			t.Fatal(err)
		}
		lex, err := rp.Retrieve(ctx, nil, req, 50)
		if err != nil {
			t.Fatal(err)
		}
		inLex := map[string]bool{}
		for _, r := range lex {
			inLex[r.Chunk.ID] = true
		}
		fromVectors := 0
		for _, r := range rc {
			if !inLex[r.Chunk.ID] {
				fromVectors++
			}
			if r.Chunk.Breadcrumb == "" || r.Chunk.RelativePath == "" {
				t.Errorf("%q: candidate %s was not read", q, r.Chunk.ID)
			}
		}
		if fromVectors == 0 {
			t.Errorf("%q: the hybrid first stage added no vector candidate to BM25's", q)
		}
		top := map[string]bool{}
		for _, r := range lc[:min(10, len(lc))] {
			top[r.Chunk.ID] = true
		}
		for _, r := range rc[:min(10, len(rc))] {
			if top[r.Chunk.ID] {
				overlap++
			}
		}
		n += min(10, len(lc))
	}
	t.Logf("hybrid first stage: top-10 overlap with the local pipeline %d/%d", overlap, n)
	if float64(overlap) < 0.7*float64(n) {
		t.Errorf("hybrid top-10 overlap %d of %d, want at least 70%%", overlap, n)
	}
}

// TestVectorsAddedLater: a repository pushed without an embedder gets its
// vectors on the next push once one is configured (every file is sent
// again, once), and a push with nothing changed sends nothing.
func TestVectorsAddedLater(t *testing.T) {
	c, w, repo := pushed(t, "later", fixture)
	ctx := context.Background()
	emb := w.embedAll(t, 32)
	model := emb.ModelID()
	opt := w.vectorOptions(model)
	for i, want := range []int{len(fixture), 0} {
		sum, err := c.Push(ctx, repo, w.st, opt)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Sent != want {
			t.Errorf("push %d with an embedder: %+v, want %d files sent", i+1, sum, want)
		}
	}
	rd := readerOf(t, c, repo)
	qv, _ := emb.EmbedQuery(ctx, "validate a token")
	ids, err := rd.Nearest(ctx, qv, model, 50, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, chunks, _ := w.st.Stats()
	if len(ids) != chunks {
		t.Errorf("%d chunks have vectors in the cluster, want all %d", len(ids), chunks)
	}
}
