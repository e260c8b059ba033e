// Package httpapi is the JSON-over-HTTP client shared by the hosted
// embedding and reranking providers: bearer authentication, retries with
// exponential backoff and full jitter on 429 and 5xx (honouring
// Retry-After), and errors that carry the provider's own message but never
// the API key.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults for Client's zero fields.
const (
	DefaultAttempts      = 6
	DefaultBaseDelay     = 500 * time.Millisecond
	DefaultMaxDelay      = 30 * time.Second
	DefaultMaxRetryAfter = 2 * time.Minute
	DefaultTimeout       = 2 * time.Minute
	// maxResponse bounds a response body: the largest legitimate one (a
	// batch of 1000 voyage vectors of 2048 floats as JSON) is about 40 MB.
	maxResponse = 128 << 20
)

// Client posts JSON to one provider.
type Client struct {
	Provider string // for messages: "openai", "voyage", "rerank"
	BaseURL  string // without a trailing slash; paths are appended
	Key      string // sent as "Authorization: Bearer <Key>" when set
	Header   http.Header
	HTTP     *http.Client // nil: a client with DefaultTimeout

	Attempts      int           // total tries per request; 0: DefaultAttempts
	BaseDelay     time.Duration // first backoff ceiling; 0: DefaultBaseDelay
	MaxDelay      time.Duration // backoff ceiling; 0: DefaultMaxDelay
	MaxRetryAfter time.Duration // longest Retry-After honoured; 0: DefaultMaxRetryAfter

	// Sleep waits between attempts; tests replace it to record delays.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock Retry-After dates are read against.
	Now func() time.Time
}

// APIError is a response the provider refused.
type APIError struct {
	Provider string
	Status   int
	Message  string // the provider's message, or the start of the body
	Path     string
	// RetryAfter is set on 429s the client gave up on.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	s := fmt.Sprintf("%s %s: HTTP %d: %s", e.Provider, e.Path, e.Status, msg)
	switch {
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		s += " (check the API key variable)"
	case e.Status == http.StatusTooManyRequests && e.RetryAfter > 0:
		s += fmt.Sprintf(" (rate limited; the server asked to wait %s)", e.RetryAfter)
	}
	return s
}

// Temporary reports whether retrying later might succeed.
func (e *APIError) Temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// PostJSON posts body (marshalled as JSON) to BaseURL+path and decodes the
// response into out, retrying transient failures.
func (c *Client) PostJSON(ctx context.Context, path string, body, out any) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("%s %s: encode request: %w", c.Provider, path, err)
	}
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	var last error
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 {
			wait := c.backoff(attempt)
			var ae *APIError
			if errors.As(last, &ae) && ae.RetryAfter > 0 {
				// The server's word beats our guess, but never waits less
				// than the backoff would.
				wait = max(wait, ae.RetryAfter)
			}
			if err := c.sleep(ctx, wait); err != nil {
				return fmt.Errorf("%s %s: %w (last error: %v)", c.Provider, path, err, last)
			}
		}
		raw, err := c.post(ctx, path, payload)
		if err == nil {
			if out == nil {
				return nil
			}
			if err := json.Unmarshal(raw, out); err != nil {
				return fmt.Errorf("%s %s: decode response: %w", c.Provider, path, err)
			}
			return nil
		}
		last = err
		if !retryable(ctx, err) {
			return err
		}
		var ae *APIError
		if errors.As(err, &ae) && ae.RetryAfter > c.maxRetryAfter() {
			// Waiting minutes inside a search or an index run helps no
			// one; say so instead.
			return err
		}
	}
	return fmt.Errorf("%s %s: giving up after %d attempts: %w", c.Provider, path, attempts, last)
}

func (c *Client) post(ctx context.Context, path string, payload []byte) ([]byte, error) {
	url := strings.TrimRight(c.BaseURL, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", c.Provider, path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	resp, err := hc.Do(req)
	if err != nil {
		// url.Error includes the URL (never the key, which is a header).
		return nil, fmt.Errorf("%s %s: %w", c.Provider, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: read response: %w", c.Provider, path, err)
	}
	if len(raw) > maxResponse {
		return nil, fmt.Errorf("%s %s: response larger than %d bytes", c.Provider, path, maxResponse)
	}
	if resp.StatusCode/100 == 2 {
		return raw, nil
	}
	ae := &APIError{Provider: c.Provider, Status: resp.StatusCode, Path: path, Message: c.redact(errorMessage(raw))}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		ae.RetryAfter = c.retryAfter(resp.Header.Get("Retry-After"))
	}
	return nil, ae
}

// retryable: 429, 5xx, and network failures other than the caller's
// cancellation.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Temporary()
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed)
}

// backoff is "full jitter": a uniform wait in [0, min(max, base·2^n)), so
// that many clients retrying at once spread out.
func (c *Client) backoff(attempt int) time.Duration {
	base, ceil := c.BaseDelay, c.MaxDelay
	if base <= 0 {
		base = DefaultBaseDelay
	}
	if ceil <= 0 {
		ceil = DefaultMaxDelay
	}
	d := base << (attempt - 1)
	if d > ceil || d <= 0 {
		d = ceil
	}
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

func (c *Client) maxRetryAfter() time.Duration {
	if c.MaxRetryAfter > 0 {
		return c.MaxRetryAfter
	}
	return DefaultMaxRetryAfter
}

// retryAfter reads the header as seconds or an HTTP date.
func (c *Client) retryAfter(h string) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil {
		now := time.Now
		if c.Now != nil {
			now = c.Now
		}
		if d := t.Sub(now()); d > 0 {
			return d
		}
	}
	return 0
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// redact removes the key should a server echo it back.
func (c *Client) redact(s string) string {
	if c.Key != "" && len(c.Key) >= 4 {
		s = strings.ReplaceAll(s, c.Key, "[redacted]")
	}
	return s
}

// errorMessage pulls the human message out of the error bodies providers
// send: OpenAI {"error":{"message"}}, TEI {"error":"..."}, Voyage and Jina
// {"detail":"..."} or FastAPI's {"detail":[{"msg"}]}, Cohere
// {"message":"..."}; otherwise the start of the body.
func errorMessage(raw []byte) string {
	var v map[string]any
	if json.Unmarshal(raw, &v) == nil {
		for _, k := range []string{"error", "detail", "message", "msg"} {
			if m := textOf(v[k]); m != "" {
				return m
			}
		}
	}
	s := strings.TrimSpace(string(raw))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func textOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		for _, k := range []string{"message", "msg", "detail", "error"} {
			if m := textOf(v[k]); m != "" {
				return m
			}
		}
	case []any:
		var parts []string
		for _, e := range v {
			if m := textOf(e); m != "" {
				parts = append(parts, m)
			}
		}
		return strings.Join(parts, "; ")
	}
	return ""
}
