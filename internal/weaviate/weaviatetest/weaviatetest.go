// Package weaviatetest gives tests the Weaviate cluster that
// scripts/weaviate.sh starts, and tenants of it that are removed after the
// test.
package weaviatetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/scry-dev/scry/internal/weaviate"
)

// EnvRequire makes a missing cluster a test failure instead of a skip (CI
// sets it).
const EnvRequire = "SCRY_REQUIRE_WEAVIATE"

// Env is the environment of a shared-index workspace on the cluster, whose
// repository is repo: SCRY_BACKEND, SCRY_WEAVIATE_URL, SCRY_WEAVIATE_KEY
// and SCRY_REPO. Without SCRY_WEAVIATE_URL the test is skipped, or fails
// when SCRY_REQUIRE_WEAVIATE is set.
func Env(t testing.TB, repo string) map[string]string {
	t.Helper()
	url := os.Getenv("SCRY_WEAVIATE_URL")
	if url == "" {
		if os.Getenv(EnvRequire) != "" {
			t.Fatal("SCRY_WEAVIATE_URL is not set: start Weaviate with scripts/weaviate.sh start DIR")
		}
		t.Skip("SCRY_WEAVIATE_URL is not set (scripts/weaviate.sh start DIR prints it)")
	}
	return map[string]string{"SCRY_BACKEND": "weaviate", "SCRY_WEAVIATE_URL": url, "SCRY_WEAVIATE_KEY": os.Getenv("SCRY_WEAVIATE_KEY"), "SCRY_REPO": repo}
}

// Tenant is a fresh repository name, prefix_ and eight hex digits, on the
// cluster of env (Env); its tenant is deleted after the test.
func Tenant(t testing.TB, env map[string]string, prefix string) string {
	t.Helper()
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
