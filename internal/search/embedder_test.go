package search_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/vector"
)

// conceptServer is an OpenAI-compatible /v1/embeddings server whose
// vectors know one concept no word spells twice: a text about zebras and
// the question "striped horse-like animals of the savanna" point the same
// way, every other text somewhere by the hash of its words. Only real
// vector retrieval can connect the two.
func conceptServer(t *testing.T) *httptest.Server {
	const dim = 32
	vec := func(text string) []float32 {
		v := make([]float32, dim)
		l := strings.ToLower(text)
		if strings.Contains(l, "zebra") || strings.Contains(l, "striped horse") {
			v[0] = 1
		}
		for _, w := range strings.Fields(l) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[1+int(h.Sum32()%(dim-1))] += 0.05
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		for i := range v {
			v[i] /= float32(math.Sqrt(n))
		}
		return v
	}
	return testkit.EmbeddingServer(t, vec, nil)
}

// conceptPipeline indexes files in a new directory, embeds them with
// conceptServer's vectors and returns a hybrid pipeline over them.
func conceptPipeline(t *testing.T, files map[string]string) search.Pipeline {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteTree(t, dir, files)
	st := indexDir(t, dir)
	srv := conceptServer(t)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	emb, err := embed.NewOpenAI(ctx, embed.Config{URL: srv.URL + "/v1", Model: "concepts"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.EmbedPending(ctx, st, emb, index.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	ix, _, err := vector.Load(st, emb.ModelID(), emb.Dim(), vector.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return search.Pipeline{Store: st, Hybrid: &search.Hybrid{Embedder: emb, Index: ix}}
}

// zooFiles: countZebras, the answer to a question that describes zebras
// without naming them, and three functions about other things.
var zooFiles = map[string]string{
	"src/herd.ts":  "export function countZebras(herd: string[]): number {\n  return herd.filter((a) => a === 'zebra').length;\n}\n",
	"src/cart.ts":  "export function addItem(cart: string[], item: string): string[] {\n  return [...cart, item];\n}\n",
	"src/token.ts": "export function validateToken(token: string): boolean {\n  return token.length > 0;\n}\n",
	"src/clock.ts": "export function now(): number {\n  return Date.now();\n}\n",
}

// With an embedder configured, its similarity is a ranking signal: a
// question that shares no word with its answer ranks the vector-nearest
// chunk first.
func TestEmbedderSimilarityRanks(t *testing.T) {
	pl := conceptPipeline(t, zooFiles)
	ctx := context.Background()
	q := "striped horse-like animals of the savanna"
	ranked, err := pl.Rank(ctx, search.Request{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	if len(ranked) == 0 || ranked[0].Chunk.Name != "countZebras" {
		for i, r := range ranked {
			t.Logf("%d. %s (similarity %.3f, score %.3f)", i+1, r.Chunk.Name, r.Similarity, r.Score)
		}
		t.Fatalf("the vector-nearest chunk is not first")
	}
	// Without the embedder the question finds nothing of the sort.
	lexical, err := (&search.Pipeline{Store: pl.Store}).Rank(ctx, search.Request{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lexical {
		if r.Chunk.Name == "countZebras" {
			t.Fatalf("the lexical pipeline found countZebras: the test proves nothing")
		}
	}
}

// The symbols that join the candidates after the vector side (a top
// file's other definitions, the chunks a query names) carry their cosine
// to the query as the first stage's candidates do: left at 0, the semantic
// features would read them as unrelated to it. groomStripes shares no term
// with the query, joins as a symbol of the query's file, and is far from
// the query's 300 nearest neighbours (350 fillers about the same concept
// come first); its vector still says it shares a word with the query.
func TestLateCandidatesCarrySimilarity(t *testing.T) {
	files := map[string]string{
		"src/zoo.ts": "export function countZebras(herd: string[]): number {\n  return herd.filter((a) => a === 'zebra').length;\n}\n" +
			"export function groomStripes(brushes: string[]): number {\n  let n = 0;\n  for (const b in brushes) n++;\n  return n;\n}\n",
	}
	for i := range 350 {
		files[fmt.Sprintf("src/filler/f%d.ts", i)] = fmt.Sprintf("export function filler%d(): string {\n  return 'striped horse %d';\n}\n", i, i)
	}
	pl := conceptPipeline(t, files)
	got, err := pl.Gather(context.Background(), search.Request{Query: "count zebras in the herd"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got.Results {
		if r.Chunk.Name != "groomStripes" {
			continue
		}
		if r.FirstStage != 0 || r.VectorRank != 0 {
			t.Fatalf("groomStripes is a first-stage candidate (score %.3f, vector rank %d): the test proves nothing", r.FirstStage, r.VectorRank)
		}
		if r.Similarity <= 0 {
			t.Fatalf("groomStripes joined with similarity %.3f, want its cosine to the query", r.Similarity)
		}
		return
	}
	t.Fatalf("groomStripes did not join the candidates as a symbol of the query's file")
}

// A question that is a bare name (or a path of names) puts the chunk that
// defines it first, before chunks that use it or define a longer name.
func TestBareNameDefinitionFirst(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/state.ts":       "export class StateManager {\n  private value = 0;\n  get state(): number {\n    return this.value;\n  }\n  set(v: number) {\n    this.value = v;\n  }\n}\n",
		"src/errors.ts":      "export class StateManagerError extends Error {\n  constructor(m: string) {\n    super('StateManager: ' + m);\n  }\n}\n",
		"src/app.ts":         "import { StateManager } from './state';\n// StateManager StateManager StateManager\nexport function boot(): StateManager {\n  const stateManager = new StateManager();\n  stateManager.set(1);\n  return stateManager;\n}\n",
		"test/state.test.ts": "import { StateManager } from '../src/state';\nexport class StateManager2 {}\nit('StateManager', () => new StateManager());\n",
	}
	testkit.WriteTree(t, dir, files)
	st := indexDir(t, dir)
	for _, tc := range []struct{ query, name, parent string }{
		{"StateManager", "StateManager", ""},
		{"StateManager.state", "state", "StateManager"},
		{"StateManager > set", "set", "StateManager"},
		// An identifier inside a sentence: its definition comes first,
		// before the class whose words the sentence also holds.
		{"how does boot create a state manager", "boot", ""},
		{"where is StateManagerError thrown", "StateManagerError", ""},
	} {
		ranked, err := (&search.Pipeline{Store: st}).Rank(context.Background(), search.Request{Query: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		if len(ranked) == 0 || ranked[0].Chunk.Name != tc.name || !strings.Contains(ranked[0].Chunk.Breadcrumb, tc.parent) {
			for i, r := range ranked {
				t.Logf("%d. %s (%s)", i+1, r.Chunk.Breadcrumb, r.Chunk.NodeKind)
			}
			t.Errorf("%q: the definition is not first", tc.query)
		}
	}
}
