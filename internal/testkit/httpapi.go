package testkit

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
)

// JSONPosts records what a fake model API (embeddings, reranking) is sent:
// each request must be a POST to Path with the bearer token Key and a JSON
// body, which is kept.
type JSONPosts struct {
	Path, Key string

	mu     sync.Mutex
	bodies []map[string]any
}

// Record checks r as the API's clients must send it and keeps its body; it
// returns the body and how many requests came before it.
func (p *JSONPosts) Record(t testing.TB, r *http.Request) (body map[string]any, n int) {
	t.Helper()
	if r.Method != http.MethodPost || r.URL.Path != p.Path {
		t.Errorf("%s %s, want POST %s", r.Method, r.URL.Path, p.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+p.Key {
		t.Errorf("Authorization %q", got)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		t.Errorf("body: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n = len(p.bodies)
	p.bodies = append(p.bodies, body)
	return body, n
}

// Bodies returns the bodies of the requests recorded so far, in order.
func (p *JSONPosts) Bodies() []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]map[string]any(nil), p.bodies...)
}
