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
	if resp, err := http.Get(url); !errors.Is(err, syscall.ECONNREFUSED) {
		if err == nil {
			resp.Body.Close()
		}
		t.Errorf("GET %s: %v, want the connection refused", url, err)
	}
}
