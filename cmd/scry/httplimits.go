package main

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpLimits bound what clients of `serve --http` can hold: without them a
// client that never finishes its request body, or keeps idle connections
// and sessions open, exhausts file descriptors and memory — whether or not
// it knows the token.
type httpLimits struct {
	// HeaderTimeout bounds reading a request's headers.
	HeaderTimeout time.Duration
	// BodyTimeout bounds reading a request's body (tool arguments are
	// small); it is not a limit on how long an answer may take.
	BodyTimeout time.Duration
	// IdleTimeout closes keep-alive connections with no request.
	IdleTimeout time.Duration
	// MaxConns caps open connections; more wait to be accepted.
	MaxConns int
	// SessionTimeout closes MCP sessions that see no request for so long.
	SessionTimeout time.Duration
	// MaxSessions caps open MCP sessions; a new one beyond it is refused
	// (503) until one ends or expires.
	MaxSessions int
}

func defaultHTTPLimits() httpLimits {
	return httpLimits{
		HeaderTimeout:  10 * time.Second,
		BodyTimeout:    30 * time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxConns:       64,
		SessionTimeout: 30 * time.Minute,
		MaxSessions:    64,
	}
}

// newHTTPServer is the MCP endpoint at /mcp with every limit but the
// connection cap, which belongs to the listener (limitListener).
func newHTTPServer(srv *mcp.Server, token string, lim httpLimits) *http.Server {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: lim.SessionTimeout})
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(sessionCap(handler, srv, lim.MaxSessions), token, lim.BodyTimeout))
	// No WriteTimeout: it cuts answers that take longer and the
	// server-sent event stream (TestHTTPLongAnswerOutlivesTheLimits). The
	// body deadline is set per request by guard, and cleared once the body
	// is in, rather than as a ReadTimeout spanning the whole request.
	return &http.Server{Handler: mux, ReadHeaderTimeout: lim.HeaderTimeout, IdleTimeout: lim.IdleTimeout}
}

// bearerOK checks an Authorization header strictly: the "Bearer" scheme
// (any case, as RFC 9110 allows), one space, and exactly the token. The
// bare token is refused, so it cannot be sent where a scheme was expected.
func bearerOK(header, token string) bool {
	scheme, got, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || got == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// sessionCap refuses to open an MCP session beyond max. Requests without a
// session id are the ones that create one (initialize); they are
// serialised so that concurrent ones cannot overshoot the cap.
func sessionCap(next http.Handler, srv *mcp.Server, max int) http.Handler {
	if max <= 0 {
		return next
	}
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			next.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for range srv.Sessions() {
			n++
		}
		if n >= max {
			w.Header().Set("Retry-After", "60")
			http.Error(w, "too many open sessions; close one (DELETE) or wait for idle ones to expire", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitListener accepts at most max connections at once; Accept waits for
// one to close. Idle and slow connections are closed by the timeouts, so
// the wait is bounded.
type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{} // closed by Close, so a waiting Accept returns
	closeOnce sync.Once
}

func newLimitListener(l net.Listener, max int) net.Listener {
	if max <= 0 {
		return l
	}
	return &limitListener{Listener: l, slots: make(chan struct{}, max), done: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
