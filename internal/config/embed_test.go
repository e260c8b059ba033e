package config

import (
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/embed"
)

func TestEmbeddingEnvAndValidation(t *testing.T) {
	env := map[string]string{
		"SCRY_EMBEDDER": "openai", "SCRY_EMBED_URL": "http://127.0.0.1:11434/v1", "SCRY_EMBED_MODEL": "nomic-embed-text",
		"SCRY_EMBED_DIMENSIONS": "768", "SCRY_VECTOR_QUANTIZE_ABOVE": "-1", "SCRY_RRF_K": "30",
		"SCRY_EMBED_KEY": "secret-1", "OPENAI_API_KEY": "secret-2",
		"SCRY_RERANKER": "http", "SCRY_RERANK_URL": "http://127.0.0.1:8080", "SCRY_RERANK_FORMAT": "texts", "SCRY_RERANK_KEY": "secret-3",
	}
	get := func(k string) string { return env[k] }
	var e Embedding
	var r Reranking
	if err := e.ApplyEnv(get); err != nil {
		t.Fatal(err)
	}
	if err := r.ApplyEnv(get); err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	ec := e.EmbedConfig(get)
	if ec.Provider != "openai" || ec.Model != "nomic-embed-text" || ec.Dimensions != 768 || ec.Key != "secret-1" || e.QuantizeAbove != -1 || e.RRFK != 30 {
		t.Fatalf("embed config %+v", ec)
	}
	rc := r.RerankConfig("/lib.so", get)
	if rc.Provider != "http" || rc.Format != "texts" || rc.Key != "secret-3" || rc.ONNXRuntimeLib != "/lib.so" {
		t.Fatalf("rerank config %+v", rc)
	}

	if err := (&Embedding{}).ApplyEnv(func(k string) string {
		if k == "SCRY_EMBED_BATCH" {
			return "lots"
		}
		return ""
	}); err == nil || !strings.Contains(err.Error(), "SCRY_EMBED_BATCH") {
		t.Fatalf("bad integer: %v", err)
	}
	for _, bad := range []Embedding{{Provider: "word2vec"}, {Provider: "onnx"}, {Provider: "openai", URL: "http://x/v1"}, {QuantizeAbove: -5}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	for _, bad := range []Reranking{{Provider: "cohere"}, {Provider: "http"}, {Provider: "onnx"}, {Scores: "raw"}, {Format: "json"}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	for _, ok := range []Embedding{{}, {Provider: "none"}, {Provider: "builtin"}, {Provider: "voyage"}, {Provider: "onnx", Dir: "/m"}, {Provider: "openai"}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

// An unset provider means embed.DefaultProvider; "none" always means no
// embedder; "builtin" needs no key, URL or directory.
func TestEmbedConfigProvider(t *testing.T) {
	getenv := func(string) string { return "" }
	for _, tc := range []struct{ set, want string }{
		{"", embed.DefaultProvider},
		{"none", embed.ProviderNone},
		{"Builtin", embed.ProviderBuiltin},
		{"voyage", embed.ProviderVoyage},
	} {
		if got := (Embedding{Provider: tc.set}).EmbedConfig(getenv).Provider; got != tc.want {
			t.Errorf("provider %q: %q, want %q", tc.set, got, tc.want)
		}
	}
}
