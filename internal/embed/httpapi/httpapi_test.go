package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A transient refusal (503, 429) is retried until the provider answers;
// a permanent one (401) is not, and its error never carries the key.
func TestPostJSONRetriesTransientFailures(t *testing.T) {
	tests := []struct {
		name     string
		statuses []int // the server's answers in turn; then 200
		wantErr  int   // the APIError status expected, 0 for success
		wantHits int32
	}{
		{"answers at once", nil, 0, 1},
		{"unavailable, then answers", []int{503, 503}, 0, 3},
		{"rate limited, then answers", []int{429}, 0, 2},
		{"unauthorized", []int{401}, 401, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(hits.Add(1)) - 1
				if got := r.Header.Get("Authorization"); got != "Bearer sk-secret" {
					t.Errorf("authorization %q", got)
				}
				if n < len(tc.statuses) {
					w.WriteHeader(tc.statuses[n])
					w.Write([]byte(`{"error":{"message":"no"}}`))
					return
				}
				w.Write([]byte(`{"ok":true}`))
			}))
			defer srv.Close()
			c := &Client{Provider: "test", BaseURL: srv.URL, Key: "sk-secret",
				Sleep: func(context.Context, time.Duration) error { return nil }}
			var out struct{ OK bool }
			err := c.PostJSON(context.Background(), "/v1/x", map[string]string{"q": "a"}, &out)
			var apiErr *APIError
			switch {
			case tc.wantErr == 0 && (err != nil || !out.OK):
				t.Errorf("PostJSON = %v, %+v", err, out)
			case tc.wantErr != 0 && (!errors.As(err, &apiErr) || apiErr.Status != tc.wantErr):
				t.Errorf("PostJSON = %v, want HTTP %d", err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("the error carries the key: %v", err)
			}
			if hits.Load() != tc.wantHits {
				t.Errorf("%d requests, want %d", hits.Load(), tc.wantHits)
			}
		})
	}
}
