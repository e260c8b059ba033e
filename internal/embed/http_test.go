package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/embed/httpapi"
	"github.com/scry-dev/scry/internal/testkit"
)

const testKey = "sk-test-0123456789"

// fakeAPI is an embeddings server that checks each request against the
// documented shape and answers from a script of status codes.
type fakeAPI struct {
	t      *testing.T
	dim    int
	check  func(t *testing.T, body map[string]any)
	script []int // status per request; 200 after the script ends
	header map[int]http.Header
	errors map[int]string // body per scripted error

	posts testkit.JSONPosts // where requests must go, with which key
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.t.Helper()
	body, n := f.posts.Record(f.t, r)
	if n < len(f.script) && f.script[n] != 200 {
		for k, vs := range f.header[n] {
			w.Header()[k] = vs
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.script[n])
		fmt.Fprint(w, f.errors[n])
		return
	}
	if f.check != nil {
		f.check(f.t, body)
	}
	inputs, _ := body["input"].([]any)
	// Answer in reverse order: clients must place vectors by index.
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i := len(inputs) - 1; i >= 0; i-- {
		v := make([]float32, f.dim)
		s, _ := inputs[i].(string)
		for j := range v {
			v[j] = float32(j + 1) // not unit length
		}
		v[0] = float32(len(s) + 1) // identifies the input
		data = append(data, item{Object: "embedding", Index: i, Embedding: v})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body["model"],
		"usage": map[string]int{"prompt_tokens": 5, "total_tokens": 5}})
}

func (f *fakeAPI) count() int {
	return len(f.posts.Bodies())
}

// sleeps records the backoff waits instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return nil
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("function f%d() { return %d; }", i, i)
	}
	return out
}

func checkUnit(t *testing.T, vs [][]float32, dim int) {
	t.Helper()
	for i, v := range vs {
		if len(v) != dim {
			t.Fatalf("vector %d has dimension %d, want %d", i, len(v), dim)
		}
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Fatalf("vector %d: norm² %v", i, n)
		}
	}
}

func TestOpenAIRequestShapeAndBatching(t *testing.T) {
	f := &fakeAPI{t: t, posts: testkit.JSONPosts{Path: "/v1/embeddings", Key: testKey}, dim: 8, check: func(t *testing.T, b map[string]any) {
		if b["model"] != "nomic-embed-text" || b["encoding_format"] != "float" {
			t.Errorf("body %v", b)
		}
		if _, ok := b["dimensions"]; ok {
			t.Errorf("dimensions sent though not configured")
		}
		in := b["input"].([]any)
		if len(in) > 32 {
			t.Errorf("batch of %d inputs, the compatible-server default is 32", len(in))
		}
		for _, x := range in {
			if x == "" {
				t.Errorf("empty input sent")
			}
		}
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	// Dimension unknown for a self-hosted model: found with one probe.
	e, err := NewOpenAI(context.Background(), Config{URL: srv.URL + "/v1/", Model: "nomic-embed-text", Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 8 || e.ModelID() != "openai/nomic-embed-text@8" || f.count() != 1 {
		t.Fatalf("dim %d id %s after %d requests", e.Dim(), e.ModelID(), f.count())
	}
	in := texts(70)
	in[5] = "" // empty chunks must not make the API refuse the batch
	vs, err := e.EmbedDocuments(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkUnit(t, vs, 8)
	if f.count() != 1+3 { // 32 + 32 + 6
		t.Fatalf("%d requests for 70 texts", f.count()-1)
	}
	// Vectors must come back in input order despite the reversed response.
	for i, v := range vs {
		want := float64(len(in[i])+1) / 2
		if i == 5 {
			want = 1 // the empty text was sent as " "
		}
		if got := float64(v[0] / v[1]); math.Abs(got-want) > 1e-4 {
			t.Fatalf("vector %d out of order: %v, want %v", i, got, want)
		}
	}
}

func TestOpenAIDimensionsAndDefaultURLNeedsKey(t *testing.T) {
	if _, err := NewOpenAI(context.Background(), Config{}); err == nil || !strings.Contains(err.Error(), EnvOpenAIKey) {
		t.Fatalf("no key: %v", err)
	}
	f := &fakeAPI{t: t, posts: testkit.JSONPosts{Path: "/embeddings", Key: testKey}, dim: 256, check: func(t *testing.T, b map[string]any) {
		if b["dimensions"] != float64(256) || b["model"] != "text-embedding-3-small" {
			t.Errorf("body %v", b)
		}
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	e, err := NewOpenAI(context.Background(), Config{URL: srv.URL, Model: "text-embedding-3-small", Key: testKey, Dimensions: 256})
	if err != nil {
		t.Fatal(err)
	}
	if f.count() != 0 || e.Dim() != 256 {
		t.Fatalf("configured dimensions still probed (%d requests)", f.count())
	}
	if _, err := e.EmbedQuery(context.Background(), "q"); err != nil {
		t.Fatal(err)
	}
}

func TestRetries429And5xx(t *testing.T) {
	f := &fakeAPI{t: t, posts: testkit.JSONPosts{Path: "/embeddings", Key: testKey}, dim: 4,
		script: []int{429, 500, 503, 200},
		header: map[int]http.Header{0: {"Retry-After": []string{"3"}}},
		errors: map[int]string{
			0: `{"error":{"message":"Rate limit reached","type":"requests"}}`,
			1: `{"error":{"message":"The server had an error","type":"server_error"}}`,
			2: `upstream unavailable`,
		}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	var sl sleeps
	e, err := NewOpenAI(context.Background(), Config{URL: srv.URL, Model: "m", Key: testKey, Dimensions: 4,
		Retry: RetryPolicy{Sleep: sl.sleep, BaseDelay: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.EmbedDocuments(context.Background(), texts(3))
	if err != nil {
		t.Fatal(err)
	}
	checkUnit(t, vs, 4)
	if f.count() != 4 || len(sl.d) != 3 {
		t.Fatalf("%d requests, %d waits", f.count(), len(sl.d))
	}
	if sl.d[0] < 3*time.Second {
		t.Fatalf("Retry-After: 3 waited %s", sl.d[0])
	}
	// Full jitter: below the exponential ceilings 200ms and 400ms.
	if sl.d[1] > 200*time.Millisecond || sl.d[2] > 400*time.Millisecond || sl.d[1] <= 0 {
		t.Fatalf("backoff waits %v", sl.d)
	}
}

func TestRetryGivesUp(t *testing.T) {
	f := &fakeAPI{t: t, posts: testkit.JSONPosts{Path: "/embeddings", Key: testKey}, dim: 4, script: []int{502, 502, 502}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	var sl sleeps
	e, _ := NewOpenAI(context.Background(), Config{URL: srv.URL, Model: "m", Key: testKey, Dimensions: 4,
		Retry: RetryPolicy{Sleep: sl.sleep, Attempts: 3}})
	_, err := e.EmbedDocuments(context.Background(), texts(1))
	if err == nil || !strings.Contains(err.Error(), "giving up after 3 attempts") || f.count() != 3 {
		t.Fatalf("after %d requests: %v", f.count(), err)
	}
}

func TestClientErrorsAreClearAndKeyless(t *testing.T) {
	f := &fakeAPI{t: t, posts: testkit.JSONPosts{Path: "/embeddings", Key: testKey}, dim: 4, script: []int{400, 401},
		errors: map[int]string{
			0: `{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","param":null,"code":null}}`,
			1: `{"error":{"message":"Incorrect API key provided: ` + testKey + `","type":"invalid_request_error","code":"invalid_api_key"}}`,
		}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	e, _ := NewOpenAI(context.Background(), Config{URL: srv.URL, Model: "m", Key: testKey, Dimensions: 4,
		Retry: RetryPolicy{Sleep: (&sleeps{}).sleep}})
	_, err := e.EmbedDocuments(context.Background(), texts(1))
	var ae *httpapi.APIError
	if !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(err.Error(), "maximum context length is 8192 tokens") {
		t.Fatalf("400: %v", err)
	}
	if f.count() != 1 {
		t.Fatalf("a 400 was retried (%d requests)", f.count())
	}
	_, err = e.EmbedDocuments(context.Background(), texts(1))
	if err == nil || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "[redacted]") ||
		!strings.Contains(err.Error(), "API key") {
		t.Fatalf("401: %v", err)
	}
}

func TestPayloadTooLargeSplitsTheBatch(t *testing.T) {
	f := &fakeAPI{t: t, posts: testkit.JSONPosts{Path: "/embeddings", Key: testKey}, dim: 4, script: []int{413}, errors: map[int]string{0: "payload too large"}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	e, _ := NewOpenAI(context.Background(), Config{URL: srv.URL, Model: "m", Key: testKey, Dimensions: 4, BatchSize: 8})
	vs, err := e.EmbedDocuments(context.Background(), texts(8))
	if err != nil {
		t.Fatal(err)
	}
	checkUnit(t, vs, 4)
	if f.count() != 3 {
		t.Fatalf("%d requests (want 1 refused + 2 halves)", f.count())
	}
}

func TestVoyageRequestShape(t *testing.T) {
	var mu sync.Mutex
	types := map[string]int{}
	f := &fakeAPI{t: t, posts: testkit.JSONPosts{Path: "/v1/embeddings", Key: testKey}, dim: 512, check: func(t *testing.T, b map[string]any) {
		if b["model"] != "voyage-code-3" || b["output_dimension"] != float64(512) || b["output_dtype"] != "float" || b["truncation"] != true {
			t.Errorf("body %v", b)
		}
		if n := len(b["input"].([]any)); n > 1000 {
			t.Errorf("%d inputs in one request (limit 1000)", n)
		}
		mu.Lock()
		types[b["input_type"].(string)]++
		mu.Unlock()
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	if _, err := NewVoyage(context.Background(), Config{URL: srv.URL + "/v1"}); err == nil || !strings.Contains(err.Error(), EnvVoyageKey) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := NewVoyage(context.Background(), Config{URL: srv.URL + "/v1", Key: testKey, Dimensions: 300}); err == nil {
		t.Fatal("output dimension 300 accepted")
	}
	e, err := NewVoyage(context.Background(), Config{URL: srv.URL + "/v1", Key: testKey, Dimensions: 512, BatchSize: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if e.ModelID() != "voyage/voyage-code-3@512" {
		t.Fatalf("id %s", e.ModelID())
	}
	vs, err := e.EmbedDocuments(context.Background(), texts(1001))
	if err != nil {
		t.Fatal(err)
	}
	checkUnit(t, vs, 512)
	if _, err := e.EmbedQuery(context.Background(), "where are tokens validated"); err != nil {
		t.Fatal(err)
	}
	if f.count() != 3 || types["document"] != 2 || types["query"] != 1 {
		t.Fatalf("%d requests, input types %v", f.count(), types)
	}
}

func TestBatchesRespectTokenBudget(t *testing.T) {
	in := []string{strings.Repeat("x", 300), strings.Repeat("x", 300), strings.Repeat("x", 300), "y"}
	got := batches(in, 10, 250, estimateTokens) // each long text ≈ 101 tokens
	want := [][2]int{{0, 2}, {2, 4}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("batches %v, want %v", got, want)
	}
	if got := batches(in, 3, 0, estimateTokens); fmt.Sprint(got) != fmt.Sprint([][2]int{{0, 3}, {3, 4}}) {
		t.Fatalf("item limit: %v", got)
	}
}

func TestKeyFromEnv(t *testing.T) {
	env := map[string]string{EnvOpenAIKey: "o", EnvVoyageKey: "v"}
	get := func(k string) string { return env[k] }
	if KeyFromEnv(ProviderOpenAI, get) != "o" || KeyFromEnv(ProviderVoyage, get) != "v" || KeyFromEnv(ProviderONNX, get) != "" {
		t.Fatal("provider keys")
	}
	env[EnvEmbedKey] = "s"
	if KeyFromEnv(ProviderOpenAI, get) != "s" {
		t.Fatal("SCRY_EMBED_KEY must win")
	}
}
