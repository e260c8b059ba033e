package engine_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/weaviate"
)

// sharedEnv is the environment of a shared-index engine on the Weaviate
// scripts/weaviate.sh started (skipped without one, failed without one
// when SCRY_REQUIRE_WEAVIATE is set, as in CI).
func sharedEnv(t *testing.T, repo string) map[string]string {
	t.Helper()
	url := os.Getenv("SCRY_WEAVIATE_URL")
	if url == "" {
		if os.Getenv("SCRY_REQUIRE_WEAVIATE") != "" {
			t.Fatal("SCRY_WEAVIATE_URL is not set: start Weaviate with scripts/weaviate.sh start DIR")
		}
		t.Skip("SCRY_WEAVIATE_URL is not set (scripts/weaviate.sh start DIR prints it)")
	}
	return map[string]string{"SCRY_BACKEND": "weaviate", "SCRY_WEAVIATE_URL": url, "SCRY_WEAVIATE_KEY": os.Getenv("SCRY_WEAVIATE_KEY"), "SCRY_REPO": repo}
}

func freshRepo(t *testing.T, env map[string]string, prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	repo := prefix + "_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		c, err := weaviate.Connect(context.Background(), weaviate.Config{URL: env["SCRY_WEAVIATE_URL"], Key: env["SCRY_WEAVIATE_KEY"]})
		if err == nil {
			c.DeleteTenant(context.Background(), repo)
		}
	})
	return repo
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, src := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

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
	env := sharedEnv(t, "")
	repo := freshRepo(t, env, "e2e")
	env["SCRY_REPO"] = repo
	getenv := func(k string) string { return env[k] }
	root := t.TempDir()
	writeTree(t, root, sharedFixture)
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: filepath.Join(t.TempDir(), "index.db"), Getenv: getenv, Sync: true, Publish: true})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := e.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	if sum.Sent != len(sharedFixture) || sum.Chunks == 0 {
		t.Fatalf("publish: %+v", sum)
	}

	elsewhere := t.TempDir() // a server with no checkout
	s, err := engine.Open(ctx, engine.Options{Root: elsewhere, Getenv: getenv, Sync: true, Models: true, Compiler: engine.CompilerWait})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Shared() {
		t.Fatal("engine is not reading the shared index")
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
	if !ans.Approximate || !strings.Contains(ans.Graph, "shared index") {
		t.Errorf("structure from the shared index is not marked approximate:\n%s", ans.Graph)
	}
	sym, err := s.Search(ctx, engine.Query{Text: "symbol = SessionStore"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sym.Response.Results) != 1 || !strings.Contains(sym.Graph, "open()") {
		t.Errorf("symbol lookup: %d results, graph\n%s\nwant SessionStore with its members", len(sym.Response.Results), sym.Graph)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, ".scry.toml")); err == nil {
		t.Error("the stateless engine wrote into its directory")
	}
}

// TestSharedIndexBadConfig: a wrong URL, a wrong key or a stopped cluster
// fail Open with an error saying which, and the local index stays as it
// was.
func TestSharedIndexBadConfig(t *testing.T) {
	good := sharedEnv(t, "bad_config")
	root := t.TempDir()
	writeTree(t, root, sharedFixture)
	index := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{Root: root, IndexPath: index, Getenv: func(string) string { return "" }, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"src/new.ts": "export const added = 1;\n"})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	l.Close()
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
