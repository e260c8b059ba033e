package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/netutil"
)

// MaxRequestBytes bounds one HTTP request body: tool arguments are small,
// and a client must not be able to make the server buffer gigabytes. It is
// the SDK's own default, named here because the guard reads the body (to
// measure its nesting) before the SDK does.
const MaxRequestBytes = mcp.DefaultMaxRequestBodyBytes

// HTTPLimits bound what clients of `serve --http` can hold: without them a
// client that never finishes its request body, keeps idle connections and
// sessions open, or opens connections it cannot authenticate, exhausts
// file descriptors and memory and keeps the token's holder out.
type HTTPLimits struct {
	// HeaderTimeout bounds reading a request's headers; a connection that
	// sends nothing, before it has ever authenticated, is closed after it.
	HeaderTimeout time.Duration
	// BodyTimeout bounds reading a request's body (tool arguments are
	// small); it is not a limit on how long an answer may take.
	BodyTimeout time.Duration
	// IdleTimeout closes keep-alive connections with no request. Only an
	// authenticated connection is kept alive: a refused request closes
	// its connection.
	IdleTimeout time.Duration
	// MaxConns caps open connections; more wait to be accepted.
	MaxConns int
	// MaxConnsPerAddr caps the open connections of one client address;
	// one beyond it is closed at once, so a single address cannot take
	// every slot of MaxConns.
	MaxConnsPerAddr int
	// SessionTimeout closes MCP sessions that see no request for so long.
	SessionTimeout time.Duration
	// MaxSessions caps open MCP sessions; a new one beyond it is refused
	// (503) until one ends or expires.
	MaxSessions int
}

// DefaultHTTPLimits are the limits `scry serve --http` runs with.
func DefaultHTTPLimits() HTTPLimits {
	return HTTPLimits{
		HeaderTimeout:   10 * time.Second,
		BodyTimeout:     30 * time.Second,
		IdleTimeout:     2 * time.Minute,
		MaxConns:        64,
		MaxConnsPerAddr: 16,
		SessionTimeout:  30 * time.Minute,
		MaxSessions:     64,
	}
}

// ErrNoToken refuses to serve beyond loopback without a bearer token:
// anyone who can reach the port could read the workspace's source.
var ErrNoToken = errors.New("serving MCP on a non-loopback address needs a bearer token (--token or SCRY_TOKEN)")

// Listen binds the HTTP endpoint: a bare port (":7424") binds loopback,
// since exposing the workspace to the network must be asked for by naming
// the host; and an address that is not loopback is refused without a
// token. The address checked is the one bound, so a host name that
// resolves beyond loopback is refused too.
func Listen(addr, token string) (net.Listener, error) {
	bind, err := listenAddr(addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); token == "" && (!ok || !tcp.IP.IsLoopback()) {
		ln.Close()
		return nil, fmt.Errorf("serve --http %s: %w", addr, ErrNoToken)
	}
	return ln, nil
}

func listenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// ServeHTTP serves srv's streamable HTTP endpoint at /mcp on ln, with
// every limit of lim, until ctx ends.
func ServeHTTP(ctx context.Context, srv *mcp.Server, ln net.Listener, token string, lim HTTPLimits) error {
	hs := NewHTTPServer(srv, token, lim)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	if err := hs.Serve(LimitListener(ln, lim)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// LimitListener applies lim's connection caps to ln: at most
// MaxConnsPerAddr from one address (closed at once beyond it), at most
// MaxConns in all (waiting to be accepted beyond it).
func LimitListener(ln net.Listener, lim HTTPLimits) net.Listener {
	if lim.MaxConnsPerAddr > 0 {
		ln = &perAddrListener{Listener: ln, max: lim.MaxConnsPerAddr, open: map[string]int{}}
	}
	if lim.MaxConns > 0 {
		ln = netutil.LimitListener(ln, lim.MaxConns)
	}
	return ln
}

// NewHTTPServer is the MCP endpoint at /mcp with every limit but the
// connection caps, which belong to the listener (LimitListener). The SDK
// caps the body it reads (MaxRequestBodyBytes) and refuses requests that
// reach loopback under another host name (DNS rebinding).
func NewHTTPServer(srv *mcp.Server, token string, lim HTTPLimits) *http.Server {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: lim.SessionTimeout, MaxRequestBodyBytes: MaxRequestBytes})
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(sessionCap(handler, srv, lim.MaxSessions), token, lim.BodyTimeout))
	// No WriteTimeout: it cuts answers that take longer and the
	// server-sent event stream (TestHTTPLongAnswerOutlivesTheLimits). The
	// body deadline is set per request by guard, and cleared once the body
	// is in, rather than as a ReadTimeout spanning the whole request.
	return &http.Server{Handler: mux, ReadHeaderTimeout: lim.HeaderTimeout, IdleTimeout: lim.IdleTimeout}
}

// guard enforces the bearer token, the request size limit, the body
// deadline and the nesting limit, and refuses cross-origin requests from
// pages on other hosts (no CORS headers are ever sent, so browsers cannot
// read answers either). A refused request closes its connection, so a
// client without the token holds no connection beyond its one request.
//
// The origin rule is scry's own: net/http's CrossOriginProtection lets
// safe methods (the event stream's GET) and same-host origins through, and
// refuses a development page on another loopback port, the opposite of
// what is wanted for a server of source code on loopback.
func guard(next http.Handler, token string, bodyTimeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if bodyTimeout > 0 && r.Body != nil && r.Body != http.NoBody {
			// Bounds a slow body. Cleared below once the body is in, so a
			// long answer is never cut. (Not supported by test recorders.)
			_ = rc.SetReadDeadline(time.Now().Add(bodyTimeout))
		}
		refuse := func(status int, msg string) {
			// The rest of an unread body is not waited for (the server
			// would read up to 256 KB of it before closing).
			_ = rc.SetReadDeadline(time.Now())
			w.Header().Set("Connection", "close")
			http.Error(w, msg, status)
		}
		if origin := r.Header.Get("Origin"); origin != "" && !loopbackOrigin(origin) {
			refuse(http.StatusForbidden, "cross-origin requests are not allowed")
			return
		}
		if token != "" && !bearerOK(r.Header.Get("Authorization"), token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="scry"`)
			refuse(http.StatusUnauthorized, "missing or wrong bearer token")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				var tooBig *http.MaxBytesError
				if errors.As(err, &tooBig) {
					refuse(http.StatusRequestEntityTooLarge, "request too large")
				} else {
					refuse(http.StatusRequestTimeout, "request body not received in time")
				}
				return
			}
			if reply, deep := tooDeep(body); deep {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				w.Write(reply)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if bodyTimeout > 0 {
			_ = rc.SetReadDeadline(time.Time{})
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// bearerOK checks an Authorization header strictly: the "Bearer" scheme
// (any case, as RFC 9110 allows), one space, and exactly the token. The
// bare token is refused, so it cannot be sent where a scheme was expected.
// (The SDK's auth.RequireBearerToken splits the header at any run of
// white space and compares through a verifier meant for OAuth tokens with
// expiry and scopes; a fixed shared token needs neither.)
func bearerOK(header, token string) bool {
	scheme, got, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || got == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// sessionCap refuses to open an MCP session beyond max. Requests without a
// session id are the ones that create one (initialize); they are
// serialised so that concurrent ones cannot overshoot the cap. (The SDK
// has no session cap of its own.)
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

// perAddrListener closes, as soon as it is accepted, a connection from an
// address that already has max open. (Neither net/http nor netutil counts
// connections per address.)
type perAddrListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func (l *perAddrListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		l.mu.Lock()
		if l.open[host] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[host]++
		l.mu.Unlock()
		return &addrConn{Conn: c, release: func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.open[host]--; l.open[host] <= 0 {
				delete(l.open, host)
			}
		}}, nil
	}
}

type addrConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *addrConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
