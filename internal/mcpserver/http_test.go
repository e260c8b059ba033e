package mcpserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests below serve a real MCP server from the SDK on loopback with
// small limits, and give every wait a generous bound: they check that the
// server ends what it must end, never how fast.
const bound = 10 * time.Second

func serveTest(t *testing.T, lim HTTPLimits) (*mcp.Server, string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "scry-test", Version: "0"}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(srv, "t0ken", lim)
	go hs.Serve(LimitListener(ln, lim))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		hs.Close()
	})
	return srv, ln.Addr().String()
}

// closedByServer reports whether the server ends the connection (EOF or a
// response followed by EOF) within the bound.
func closedByServer(t *testing.T, c net.Conn) bool {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(bound))
	_, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}

// dial connects to addr from the address from ("" for any); the
// connection closes when the test ends.
func dial(t *testing.T, addr, from string) net.Conn {
	t.Helper()
	var d net.Dialer
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// send connects to addr and writes request, raw HTTP, on the connection.
func send(t *testing.T, addr, request string) net.Conn {
	t.Helper()
	c := dial(t, addr, "")
	if _, err := io.WriteString(c, request); err != nil {
		t.Fatal(err)
	}
	return c
}

// post sends body to the MCP endpoint with the token, as a client does,
// and returns the response, its body read whole.
func post(t *testing.T, addr, body string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer t0ken")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: bound}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestHTTPSlowAndIdleConnectionsAreClosed is issue 18 item 9: a client
// that never finishes its body, or keeps an idle connection, does not hold
// it forever (with or without the token).
func TestHTTPSlowAndIdleConnectionsAreClosed(t *testing.T) {
	lim := DefaultHTTPLimits()
	lim.HeaderTimeout, lim.BodyTimeout, lim.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	_, addr := serveTest(t, lim)
	tests := []struct{ name, request string }{
		{"slow body with the token", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer t0ken\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":"},
		{"slow body without the token", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Length: 100000\r\n\r\n{"},
		{"idle keep-alive", "GET /mcp HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"},
		{"slow headers", "GET /mcp HTTP/1.1\r\nHost: " + addr + "\r\n"},
	}
	for _, tt := range tests {
		if !closedByServer(t, send(t, addr, tt.request)) {
			t.Errorf("%s: connection still open after %v", tt.name, bound)
		}
	}
}

// TestHTTPConnectionCap: connections beyond the cap wait to be accepted;
// one closing lets the next in.
func TestHTTPConnectionCap(t *testing.T) {
	lim := DefaultHTTPLimits()
	lim.MaxConns = 2
	_, addr := serveTest(t, lim)
	var idle []net.Conn
	for i := 0; i < lim.MaxConns; i++ {
		idle = append(idle, dial(t, addr, ""))
	}
	get := func(timeout time.Duration) error {
		cl := &http.Client{Timeout: timeout, Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := cl.Get("http://" + addr + "/mcp")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	if err := get(500 * time.Millisecond); err == nil {
		t.Errorf("a request beyond the cap of %d connections was served", lim.MaxConns)
	}
	idle[0].Close()
	if err := get(bound); err != nil {
		t.Errorf("after a connection closed, the next was not served: %v", err)
	}
}

func initialize(t *testing.T, addr string) (*http.Response, string) {
	t.Helper()
	resp, _ := post(t, addr, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	return resp, resp.Header.Get("Mcp-Session-Id")
}

func sessions(srv *mcp.Server) int {
	n := 0
	for range srv.Sessions() {
		n++
	}
	return n
}

// TestHTTPSessionsExpireAndAreCapped: an idle session is closed, and no
// more than MaxSessions are open at once.
func TestHTTPSessionsExpireAndAreCapped(t *testing.T) {
	lim := DefaultHTTPLimits()
	lim.SessionTimeout, lim.MaxSessions = 300*time.Millisecond, 2
	srv, addr := serveTest(t, lim)

	for i := 0; i < lim.MaxSessions; i++ {
		if resp, id := initialize(t, addr); resp.StatusCode != http.StatusOK || id == "" {
			t.Fatalf("session %d: status %d, id %q", i, resp.StatusCode, id)
		}
	}
	if resp, _ := initialize(t, addr); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a session beyond the cap of %d: status %d, want 503", lim.MaxSessions, resp.StatusCode)
	}
	deadline := time.Now().Add(bound)
	for sessions(srv) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := sessions(srv); n > 0 {
		t.Fatalf("%d idle sessions still open after %v", n, bound)
	}
	if resp, id := initialize(t, addr); resp.StatusCode != http.StatusOK || id == "" {
		t.Errorf("after the idle sessions expired, a new one: status %d", resp.StatusCode)
	}
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPLongAnswerOutlivesTheLimits: the limits bound what a client
// holds, never how long an answer may take. A tool call that outlasts the
// body and idle timeouts still completes, through the SDK's own client with
// its event stream open.
func TestHTTPLongAnswerOutlivesTheLimits(t *testing.T) {
	lim := DefaultHTTPLimits()
	lim.HeaderTimeout, lim.BodyTimeout, lim.IdleTimeout = 200*time.Millisecond, 200*time.Millisecond, 200*time.Millisecond
	srv, addr := serveTest(t, lim)
	type in struct{}
	mcp.AddTool(srv, &mcp.Tool{Name: "slow", Description: "answers after a while"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ in) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(4 * lim.BodyTimeout):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{"t0ken"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("a long tool call was cut: %v", err)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "done" {
		t.Errorf("result %+v", res)
	}
}

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
		{"oversized body", "Bearer s3cret", "", MaxRequestBytes + 1, http.StatusRequestEntityTooLarge},
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

// TestHTTPRefusedConnectionsAreClosed is issue 29 B.4: clients without the
// token used to keep every connection slot (each refused connection stayed
// open for the idle timeout) and the token's holder waited. A refused
// request now closes its connection, so the slots come back at once.
func TestHTTPRefusedConnectionsAreClosed(t *testing.T) {
	lim := DefaultHTTPLimits()
	lim.MaxConns = 4
	_, addr := serveTest(t, lim)
	tests := []struct{ name, request string }{
		{"no token", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Length: 2\r\n\r\n{}"},
		{"wrong token", "GET /mcp HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer nope\r\n\r\n"},
		{"foreign origin", "GET /mcp HTTP/1.1\r\nHost: " + addr + "\r\nOrigin: https://evil.example\r\nAuthorization: Bearer t0ken\r\n\r\n"},
		{"no token, body unsent", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Length: 100000\r\n\r\n{"},
	}
	var conns []net.Conn
	for _, tt := range tests {
		c := send(t, addr, tt.request)
		conns = append(conns, c)
		c.SetReadDeadline(time.Now().Add(bound))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: status %d", tt.name, resp.StatusCode)
		}
		if !resp.Close {
			t.Errorf("%s: the refusal does not close the connection", tt.name)
		}
	}
	for i, c := range conns {
		if !closedByServer(t, c) {
			t.Errorf("%s: connection still open after the refusal", tests[i].name)
		}
	}
	// Every slot was taken by a refused client; the token's holder is
	// served.
	if resp, id := initialize(t, addr); resp.StatusCode != http.StatusOK || id == "" {
		t.Errorf("with the token after %d refused connections: status %d", len(tests), resp.StatusCode)
	}
}

// TestHTTPConnectionsPerAddress is issue 29 B.4: one address holds at
// most MaxConnsPerAddr connections; another address still gets in.
func TestHTTPConnectionsPerAddress(t *testing.T) {
	lim := DefaultHTTPLimits()
	lim.MaxConns, lim.MaxConnsPerAddr, lim.HeaderTimeout = 8, 2, time.Minute
	_, addr := serveTest(t, lim)
	for range lim.MaxConnsPerAddr {
		dial(t, addr, "127.0.0.1") // idle: sends nothing
	}
	if !closedByServer(t, dial(t, addr, "127.0.0.1")) {
		t.Errorf("a connection beyond %d from one address was kept", lim.MaxConnsPerAddr)
	}
	// All of 127.0.0.0/8 is loopback on Linux; elsewhere only 127.0.0.1
	// may be configured.
	probe, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).Dial("tcp", addr)
	if err != nil {
		t.Skipf("no second loopback address to connect from: %v", err)
	}
	probe.Close()
	other := dial(t, addr, "127.0.0.2")
	io.WriteString(other, "GET /mcp HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	other.SetReadDeadline(time.Now().Add(bound))
	if resp, err := http.ReadResponse(bufio.NewReader(other), nil); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("another address was not served: %v", err)
	}
}

// TestListenNeedsTokenBeyondLoopback is issue 29 B.20: --http on an
// address other than loopback without a token is refused, not served.
func TestListenNeedsTokenBeyondLoopback(t *testing.T) {
	tests := []struct {
		addr, token string
		refused     bool
	}{
		{":0", "", false},
		{"127.0.0.1:0", "", false},
		{"localhost:0", "", false},
		{"0.0.0.0:0", "", true},
		{"[::]:0", "", true},
	}
	for _, tt := range tests {
		ln, err := Listen(tt.addr, tt.token)
		if ln != nil {
			ln.Close()
		}
		if refused := errors.Is(err, ErrNoToken); refused != tt.refused || (err != nil && !refused) {
			t.Errorf("Listen(%q, %q): %v; want refused %v", tt.addr, tt.token, err, tt.refused)
		}
	}
}

// TestDeepMessageAnsweredAlikeOnBothTransports (issue 28): a message
// nested too deeply gets the same JSON-RPC error over stdio and over
// HTTP, and the session goes on.
func TestDeepMessageAnsweredAlikeOnBothTransports(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "}"
	want := `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"message nested deeper than 256 levels"}}`

	got := stdioAnswers(t, 3, deep, `{"jsonrpc":"2.0","id":10,"method":"ping"}`)
	answered := strings.Join(got, "\n")
	if !slices.Contains(got, want) || !strings.Contains(answered, `"id":10,"result"`) {
		t.Errorf("stdio answered:\n%s\nwant the error %s, and the next request answered", answered, want)
	}

	_, addr := serveTest(t, DefaultHTTPLimits())
	resp, body := post(t, addr, deep)
	if string(body) != want || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("HTTP answered %d %s; want 400 %s", resp.StatusCode, body, want)
	}
}
