package tsls

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"
)

// fakePeer is the server side of a conn under test.
type fakePeer struct {
	r *bufio.Reader
	w io.WriteCloser
}

func (p *fakePeer) send(t *testing.T, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	if _, err := fmt.Fprintf(p.w, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		t.Fatal(err)
	}
}

func (p *fakePeer) recv(t *testing.T) map[string]any {
	t.Helper()
	body, err := readMessage(p.r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func newPair(t *testing.T) (*conn, *fakePeer) {
	t.Helper()
	toClient, fromServer := io.Pipe()
	toServer, fromClient := io.Pipe()
	c := newConn(toClient, fromClient, serverRequest, nil)
	t.Cleanup(func() { fromServer.Close(); toServer.Close() })
	return c, &fakePeer{r: bufio.NewReader(toServer), w: fromServer}
}

func TestConnCallAndServerRequests(t *testing.T) {
	c, peer := newPair(t)
	type result struct {
		v   map[string]int
		err error
	}
	done := make(chan result, 1)
	go func() {
		var v map[string]int
		err := c.call(context.Background(), "shutdown", nil, &v)
		done <- result{v, err}
	}()
	req := peer.recv(t)
	if req["method"] != "shutdown" {
		t.Fatalf("request = %v", req)
	}
	if _, has := req["params"]; has {
		t.Fatal("params sent for a nil-params request; tsgo rejects \"params\": null")
	}
	// Before answering, the server asks the client something; the client
	// must answer (tsgo blocks on it) while its own request is pending.
	peer.send(t, map[string]any{"jsonrpc": "2.0", "id": "ts1", "method": "workspace/configuration",
		"params": map[string]any{"items": []any{map[string]any{"section": "a"}, map[string]any{"section": "b"}}}})
	ans := peer.recv(t)
	if ans["id"] != "ts1" || fmt.Sprint(ans["result"]) != "[<nil> <nil>]" {
		t.Fatalf("answer to workspace/configuration = %v", ans)
	}
	peer.send(t, map[string]any{"jsonrpc": "2.0", "method": "window/logMessage", "params": map[string]any{"message": "hi"}})
	peer.send(t, map[string]any{"jsonrpc": "2.0", "id": req["id"], "result": map[string]int{"x": 1}})
	r := <-done
	if r.err != nil || r.v["x"] != 1 {
		t.Fatalf("call = %v, %v", r.v, r.err)
	}
}

func TestConnErrorsAndCancel(t *testing.T) {
	c, peer := newPair(t)
	errc := make(chan error, 1)
	go func() { errc <- c.call(context.Background(), "x", map[string]any{}, nil) }()
	req := peer.recv(t)
	peer.send(t, map[string]any{"jsonrpc": "2.0", "id": req["id"], "error": map[string]any{"code": -32602, "message": "bad params"}})
	var rerr *ResponseError
	if err := <-errc; !errors.As(err, &rerr) || rerr.Code != -32602 {
		t.Fatalf("error = %v", err)
	}

	// A request that times out is cancelled on the server side.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	go func() { errc <- c.call(ctx, "slow", nil, nil) }()
	slow := peer.recv(t)
	cancelMsg := peer.recv(t)
	if cancelMsg["method"] != "$/cancelRequest" || fmt.Sprint(cancelMsg["params"].(map[string]any)["id"]) != fmt.Sprint(slow["id"]) {
		t.Fatalf("cancel = %v", cancelMsg)
	}
	if err := <-errc; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("timeout error = %v", err)
	}

	// The server going away fails pending and later calls.
	go func() { errc <- c.call(context.Background(), "pending", nil, nil) }()
	peer.recv(t)
	peer.w.Close()
	if err := <-errc; !errors.Is(err, errConnClosed) {
		t.Fatalf("pending call after close = %v", err)
	}
	if err := c.call(context.Background(), "after", nil, nil); !errors.Is(err, errConnClosed) {
		t.Fatalf("call after close = %v", err)
	}
	if !c.isClosed() {
		t.Fatal("isClosed = false")
	}
}
