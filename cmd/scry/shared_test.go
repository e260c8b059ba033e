package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

// TestStructureCommandOnCheckout: with the weaviate backend, a structure
// command (scry refs) for one repository this machine has checked out
// answers from that checkout; without the checkout it is refused.
func TestStructureCommandOnCheckout(t *testing.T) {
	env := weaviatetest.Env(t, "")
	repo := weaviatetest.Tenant(t, env, "cli")
	root := t.TempDir()
	testkit.WriteTree(t, root, testkit.Signer())
	t.Setenv("SCRY_TSGO", tslstest.Binary(t))
	t.Setenv("SCRY_CACHE_DIR", t.TempDir())
	mustScry(t, "index", "--root", root, "--index", filepath.Join(t.TempDir(), "index.db"), "--backend", "weaviate", "--repo", repo)
	t.Setenv("SCRY_BACKEND", "weaviate")
	t.Setenv("SCRY_REPO", repo)
	elsewhere := t.TempDir()
	if _, err := runScry(t, "refs", "hmac", "--root", elsewhere); err == nil || !strings.Contains(err.Error(), "checkout") {
		t.Errorf("refs without a checkout: %v, want a refusal naming --checkout", err)
	}
	t.Setenv("SCRY_CHECKOUTS", repo+"="+root)
	out := mustScry(t, "refs", "hmac", "--root", elsewhere)
	if !strings.Contains(out, "src/token.ts") {
		t.Errorf("refs on the checkout:\n%s\nwant the use in src/token.ts", out)
	}
}
