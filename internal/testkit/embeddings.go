package testkit

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// embeddingsRequest and embeddingsResponse are the parts of the OpenAI
// embeddings API that scry's HTTP embedder sends and reads.
type embeddingsRequest struct {
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []embedding `json:"data"`
}

type embedding struct {
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

// EmbeddingServer serves the OpenAI embeddings API (POST
// /v1/embeddings) with the vectors vec gives, so that a test runs scry's
// real HTTP embedder against a model whose geometry it knows. seen, when
// not nil, is told every batch of texts before it is embedded (from the
// server's goroutines). The server is closed when the test ends.
func EmbeddingServer(t testing.TB, vec func(text string) []float32, seen func(texts []string)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req embeddingsRequest
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if seen != nil {
			seen(req.Input)
		}
		resp := embeddingsResponse{Data: make([]embedding, len(req.Input))}
		for i, text := range req.Input {
			resp.Data[i] = embedding{Index: i, Embedding: vec(text)}
		}
		w.Header().Set("Content-Type", "application/json")
		if err := json.NewEncoder(w).Encode(resp); err != nil {
			t.Errorf("embedding server: %v", err)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
