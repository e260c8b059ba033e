package search_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/vector"
)

func TestFuseRRF(t *testing.T) {
	got := search.FuseRRF([]string{"a", "b", "c"}, []string{"c", "d", "a"}, 60)
	// a: 1/61 + 1/63, c: 1/63 + 1/61 (tie, lexical order first), b: 1/62, d: 1/62.
	wantOrder := []string{"a", "c", "b", "d"}
	for i, f := range got {
		if f.ID != wantOrder[i] {
			t.Fatalf("order %v, want %v", got, wantOrder)
		}
	}
	if got[0].Score != 1 || got[0].LexicalRank != 1 || got[0].VectorRank != 3 {
		t.Fatalf("top %+v", got[0])
	}
	top := 1.0/61 + 1.0/63
	if math.Abs(got[2].Score-(1.0/62)/top) > 1e-12 || got[3].VectorRank != 2 || got[3].LexicalRank != 0 {
		t.Fatalf("b, d: %+v %+v", got[2], got[3])
	}
	if len(search.FuseRRF(nil, nil, 0)) != 0 {
		t.Fatal("empty fusion")
	}
	one := search.FuseRRF(nil, []string{"x", "y"}, 0)
	if one[0].Score != 1 || math.Abs(one[1].Score-61.0/62) > 1e-12 {
		t.Fatalf("vector-only fusion %+v", one)
	}
}

// pointEmbedder answers every query with one fixed vector.
type pointEmbedder struct {
	q   []float32
	err error
}

func (p pointEmbedder) ModelID() string { return "test/point@16" }
func (p pointEmbedder) Dim() int        { return 16 }
func (p pointEmbedder) Close() error    { return nil }
func (p pointEmbedder) EmbedQuery(context.Context, string) ([]float32, error) {
	return p.q, p.err
}
func (p pointEmbedder) EmbedDocuments(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("not used")
}

// TestHybridRetrieve gives every chunk of the test project a random vector
// and makes the query's vector equal to one chunk's: that chunk must come
// first even for a query with no lexical match, and path filters must hold
// for vector candidates as for lexical ones.
func TestHybridRetrieve(t *testing.T) {
	pl, h, ix, target := pointPipeline(t)
	ctx := context.Background()

	got, err := pl.Retrieve(ctx, h, search.Request{Query: "zqxjv wwkpt"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 || got[0].Chunk.ID != target.ChunkID || got[0].FirstStage != 1 {
		t.Fatalf("vector-only retrieval: %d results, first %s (%v)", len(got), got[0].Chunk.Name, got[0].FirstStage)
	}
	for i := 1; i < len(got); i++ {
		if got[i].FirstStage > got[i-1].FirstStage || got[i].FirstStage <= 0 {
			t.Fatalf("first-stage scores not descending in (0,1]: %v", got[i].FirstStage)
		}
	}

	// Lexical and vector candidates together: a lexical question keeps its
	// lexical answer among the candidates and adds the vector one.
	got, err = pl.Retrieve(ctx, h, search.Request{Query: "where are JWT tokens validated"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range got {
		seen[r.Chunk.Name] = true
	}
	if !seen["validateToken"] || !seen["getSecret"] {
		t.Fatalf("fused candidates lack the lexical or the vector answer: %v", seen)
	}

	// Filters: outside src/config nothing may come back, from either list.
	for _, paths := range [][]string{{"src/config"}, {"nowhere/"}} {
		got, err = pl.Retrieve(ctx, h, search.Request{Query: "token secret", Paths: paths}, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range got {
			if !strings.HasPrefix(r.Chunk.RelativePath, strings.TrimSuffix(paths[0], "/")+"/") {
				t.Fatalf("filter %v let %s through", paths, r.Chunk.RelativePath)
			}
		}
	}

	// A query that cannot be embedded degrades to lexical candidates.
	var reported error
	bad := &search.Hybrid{Embedder: pointEmbedder{err: errors.New("provider down")}, Index: ix, OnError: func(e error) { reported = e }}
	lexOnly, _ := pl.Retrieve(ctx, nil, search.Request{Query: "token secret"}, 10)
	got, err = pl.Retrieve(ctx, bad, search.Request{Query: "token secret"}, 10)
	if err != nil || reported == nil || len(got) != len(lexOnly) {
		t.Fatalf("degraded retrieval: %d results (lexical %d), err %v, reported %v", len(got), len(lexOnly), err, reported)
	}

	// An index of another space is refused rather than searched.
	other, _ := vector.New("test/other@16", 16, vector.Options{})
	reported = nil
	if _, err := pl.Retrieve(ctx, &search.Hybrid{Embedder: pointEmbedder{q: target.Data}, Index: other, OnError: func(e error) { reported = e }},
		search.Request{Query: "token"}, 5); err != nil || reported == nil {
		t.Fatalf("mismatched model: err %v, reported %v", err, reported)
	}
}

// pointPipeline is the test project's pipeline with a vector side whose
// query vector is getSecret's own (see pointIndex).
func pointPipeline(t *testing.T) (search.Pipeline, *search.Hybrid, *vector.Index, store.Vector) {
	t.Helper()
	st := projectStore(t)
	ix, target := pointIndex(t, st, "getSecret")
	return search.Pipeline{Store: st}, &search.Hybrid{Embedder: pointEmbedder{q: target.Data}, Index: ix}, ix, target
}

// pointIndex gives every chunk of st a random vector (seeded) and returns
// the index and the vector of the chunk named target.
func pointIndex(t *testing.T, st *store.Store, target string) (*vector.Index, store.Vector) {
	t.Helper()
	files, err := st.AllFiles()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 2))
	ix, _ := vector.New("test/point@16", 16, vector.Options{})
	var found store.Vector
	for _, f := range files {
		cs, _ := st.ChunksByFile(f.Path)
		for _, c := range cs {
			v := make([]float32, 16)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			sv := store.Vector{ChunkID: c.ID, Data: v}
			if c.Name == target {
				found = sv
			}
			if err := ix.Upsert([]store.Vector{sv}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found.ChunkID == "" {
		t.Fatalf("fixture has no %s", target)
	}
	return ix, found
}

// Join keeps the lexical candidates as they are and adds the neighbours
// the lexical stage missed after them, marked with their vector rank.
func TestHybridJoin(t *testing.T) {
	pl, h, ix, target := pointPipeline(t)
	ctx := context.Background()
	req := search.Request{Query: "where are JWT tokens validated"}

	lex, err := pl.Join(ctx, nil, req, 5)
	if err != nil || len(lex) == 0 {
		t.Fatalf("lexical: %d, %v", len(lex), err)
	}
	got, err := pl.Join(ctx, h, req, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) <= len(lex) {
		t.Fatalf("%d candidates with vectors, %d without: no neighbour joined", len(got), len(lex))
	}
	for i, r := range lex {
		if got[i].Chunk.ID != r.Chunk.ID || got[i].FirstStage != r.FirstStage || got[i].LexicalRank != i+1 {
			t.Fatalf("lexical candidate %d changed: %+v, want %s at %v", i, got[i], r.Chunk.ID, r.FirstStage)
		}
	}
	seen := map[string]bool{}
	for i, r := range got[len(lex):] {
		if r.FirstStage != 0 || r.LexicalRank != 0 || r.VectorRank == 0 || seen[r.Chunk.ID] {
			t.Fatalf("joined neighbour %d: %+v", i, r)
		}
		if i > 0 && r.VectorRank <= got[len(lex)+i-1].VectorRank {
			t.Fatalf("neighbours out of vector order at %d", i)
		}
		seen[r.Chunk.ID] = true
	}
	if got[len(lex)].Chunk.ID != target.ChunkID || got[len(lex)].VectorRank != 1 {
		t.Fatalf("the nearest neighbour %s is not the first joined: %+v", target.ChunkID, got[len(lex)])
	}
	// Every candidate, neighbour or not, carries its cosine to the query
	// from the vector index, for the ranker's semantic features.
	outside := 0
	for _, r := range got {
		want, err := ix.Similarities(target.Data, []string{r.Chunk.ID})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Similarity-float64(want[0])) > 1e-6 || r.Similarity == 0 {
			t.Errorf("%s (vector rank %d): similarity %v, want %v", r.Chunk.Name, r.VectorRank, r.Similarity, want[0])
		}
		if r.VectorRank == 0 {
			outside++
		}
	}
	if outside == 0 {
		t.Fatalf("every lexical candidate is a neighbour: the fixture no longer tests candidates outside them")
	}

	// A query that cannot be embedded gives the lexical candidates.
	var reported error
	bad := &search.Hybrid{Embedder: pointEmbedder{err: errors.New("provider down")}, Index: ix, OnError: func(e error) { reported = e }}
	got, err = pl.Join(ctx, bad, req, 5)
	if err != nil || reported == nil || len(got) != len(lex) {
		t.Fatalf("degraded: %d candidates (lexical %d), err %v, reported %v", len(got), len(lex), err, reported)
	}
}
