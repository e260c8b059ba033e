package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestListenAddrDefaultsToLoopback(t *testing.T) {
	tests := []struct{ in, want string }{
		{":7424", "127.0.0.1:7424"},
		{"127.0.0.1:0", "127.0.0.1:0"},
		{"[::1]:80", "[::1]:80"},
		{"0.0.0.0:7424", "0.0.0.0:7424"}, // named explicitly: the user asked for it
	}
	for _, tt := range tests {
		got, err := listenAddr(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("listenAddr(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := listenAddr("7424"); err == nil {
		t.Error("an address without a port separator should be an error")
	}
}

func TestGuard(t *testing.T) {
	var gotBody int
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 1<<20)
		n := 0
		for {
			k, err := r.Body.Read(buf)
			n += k
			if err != nil {
				if !strings.Contains(err.Error(), "EOF") {
					http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
					return
				}
				break
			}
		}
		gotBody = n
		w.WriteHeader(http.StatusOK)
	})
	h := guard(next, "s3cret", time.Second)
	tests := []struct {
		name   string
		auth   string
		origin string
		body   int
		want   int
	}{
		{"no token", "", "", 10, http.StatusUnauthorized},
		{"wrong token", "Bearer nope", "", 10, http.StatusUnauthorized},
		{"token", "Bearer s3cret", "", 10, http.StatusOK},
		{"scheme in lower case", "bearer s3cret", "", 10, http.StatusOK},
		{"bare token without Bearer", "s3cret", "", 10, http.StatusUnauthorized},
		{"other scheme", "Basic s3cret", "", 10, http.StatusUnauthorized},
		{"two spaces", "Bearer  s3cret", "", 10, http.StatusUnauthorized},
		{"token with a suffix", "Bearer s3cret x", "", 10, http.StatusUnauthorized},
		{"scheme only", "Bearer", "", 10, http.StatusUnauthorized},
		{"loopback origin", "Bearer s3cret", "http://localhost:3000", 10, http.StatusOK},
		{"foreign origin", "Bearer s3cret", "https://evil.example", 10, http.StatusForbidden},
		{"oversized body", "Bearer s3cret", "", maxRequestBytes + 1, http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(strings.Repeat("x", tt.body)))
		if tt.auth != "" {
			req.Header.Set("Authorization", tt.auth)
		}
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, rec.Code, tt.want)
		}
		if rec.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: a CORS header was sent", tt.name)
		}
	}
	if gotBody == 0 {
		t.Error("no request reached the handler")
	}
}
