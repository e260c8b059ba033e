package weaviate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// failover sends each request to one node of the cluster and moves on to
// the next when that node cannot be reached, drops the connection or says
// it is unavailable. Any node of a Weaviate cluster coordinates any
// request (it forwards to the replicas that hold the tenant), so a client
// given every node's address keeps working while one node is down. Every
// request scry makes may be sent twice: reads are reads, and writes are
// idempotent (objects have deterministic ids, deletions are by filter).
type failover struct {
	base  http.RoundTripper
	hosts []string // host:port of each node, in the order given
	cur   atomic.Int32
}

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
		r := req.Clone(req.Context())
		r.URL.Host, r.Host = f.hosts[h], f.hosts[h]
		if i > 0 && req.Body != nil && req.Body != http.NoBody {
			if req.GetBody == nil {
				break // the body cannot be sent again
			}
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = body
		}
		resp, err := f.base.RoundTrip(r)
		if err == nil && (!unavailable(resp.StatusCode) || last) {
			f.cur.Store(int32(h))
			return resp, nil
		}
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

// retry runs op up to four times, waiting 0.25, 0.5 and 1 s between
// tries, while it fails with anything but a refused key or the caller's
// own cancellation. A cluster that is losing or regaining a node answers
// some requests with passing errors (a replica that cannot be reached
// yet, a connection between nodes being re-made) that the next try does
// not meet; every request scry makes can be repeated safely (see
// failover).
func retry(ctx context.Context, op func() error) error {
	wait := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil || attempt == 4 || errors.Is(err, ErrUnauthorized) || ctx.Err() != nil {
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
