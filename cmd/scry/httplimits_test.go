package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests below serve a real MCP server from the SDK on loopback with
// small limits, and give every wait a generous bound: they check that the
// server ends what it must end, never how fast.
const bound = 10 * time.Second

func serveTest(t *testing.T, lim httpLimits) (*mcp.Server, string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "scry-test", Version: "0"}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := newHTTPServer(srv, "t0ken", lim)
	go hs.Serve(newLimitListener(ln, lim.MaxConns))
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

// TestHTTPSlowAndIdleConnectionsAreClosed is issue 18 item 9: a client
// that never finishes its body, or keeps an idle connection, does not hold
// it forever (with or without the token).
func TestHTTPSlowAndIdleConnectionsAreClosed(t *testing.T) {
	lim := defaultHTTPLimits()
	lim.HeaderTimeout, lim.BodyTimeout, lim.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	_, addr := serveTest(t, lim)
	tests := []struct{ name, request string }{
		{"slow body with the token", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer t0ken\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":"},
		{"slow body without the token", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Length: 100000\r\n\r\n{"},
		{"idle keep-alive", "GET /mcp HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"},
		{"slow headers", "GET /mcp HTTP/1.1\r\nHost: " + addr + "\r\n"},
	}
	for _, tt := range tests {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(c, tt.request); err != nil {
			t.Fatal(err)
		}
		if !closedByServer(t, c) {
			t.Errorf("%s: connection still open after %v", tt.name, bound)
		}
		c.Close()
	}
}

// TestHTTPConnectionCap: connections beyond the cap wait to be accepted;
// one closing lets the next in.
func TestHTTPConnectionCap(t *testing.T) {
	lim := defaultHTTPLimits()
	lim.MaxConns = 2
	_, addr := serveTest(t, lim)
	var idle []net.Conn
	for i := 0; i < lim.MaxConns; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
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
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer t0ken")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: bound}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, bufio.NewReader(resp.Body))
	resp.Body.Close()
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
	lim := defaultHTTPLimits()
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
	lim := defaultHTTPLimits()
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
