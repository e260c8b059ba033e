package testkit

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// The embedding server answers the OpenAI embeddings API with vec's
// vectors, one per input in order, tells seen each batch, and refuses
// requests that are not the API's.
func TestEmbeddingServer(t *testing.T) {
	var seen [][]string
	srv := EmbeddingServer(t, func(text string) []float32 { return []float32{float32(len(text)), 1} },
		func(texts []string) { seen = append(seen, texts) })
	resp, err := http.Post(srv.URL+"/v1/embeddings", "application/json", strings.NewReader(`{"model":"m","input":["a","bcd"]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got embeddingsResponse
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := []embedding{{0, []float32{1, 1}}, {1, []float32{3, 1}}}
	if len(got.Data) != len(want) {
		t.Fatalf("data %+v, want %+v", got.Data, want)
	}
	for i := range want {
		if got.Data[i].Index != want[i].Index || !slices.Equal(got.Data[i].Embedding, want[i].Embedding) {
			t.Errorf("data[%d] = %+v, want %+v", i, got.Data[i], want[i])
		}
	}
	if len(seen) != 1 || !slices.Equal(seen[0], []string{"a", "bcd"}) {
		t.Errorf("seen %q", seen)
	}
	for _, tc := range []struct{ method, path, body string }{
		{http.MethodPost, "/v1/other", `{"input":["a"]}`},
		{http.MethodGet, "/v1/embeddings", ""},
		{http.MethodPost, "/v1/embeddings", "not json"},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s %s %q: status %d, want 400", tc.method, tc.path, tc.body, resp.StatusCode)
		}
	}
}
