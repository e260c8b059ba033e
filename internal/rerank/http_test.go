package rerank

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/testkit"
)

const testKey = "rk-test-0123456789"

func manyDocs(n int) []Doc {
	out := make([]Doc, n)
	for i := range out {
		out[i] = Doc{Name: fmt.Sprintf("f%d", i), Breadcrumb: fmt.Sprintf("a.ts > f%d", i), Text: fmt.Sprintf("function f%d() {}", i)}
	}
	return out
}

// scoreOf is the relevance the fake servers give a document: derived from
// its text so that the test knows which score belongs where.
func scoreOf(doc string) float64 {
	var n int
	fmt.Sscanf(doc[strings.Index(doc, "> f")+3:], "%d", &n)
	return float64(n%10) / 10
}

// fakeScore is the score the fake servers give manyDocs' document i
// (scoreOf its text).
func fakeScore(i int) float64 { return float64(i%10) / 10 }

// checkScores fails the test unless got holds n scores, score i being
// want(i).
func checkScores(t *testing.T, got []float64, n int, want func(i int) float64) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("%d scores, want %d", len(got), n)
	}
	for i, s := range got {
		if w := want(i); math.Abs(s-w) > 1e-9 {
			t.Fatalf("doc %d: %v, want %v", i, s, w)
		}
	}
}

type rerankServer struct {
	t       *testing.T
	handler func(w http.ResponseWriter, body map[string]any, n int)
	testkit.JSONPosts
}

func (s *rerankServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, n := s.Record(s.t, r)
	w.Header().Set("Content-Type", "application/json")
	s.handler(w, body, n)
}

// serveRerank serves a fake reranking API at path, answering with handler
// (which is given each request's body and how many came before it), for
// the test's duration; it returns the fake and the server's URL.
func serveRerank(t *testing.T, path string, handler func(w http.ResponseWriter, body map[string]any, n int)) (*rerankServer, string) {
	t.Helper()
	srv := &rerankServer{t: t, handler: handler, JSONPosts: testkit.JSONPosts{Path: path, Key: testKey}}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return srv, hs.URL
}

// relevanceScore is one result of the Cohere-style and Voyage answers.
type relevanceScore struct {
	Index          int     `json:"index"`
	RelevanceScore float64 `json:"relevance_score"`
}

// relevanceScores scores each of docs, listed last document first so that
// the client must place each score by its index.
func relevanceScores(docs []any, score func(doc string) float64) []relevanceScore {
	var out []relevanceScore
	for i := len(docs) - 1; i >= 0; i-- {
		out = append(out, relevanceScore{Index: i, RelevanceScore: score(docs[i].(string))})
	}
	return out
}

// cohereStyle answers as Cohere, Jina, vLLM and llama.cpp do: results
// sorted by score, each with index and relevance_score.
func cohereStyle(t *testing.T, logits bool) func(w http.ResponseWriter, body map[string]any, n int) {
	return func(w http.ResponseWriter, body map[string]any, n int) {
		docs, ok := body["documents"].([]any)
		if !ok || body["query"] == nil || body["top_n"] != float64(len(docs)) {
			t.Errorf("request %v", body)
		}
		score := scoreOf
		if logits {
			score = func(doc string) float64 { return scoreOf(doc)*10 - 5 } // llama.cpp returns raw logits
		}
		out := relevanceScores(docs, score)
		json.NewEncoder(w).Encode(map[string]any{"id": "x", "model": body["model"], "results": out,
			"usage": map[string]int{"total_tokens": 10}})
	}
}

func TestHTTPRerankCohereShape(t *testing.T) {
	srv, url := serveRerank(t, "/v1/rerank", cohereStyle(t, false))
	r, err := NewHTTP(Config{URL: url + "/v1", Model: "jina-reranker-v2-base-multilingual", Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	docs := manyDocs(40)
	got := mustRerank(t, r, "find f7", docs)
	checkScores(t, got, len(docs), fakeScore)
	if len(srv.Bodies()) != 2 || srv.Bodies()[0]["model"] != "jina-reranker-v2-base-multilingual" ||
		len(srv.Bodies()[0]["documents"].([]any)) != 32 || len(srv.Bodies()[1]["documents"].([]any)) != 8 {
		t.Fatalf("%d requests", len(srv.Bodies()))
	}
}

func TestHTTPRerankLogitsGetSigmoid(t *testing.T) {
	_, url := serveRerank(t, "/rerank", cohereStyle(t, true))
	// The full endpoint URL is accepted too.
	r, err := NewHTTP(Config{URL: url + "/rerank", Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	got := mustRerank(t, r, "q", manyDocs(10))
	checkScores(t, got, 10, func(i int) float64 { return Sigmoid(float64(i%10) - 5) })
}

// TestHTTPRerankTEI: TEI wants "texts" and answers with a bare array of
// {index, score}; the client learns that from the 422 and keeps it.
func TestHTTPRerankTEI(t *testing.T) {
	srv, url := serveRerank(t, "/rerank", func(w http.ResponseWriter, body map[string]any, n int) {
		texts, ok := body["texts"].([]any)
		if !ok {
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"error":"Json deserialize error: missing field `+"`texts`"+` at line 1 column 120","error_type":"Validation"}`)
			return
		}
		if len(texts) > 32 {
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprintf(w, `{"error":"batch size %d > maximum allowed batch size 32","error_type":"Validation"}`, len(texts))
			return
		}
		type res struct {
			Index int     `json:"index"`
			Score float64 `json:"score"`
		}
		var out []res
		for i := range texts {
			out = append(out, res{Index: i, Score: scoreOf(texts[i].(string))})
		}
		json.NewEncoder(w).Encode(out)
	})
	r, err := NewHTTP(Config{URL: url, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		got := mustRerank(t, r, "q", manyDocs(40))
		checkScores(t, got, 40, fakeScore)
	}
	// 1 refused + 2 batches, then 2 batches: the switch is remembered.
	if len(srv.Bodies()) != 5 {
		t.Fatalf("%d requests", len(srv.Bodies()))
	}
}

func TestHTTPRerankErrorsAndRetries(t *testing.T) {
	srv, url := serveRerank(t, "/rerank", func(w http.ResponseWriter, body map[string]any, n int) {
		switch n {
		case 0:
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"message":"too many requests"}`)
		case 1:
			w.WriteHeader(http.StatusInternalServerError)
		case 2:
			cohereStyle(t, false)(w, body, n)
		default:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"message":"invalid request: query must not be empty"}`)
		}
	})
	var mu sync.Mutex
	var waits []time.Duration
	r, err := NewHTTP(Config{URL: url, Key: testKey, Retry: embed.RetryPolicy{Sleep: func(_ context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return nil
	}}})
	if err != nil {
		t.Fatal(err)
	}
	mustRerank(t, r, "q", manyDocs(3))
	if len(waits) != 2 || waits[0] < 2*time.Second {
		t.Fatalf("waits %v", waits)
	}
	_, err = r.Rerank(context.Background(), "q", manyDocs(3))
	if err == nil || !strings.Contains(err.Error(), "query must not be empty") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("400: %v", err)
	}
	if len(srv.Bodies()) != 4 {
		t.Fatalf("%d requests (the 400 must not be retried)", len(srv.Bodies()))
	}
}

func TestVoyageRerankShape(t *testing.T) {
	srv, url := serveRerank(t, "/v1/rerank", func(w http.ResponseWriter, body map[string]any, n int) {
		docs := body["documents"].([]any)
		if body["model"] != "rerank-2.5" || body["top_k"] != float64(len(docs)) || body["truncation"] != true || body["query"] != "q" {
			t.Errorf("request %v", body)
		}
		out := relevanceScores(docs, scoreOf)
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": out, "model": "rerank-2.5",
			"usage": map[string]int{"total_tokens": 26}})
	})
	if _, err := NewVoyage(Config{URL: url + "/v1"}); err == nil {
		t.Fatal("no key accepted")
	}
	r, err := NewVoyage(Config{URL: url + "/v1", Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	got := mustRerank(t, r, "q", manyDocs(25))
	checkScores(t, got, 25, fakeScore)
	if r.Name() != "voyage:rerank-2.5" || len(srv.Bodies()) != 1 {
		t.Fatalf("%s, %d requests", r.Name(), len(srv.Bodies()))
	}
}

func TestNewProviders(t *testing.T) {
	for _, p := range []string{"", "builtin", "none"} {
		r, err := New(context.Background(), Config{Provider: p})
		if err != nil {
			t.Fatal(err)
		}
		if (p == "none") != (r.Name() == ProviderNone) {
			t.Fatalf("%q → %s", p, r.Name())
		}
	}
	if _, err := New(context.Background(), Config{Provider: "http"}); err == nil {
		t.Fatal("http without URL accepted")
	}
	if _, err := New(context.Background(), Config{Provider: "cohere"}); err == nil {
		t.Fatal("unknown provider accepted")
	}
	if s := Sigmoid(0); s != 0.5 || Sigmoid(-1000) != 0 || Sigmoid(1000) != 1 {
		t.Fatal("sigmoid")
	}
}
