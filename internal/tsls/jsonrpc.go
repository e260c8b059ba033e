package tsls

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The LSP base protocol is small enough to implement here: a header block
// with Content-Length, a blank line, then a JSON-RPC 2.0 message. Owning it
// lets us answer the server's own requests (registerCapability,
// workspace/configuration, workDoneProgress/create) that a generic JSON-RPC
// library would leave unanswered: tsgo blocks its `initialized` handler on
// them.

// ResponseError is a JSON-RPC error returned by the server.
type ResponseError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *ResponseError) Error() string {
	return fmt.Sprintf("server error %d: %s", e.Code, e.Message)
}

// JSON-RPC / LSP error codes this client reacts to.
const (
	codeRequestCancelled = -32800
	codeContentModified  = -32801
)

// wireMessage is any incoming message: request, notification or response.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *ResponseError  `json:"error,omitempty"`
}

type response struct {
	result json.RawMessage
	err    error
}

// errConnClosed is returned for requests that were pending (or issued) after
// the server's output stream ended, i.e. the process exited or was killed.
var errConnClosed = errors.New("language server connection closed")

// conn is one JSON-RPC connection to one server process.
type conn struct {
	w       io.Writer
	writeMu sync.Mutex

	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan response
	closed  bool
	// broken is set when a write fails: the peer is gone even if the read
	// side has not seen the end of its output yet.
	broken atomic.Bool

	// onRequest answers a server-to-client request; it returns the result.
	onRequest func(method string, params json.RawMessage) (any, error)
	// onNotify observes a server notification.
	onNotify func(method string, params json.RawMessage)
}

// newConn starts reading r at once, so the handlers are fixed here, before
// the first message can arrive.
func newConn(r io.Reader, w io.Writer, onRequest func(string, json.RawMessage) (any, error), onNotify func(string, json.RawMessage)) *conn {
	c := &conn{
		w:         w,
		pending:   make(map[int64]chan response),
		onRequest: onRequest,
		onNotify:  onNotify,
	}
	go c.readLoop(bufio.NewReaderSize(r, 64*1024))
	return c
}

// Bounds on what the server may send: a header line, and a message (the
// largest real answers, references across a big workspace, are a few MB).
// Past them the connection is dropped, not buffered without end.
const (
	maxHeaderLine = 4 << 10
	maxMessage    = 256 << 20
)

// errFraming is wrapped by the errors of a message over those bounds.
var errFraming = errors.New("language server message over the size limit")

// readLine reads one header line of at most maxHeaderLine bytes.
func readLine(r *bufio.Reader) (string, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > maxHeaderLine {
			return "", fmt.Errorf("%w: header line over %d bytes", errFraming, maxHeaderLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return "", err
		}
		return string(line), nil
	}
}

// readMessage reads one framed message body.
func readMessage(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := readLine(r)
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("malformed header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("message without Content-Length")
	}
	if length > maxMessage {
		return nil, fmt.Errorf("%w: Content-Length %d, limit %d", errFraming, length, maxMessage)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

func (c *conn) readLoop(r *bufio.Reader) {
	for {
		body, err := readMessage(r)
		if err != nil {
			break // the process exited or closed its output
		}
		var msg wireMessage
		if json.Unmarshal(body, &msg) != nil {
			// A message we cannot decode is a protocol break: nothing
			// after it can be trusted to be framed correctly either.
			break
		}
		c.dispatch(&msg)
	}
	c.mu.Lock()
	c.closed = true
	pending := c.pending
	c.pending = map[int64]chan response{}
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- response{err: errConnClosed}
	}
}

func (c *conn) dispatch(msg *wireMessage) {
	switch {
	case msg.Method != "" && len(msg.ID) > 0:
		// Server-to-client request: answer off the read loop so a slow
		// handler never stalls responses to our own requests.
		go c.answer(msg)
	case msg.Method != "":
		if c.onNotify != nil {
			c.onNotify(msg.Method, msg.Params)
		}
	case len(msg.ID) > 0:
		id, err := strconv.ParseInt(string(msg.ID), 10, 64)
		if err != nil {
			return // not one of ours: we only send integer ids
		}
		c.mu.Lock()
		ch, ok := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if !ok {
			return // answer to a request we already gave up on
		}
		if msg.Error != nil {
			ch <- response{err: msg.Error}
		} else {
			ch <- response{result: msg.Result}
		}
	}
}

func (c *conn) answer(msg *wireMessage) {
	var result any
	var err error
	if c.onRequest != nil {
		result, err = c.onRequest(msg.Method, msg.Params)
	}
	out := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
	if err != nil {
		out["error"] = map[string]any{"code": -32601, "message": err.Error()}
	} else {
		// A null result is valid and is what registerCapability and
		// workDoneProgress/create expect.
		out["result"] = result
	}
	_ = c.write(out)
}

func (c *conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(body))
	buf.Write(body)
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.w.Write(buf.Bytes()); err != nil {
		c.broken.Store(true)
		return fmt.Errorf("write to language server: %w (%w)", err, errConnClosed)
	}
	return nil
}

// notify sends a notification. params may be nil, in which case the params
// member is omitted entirely (tsgo rejects an explicit null for some methods).
func (c *conn) notify(method string, params any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	return c.write(msg)
}

// call sends a request and waits for its answer or ctx. On ctx expiry the
// request is cancelled on the server side ($/cancelRequest) and ctx's error
// is returned. params may be nil to omit the member (see notify).
func (c *conn) call(ctx context.Context, method string, params any, result any) error {
	id := c.nextID.Add(1)
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errConnClosed
	}
	c.pending[id] = ch
	c.mu.Unlock()

	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.write(msg); err != nil {
		c.forget(id)
		return err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		if result == nil || len(r.result) == 0 {
			return nil
		}
		if err := json.Unmarshal(r.result, result); err != nil {
			return fmt.Errorf("decode %s result: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		_ = c.notify("$/cancelRequest", map[string]any{"id": id})
		return ctx.Err()
	}
}

func (c *conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// isClosed reports whether the connection is unusable: the read side has
// ended or a write failed.
func (c *conn) isClosed() bool {
	if c.broken.Load() {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}
