package testkit

import (
	"errors"
	"net/http"
	"syscall"
	"testing"
)

// Nothing answers at a closed URL: the connection is refused.
func TestClosedURL(t *testing.T) {
	url := ClosedURL(t)
	resp, err := http.Get(url)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("%s answered %s", url, resp.Status)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("GET %s: %v, want the connection refused", url, err)
	}
}
