package engine_test

import (
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

var sharedFixture = map[string]string{
	"src/auth/token.ts": "import { hmac } from '../crypto';\n\n/** Validates a signed token. */\nexport function validateToken(token: string): boolean {\n  return hmac(token).length > 0;\n}\n",
	"src/crypto.ts":     "export function hmac(data: string): string {\n  return data.split('').reverse().join('');\n}\n",
	"src/session.ts":    "export class SessionStore {\n  open(id: string) { return id; }\n  close(id: string) { return !id; }\n}\n",
}

// TestSharedIndexEndToEnd: `scry index --backend weaviate` fills the
// tenant from a workspace; a stateless engine elsewhere (no checkout, no
// local index) answers with the same results, snapshots from the stored
// file texts, and structure marked approximate.
func TestSharedIndexEndToEnd(t *testing.T) {
	env := weaviatetest.Env(t, "")
	repo := weaviatetest.Tenant(t, env, "e2e")
	env["SCRY_REPO"] = repo
	getenv := func(k string) string { return env[k] }
	root := t.TempDir()
	testkit.WriteTree(t, root, sharedFixture)
	ctx := context.Background()
	sum := publishTree(t, root, getenv)
	if sum.Sent != len(sharedFixture) || sum.Chunks == 0 {
		t.Fatalf("publish: %+v", sum)
	}

	elsewhere := t.TempDir() // a server with no checkout
	s, err := engine.Open(ctx, engine.Options{Root: elsewhere, Getenv: getenv, Sync: true, Models: true, Compiler: engine.CompilerWait})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Local(ctx); !errors.Is(err, engine.ErrNeedsLocalIndex) {
		t.Fatalf("a reader of the shared index with no checkout hands out a local index (%v)", err)
	}
	ans, err := s.Search(ctx, engine.Query{Text: "where are tokens validated"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Response.Results) == 0 || ans.Response.Results[0].Chunk.Name != "validateToken" {
		t.Fatalf("results %+v, want validateToken first", ans.Response.Results)
	}
	if len(ans.Snapshots) == 0 || !strings.Contains(ans.Snapshots[0].Text, "hmac(token).length > 0") || !strings.Contains(ans.Snapshots[0].Text, "import { hmac }") {
		t.Errorf("snapshot does not hold the indexed file's symbol and its import: %+v", ans.Snapshots)
	}
	if !ans.Approximate || !strings.Contains(render.Graph(ans), "shared index") {
		t.Errorf("structure from the shared index is not marked approximate:\n%s", render.Graph(ans))
	}
	sym, err := s.Search(ctx, engine.Query{Text: "symbol = SessionStore"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sym.Response.Results) != 1 || !strings.Contains(render.Graph(sym), "open()") {
		t.Errorf("symbol lookup: %d results, graph\n%s\nwant SessionStore with its members", len(sym.Response.Results), render.Graph(sym))
	}
	if _, err := os.Stat(filepath.Join(elsewhere, ".scry.toml")); err == nil {
		t.Error("the stateless engine wrote into its directory")
	}
}

// TestSharedIndexBadConfig: a wrong URL, a wrong key or a stopped cluster
// fail Open with an error saying which, and the local index stays as it
// was.
func TestSharedIndexBadConfig(t *testing.T) {
	good := weaviatetest.Env(t, "bad_config")
	root := t.TempDir()
	testkit.WriteTree(t, root, sharedFixture)
	index := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	syncIndex(t, root, index)
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteTree(t, root, map[string]string{"src/new.ts": "export const added = 1;\n"})
	down := testkit.ClosedURL(t)
	for _, tc := range []struct {
		name, url, key, want string
	}{
		{"cluster down", down, good["SCRY_WEAVIATE_KEY"], "unreachable"},
		{"wrong url", "http://127.0.0.1:1", good["SCRY_WEAVIATE_KEY"], "unreachable"},
		{"wrong key", good["SCRY_WEAVIATE_URL"], "wrong", "SCRY_WEAVIATE_KEY"},
	} {
		env := map[string]string{"SCRY_BACKEND": "weaviate", "SCRY_WEAVIATE_URL": tc.url, "SCRY_WEAVIATE_KEY": tc.key, "SCRY_REPO": "bad_config"}
		_, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: index, Getenv: func(k string) string { return env[k] }, Sync: true, Publish: true})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "backend weaviate") {
			t.Errorf("%s: error %v, want one naming the backend and %q", tc.name, err, tc.want)
		}
		after, rerr := os.ReadFile(index)
		if rerr != nil || !bytes.Equal(before, after) {
			t.Errorf("%s: the local index changed", tc.name)
		}
	}
}

// TestSharedIndexHybrid: with an embedder configured, `scry index` sends
// each chunk's vector with it, and a stateless engine embeds the query and
// takes vector candidates from the cluster (the embedding service sees the
// query; nothing is reported as failed).
func TestSharedIndexHybrid(t *testing.T) {
	env := weaviatetest.Env(t, "")
	repo := weaviatetest.Tenant(t, env, "hybrid")
	env["SCRY_REPO"] = repo
	env["SCRY_EMBED_KEY"] = "test-key"
	var mu sync.Mutex
	var inputs []string
	srv := testkit.EmbeddingServer(t, func(text string) []float32 {
		v := make([]float32, 16)
		for _, word := range strings.Fields(strings.ToLower(text)) {
			h := fnv.New32a()
			h.Write([]byte(word))
			v[h.Sum32()%16]++
		}
		v[0] += 0.5 // never the zero vector
		return v
	}, func(texts []string) {
		mu.Lock()
		inputs = append(inputs, texts...)
		mu.Unlock()
	})
	configure := func(cfg *config.Config) error {
		cfg.Embedding.Provider, cfg.Embedding.URL, cfg.Embedding.Model = "openai", srv.URL+"/v1", "words"
		return nil
	}
	var warned []error
	opts := func(root string, publish bool) engine.Options {
		o := engine.Options{Root: root, Getenv: func(k string) string { return env[k] }, Configure: configure, Models: true, Sync: true, Publish: publish,
			Warn: func(err error) { warned = append(warned, err) }}
		if publish {
			o.IndexPath = filepath.Join(t.TempDir(), "index.db")
		}
		return o
	}
	root := t.TempDir()
	testkit.WriteTree(t, root, sharedFixture)
	ctx := context.Background()
	e, err := engine.Open(ctx, opts(root, true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	e.Close()
	c, err := weaviate.Connect(ctx, weaviate.Config{URL: env["SCRY_WEAVIATE_URL"], Key: env["SCRY_WEAVIATE_KEY"]})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := c.Reader(ctx, []string{repo})
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float32, 16)
	q[0] = 1
	if ids, err := rd.Nearest(ctx, q, "openai/words@16", 5, nil, nil); err != nil || len(ids) == 0 {
		t.Fatalf("the cluster holds no vectors of the configured model: %v, %v", ids, err)
	}

	s, err := engine.Open(ctx, opts(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mu.Lock()
	inputs = nil
	mu.Unlock()
	ans, err := s.Search(ctx, engine.Query{Text: "where are tokens validated"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Response.Results) == 0 || ans.Response.Results[0].Chunk.Name != "validateToken" {
		t.Errorf("results %+v, want validateToken first", ans.Response.Results)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(inputs) != 1 || !strings.Contains(inputs[0], "where are tokens validated") {
		t.Errorf("the embedding service was asked %q, want the query once", inputs)
	}
	if len(warned) > 0 {
		t.Errorf("warnings: %v", warned)
	}
}

// TestSharedIndexCheckout: a server that has the repository checked out
// answers structure from TypeScript 7 there (calls resolved, not
// approximate) while the file is at the indexed version, and from the
// index, saying why, once the checkout differs.
func TestSharedIndexCheckout(t *testing.T) {
	env := weaviatetest.Env(t, "")
	repo := weaviatetest.Tenant(t, env, "checkout")
	env["SCRY_REPO"] = repo
	env["SCRY_TSGO"] = tslstest.Binary(t)
	root := t.TempDir()
	testkit.WriteTree(t, root, sharedFixture)
	ctx := context.Background()
	getenv := func(k string) string { return env[k] }
	publishTree(t, root, getenv)

	env["SCRY_CHECKOUTS"] = repo + "=" + root
	s, err := engine.Open(ctx, engine.Options{Root: t.TempDir(), Getenv: getenv, Sync: true, Compiler: engine.CompilerWait, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ans, err := s.Search(ctx, engine.Query{Text: "symbol = validateToken", CallDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Approximate || !strings.Contains(render.Graph(ans), "hmac") {
		t.Errorf("with a checkout at the indexed version: approximate %v, graph\n%s\nwant the compiler's answer with the call to hmac", ans.Approximate, render.Graph(ans))
	}
	testkit.WriteTree(t, root, map[string]string{"src/auth/token.ts": strings.Replace(sharedFixture["src/auth/token.ts"], "length > 0", "length > 1", 1)})
	ans, err = s.Search(ctx, engine.Query{Text: "symbol = validateToken", CallDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Approximate || !strings.Contains(render.Graph(ans), "differs from the indexed version") {
		t.Errorf("with a checkout that differs: approximate %v, graph\n%s\nwant the index's answer saying why", ans.Approximate, render.Graph(ans))
	}
}

// TestSharedIndexServedSet is issue 29 B.18: a shared-index server reads
// only the repositories it was started with (--repo, SCRY_REPO). A query
// may narrow that set, never widen it, and a name outside it gets the
// same refusal whether or not the cluster has such a tenant, before the
// cluster is asked.
func TestSharedIndexServedSet(t *testing.T) {
	env := weaviatetest.Env(t, "")
	ctx := context.Background()
	repos := map[string]string{}
	for _, name := range []string{"served", "other"} {
		repo := weaviatetest.Tenant(t, env, name)
		repos[name] = repo
		env["SCRY_REPO"] = repo
		getenv := func(k string) string { return env[k] }
		root := t.TempDir()
		testkit.WriteTree(t, root, map[string]string{"src/" + name + ".ts": "export function " + name + "Secret(): string {\n  return '" + name + "';\n}\n"})
		publishTree(t, root, getenv)
	}
	env["SCRY_REPO"] = repos["served"]
	getenv := func(k string) string { return env[k] }
	s, err := engine.Open(ctx, engine.Options{Root: t.TempDir(), Getenv: getenv, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name   string
		repos  []string
		refuse bool
	}{
		{"the served set", nil, false},
		{"named within it", []string{repos["served"]}, false},
		{"another tenant", []string{repos["other"]}, true},
		{"another tenant beside a served one", []string{repos["served"], repos["other"]}, true},
		{"no such tenant", []string{"nosuch_tenant"}, true},
	}
	var refusals []string
	for _, tt := range tests {
		ans, err := s.Search(ctx, engine.Query{Text: "symbol = otherSecret", Repos: tt.repos})
		switch {
		case tt.refuse && !errors.Is(err, engine.ErrNotServed):
			t.Errorf("%s: %v, want a refusal", tt.name, err)
		case tt.refuse:
			refusals = append(refusals, strings.ReplaceAll(err.Error(), tt.repos[len(tt.repos)-1], "NAME"))
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case len(ans.Response.Results) != 0:
			t.Errorf("%s: the served repository's answer holds another's symbol: %+v", tt.name, ans.Response.Results)
		}
	}
	if len(refusals) == 3 && (refusals[0] != refusals[1] || refusals[1] != refusals[2]) {
		t.Errorf("refusals tell an existing tenant from a missing one:\n%s", strings.Join(refusals, "\n"))
	}
}

// publishTree indexes root into the shared index's repository that getenv
// names (SCRY_REPO) and returns what publishing sent.
func publishTree(t *testing.T, root string, getenv func(string) string) engine.PublishSummary {
	t.Helper()
	e, err := engine.Open(context.Background(), engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: getenv, Sync: true, Publish: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	sum, err := e.Publish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sum
}
