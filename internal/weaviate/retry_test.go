package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"testing"
)

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// TestRetry: passing failures are tried again; a request that ran out of
// time is not (every node was tried and none answered in time: a retry
// would multiply the wait, ~122 s per query with a hung node before), nor
// is a refused key.
func TestRetry(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		calls int
	}{
		{"node unavailable", errors.New("127.0.0.1:1: 503 Service Unavailable"), 4},
		{"client timeout", fmt.Errorf("%w at x: %w", ErrUnreachable, &url.Error{Op: "Post", URL: "http://x", Err: timeoutErr{}}), 1},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), 1},
		{"refused key", fmt.Errorf("%w (x, status 401)", ErrUnauthorized), 1},
	}
	for _, tt := range tests {
		calls := 0
		err := retry(context.Background(), func() error { calls++; return tt.err })
		if calls != tt.calls || !errors.Is(err, tt.err) {
			t.Errorf("%s: %d calls, %v; want %d", tt.name, calls, err, tt.calls)
		}
	}
}
