// Package weaviatetest gives tests the Weaviate cluster that
// scripts/weaviate.sh starts, and tenants of it that are removed after the
// test.
package weaviatetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"testing"

	"github.com/scry-dev/scry/internal/weaviate"
)

// EnvRequire makes a missing cluster a test failure instead of a skip (CI
// sets it).
const EnvRequire = "SCRY_REQUIRE_WEAVIATE"

// Config is the connection settings of the cluster scripts/weaviate.sh
// started (scripts/test.sh exports them): SCRY_WEAVIATE_URL, _KEY and
// _REPLICAS. Without SCRY_WEAVIATE_URL the test is skipped, or fails when
// SCRY_REQUIRE_WEAVIATE is set.
func Config(t testing.TB) weaviate.Config {
	t.Helper()
	url := os.Getenv("SCRY_WEAVIATE_URL")
	if url == "" {
		if os.Getenv(EnvRequire) != "" {
			t.Fatal("SCRY_WEAVIATE_URL is not set: start Weaviate with scripts/weaviate.sh start DIR")
		}
		t.Skip("SCRY_WEAVIATE_URL is not set (scripts/weaviate.sh start DIR prints it)")
	}
	replicas, _ := strconv.Atoi(os.Getenv("SCRY_WEAVIATE_REPLICAS"))
	return weaviate.Config{URL: url, Key: os.Getenv("SCRY_WEAVIATE_KEY"), Replicas: replicas}
}

// Env is the environment of a shared-index workspace on the cluster, whose
// repository is repo: SCRY_BACKEND, SCRY_WEAVIATE_URL, SCRY_WEAVIATE_KEY
// and SCRY_REPO (skipped or failed as Config is).
func Env(t testing.TB, repo string) map[string]string {
	t.Helper()
	cfg := Config(t)
	return map[string]string{"SCRY_BACKEND": "weaviate", "SCRY_WEAVIATE_URL": cfg.URL, "SCRY_WEAVIATE_KEY": cfg.Key, "SCRY_REPO": repo}
}

// Tenant is a fresh repository name, prefix_ and eight hex digits, on the
// cluster of env (Env); its tenant is deleted after the test.
func Tenant(t testing.TB, env map[string]string, prefix string) string {
	t.Helper()
	repo := freshName(prefix)
	t.Cleanup(func() {
		c, err := weaviate.Connect(context.Background(), weaviate.Config{URL: env["SCRY_WEAVIATE_URL"], Key: env["SCRY_WEAVIATE_KEY"]})
		if err == nil {
			c.DeleteTenant(context.Background(), repo)
		}
	})
	return repo
}

// TenantOf is Tenant for a test that holds a client c of the cluster.
func TenantOf(t testing.TB, c *weaviate.Client, prefix string) string {
	t.Helper()
	repo := freshName(prefix)
	t.Cleanup(func() { c.DeleteTenant(context.Background(), repo) })
	return repo
}

// freshName is prefix_ and eight random hex digits.
func freshName(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}
