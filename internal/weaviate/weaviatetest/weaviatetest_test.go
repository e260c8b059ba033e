package weaviatetest

import (
	"strings"
	"testing"
)

// Without a cluster the test is skipped (CI sets EnvRequire, which makes
// it fail instead); with one, Env names it and Tenant gives a fresh name.
func TestEnvAndTenant(t *testing.T) {
	env := Env(t, "r")
	if env["SCRY_BACKEND"] != "weaviate" || env["SCRY_REPO"] != "r" || env["SCRY_WEAVIATE_URL"] == "" {
		t.Errorf("env %v", env)
	}
	a, b := Tenant(t, env, "p"), Tenant(t, env, "p")
	if a == b || !strings.HasPrefix(a, "p_") || len(a) != len("p_")+8 {
		t.Errorf("tenants %q, %q", a, b)
	}
}
