package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/tsls/tslstest"
	"github.com/scry-dev/scry/internal/weaviate"
)

// TestStructureCommandOnCheckout: with the weaviate backend, a structure
// command (scry refs) for one repository this machine has checked out
// answers from that checkout; without the checkout it is refused.
func TestStructureCommandOnCheckout(t *testing.T) {
	url := os.Getenv("SCRY_WEAVIATE_URL")
	if url == "" {
		if os.Getenv("SCRY_REQUIRE_WEAVIATE") != "" {
			t.Fatal("SCRY_WEAVIATE_URL is not set: start Weaviate with scripts/weaviate.sh start DIR")
		}
		t.Skip("SCRY_WEAVIATE_URL is not set (scripts/weaviate.sh start DIR prints it)")
	}
	b := make([]byte, 4)
	rand.Read(b)
	repo := "cli_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		if c, err := weaviate.Connect(context.Background(), weaviate.Config{URL: url, Key: os.Getenv("SCRY_WEAVIATE_KEY")}); err == nil {
			c.DeleteTenant(context.Background(), repo)
		}
	})
	root := t.TempDir()
	for rel, src := range map[string]string{
		"src/crypto.ts": "export function hmac(data: string): string {\n  return data.split('').reverse().join('');\n}\n",
		"src/token.ts":  "import { hmac } from './crypto';\n\nexport function sign(token: string): string {\n  return hmac(token);\n}\n",
	} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755)
		os.WriteFile(filepath.Join(root, rel), []byte(src), 0o644)
	}
	t.Setenv("SCRY_TSGO", tslstest.Binary(t))
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	if out, err := runScry(t, "index", "--root", root, "--index", filepath.Join(t.TempDir(), "index.db"), "--backend", "weaviate", "--repo", repo); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	t.Setenv("SCRY_BACKEND", "weaviate")
	t.Setenv("SCRY_REPO", repo)
	elsewhere := t.TempDir()
	if _, err := runScry(t, "refs", "hmac", "--root", elsewhere); err == nil || !strings.Contains(err.Error(), "checkout") {
		t.Errorf("refs without a checkout: %v, want a refusal naming --checkout", err)
	}
	t.Setenv("SCRY_CHECKOUTS", repo+"="+root)
	out, err := runScry(t, "refs", "hmac", "--root", elsewhere)
	if err != nil {
		t.Fatalf("refs on the checkout: %v\n%s", err, out)
	}
	if !strings.Contains(out, "src/token.ts") {
		t.Errorf("refs on the checkout:\n%s\nwant the use in src/token.ts", out)
	}
}
