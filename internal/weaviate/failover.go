package weaviate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// failover sends each request to one node of the cluster and moves on to
// the next when that node cannot be reached, drops the connection, says it
// is unavailable, or does not begin to answer within attempt (a node that
// hangs — stopped, swapping, partitioned — accepts connections and never
// answers). Any node of a Weaviate cluster coordinates any request (it
// forwards to the replicas that hold the tenant), so a client given every
// node's address keeps working while one node is down. Every request scry
// makes may be sent twice: reads are reads, and writes are idempotent
// (objects have deterministic ids, deletions are by filter). The node
// that answered is tried first next time, so a hung node costs one
// attempt, not one per request.
type failover struct {
	base  http.RoundTripper
	hosts []string // host:port of each node, in the order given
	cur   atomic.Int32
	// attempt bounds the wait for a node's response headers when another
	// node is left to try (0: no bound); the last node tried has the
	// request's whole deadline.
	attempt time.Duration
}

// errNoAnswer: a node did not begin to answer within the attempt's time.
var errNoAnswer = errors.New("no answer")

// parseEndpoints reads a comma-separated list of http(s)://host:port URLs
// (one scheme for all).
func parseEndpoints(raw string) (scheme string, hosts []string, err error) {
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		u, err := url.Parse(part)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return "", nil, fmt.Errorf("weaviate: url %q: want http(s)://host:port (several separated by commas)", part)
		}
		if scheme != "" && u.Scheme != scheme {
			return "", nil, fmt.Errorf("weaviate: urls %q: use one scheme for every node", raw)
		}
		scheme = u.Scheme
		hosts = append(hosts, u.Host)
	}
	if len(hosts) == 0 {
		return "", nil, fmt.Errorf("weaviate: url %q: want http(s)://host:port", raw)
	}
	return scheme, hosts, nil
}

// unavailable are the statuses of a node that is starting, stopping or
// cannot reach its peers: another node may answer.
func unavailable(code int) bool {
	return code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
}

func (f *failover) RoundTrip(req *http.Request) (*http.Response, error) {
	start := int(f.cur.Load())
	var lastErr error
	for i := range f.hosts {
		h := (start + i) % len(f.hosts)
		last := i == len(f.hosts)-1
		ctx, cancel := req.Context(), context.CancelFunc(func() {})
		var timer *time.Timer
		if !last && f.attempt > 0 {
			ctx, cancel = context.WithCancel(ctx)
			timer = time.AfterFunc(f.attempt, cancel)
		}
		r := req.Clone(ctx)
		r.URL.Host, r.Host = f.hosts[h], f.hosts[h]
		if i > 0 && req.Body != nil && req.Body != http.NoBody {
			if req.GetBody == nil {
				cancel()
				break // the body cannot be sent again
			}
			body, err := req.GetBody()
			if err != nil {
				cancel()
				return nil, err
			}
			r.Body = body
		}
		resp, err := f.base.RoundTrip(r)
		if timer != nil && !timer.Stop() {
			// The attempt's time ran out as, or before, the node answered.
			if err == nil {
				resp.Body.Close()
			}
			resp, err = nil, fmt.Errorf("%s: %w within %v", f.hosts[h], errNoAnswer, f.attempt)
		}
		if err == nil && (!unavailable(resp.StatusCode) || last) {
			f.cur.Store(int32(h))
			resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
			return resp, nil
		}
		cancel()
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			lastErr = fmt.Errorf("%s: %s", f.hosts[h], resp.Status)
		} else {
			lastErr = err
		}
		if req.Context().Err() != nil {
			return nil, req.Context().Err()
		}
	}
	return nil, lastErr
}

// cancelBody ends an attempt's context once its answer is read.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// retry runs op up to four times, waiting 0.25, 0.5 and 1 s between
// tries, while it fails with anything but a refused key, the caller's own
// cancellation or a request that ran out of time (every node was tried
// and none answered within the request's deadline: trying again would
// only multiply the wait). A cluster that is losing or regaining a node answers
// some requests with passing errors (a replica that cannot be reached
// yet, a connection between nodes being re-made) that the next try does
// not meet; every request scry makes can be repeated safely (see
// failover).
func retry(ctx context.Context, op func() error) error {
	wait := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil || attempt == 4 || errors.Is(err, ErrUnauthorized) || ctx.Err() != nil || timedOut(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// timedOut reports whether err is a request that ran out of time.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
