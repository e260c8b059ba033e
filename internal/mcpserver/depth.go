package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxNesting bounds how deeply a JSON-RPC message may nest. Real tool
// arguments nest a few levels; the SDK's decoder gives up (and closes the
// session) somewhere near a thousand, so deeper messages are turned away
// before it sees them.
const MaxNesting = 256

// nesting returns the deepest nesting of arrays and objects in a JSON text
// (strings are skipped), stopping early once it passes limit.
func nesting(b []byte, limit int) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case ']', '}':
			depth--
		}
	}
	return deepest
}

// requestID returns the "id" of a JSON-RPC message without decoding the
// rest of it (which may be too deep to decode), or nil.
func requestID(b []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key == "id" {
			var id json.RawMessage
			if err := dec.Decode(&id); err != nil {
				return nil
			}
			return id
		}
		// Skip the value, however deep, one token at a time.
		depth := 0
		for {
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			if d, ok := t.(json.Delim); ok {
				if d == '[' || d == '{' {
					depth++
				} else {
					depth--
				}
			}
			if depth == 0 {
				break
			}
		}
	}
	return nil
}

// tooDeep reports whether a JSON-RPC message nests deeper than
// MaxNesting and, if so, the error answer both transports send: code
// -32600 (invalid request) with the request's id (null for a notification
// or when there is none to read).
func tooDeep(msg []byte) (reply []byte, deep bool) {
	if nesting(msg, MaxNesting) <= MaxNesting {
		return nil, false
	}
	id := requestID(msg)
	if id == nil {
		id = json.RawMessage("null")
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"message nested deeper than %d levels"}}`, id, MaxNesting), true
}

// ServeStdio serves srv over newline-delimited JSON-RPC on in and out (the
// stdio transport). A message nested deeper than MaxNesting, or larger
// than MaxRequestBytes, never reaches the SDK's decoder (which would end
// the session): it is answered with an error (-32600), as HTTP refuses
// both, and the session goes on. A too-deep notification is dropped:
// there is nothing to answer.
func ServeStdio(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	return srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(guardReader(in, w)), Writer: nopCloser{w}})
}

// guardReader passes in's lines through, except those nested too deeply
// or too large: their answer goes to reply.
func guardReader(r io.Reader, reply io.Writer) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 64*1024)
		for {
			line, over, err := readLine(br, MaxRequestBytes)
			var answer []byte
			pass := false
			switch {
			case over:
				// What was read of it may name its id; else the answer's
				// id is null, as JSON-RPC has it when the id cannot be read.
				id := requestID(line)
				if id == nil {
					id = json.RawMessage("null")
				}
				answer = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"message larger than %d bytes"}}`, id, MaxRequestBytes)
			case len(line) == 0:
			default:
				var deep bool
				if answer, deep = tooDeep(line); deep && requestID(line) == nil {
					answer = nil
				}
				pass = !deep
			}
			if answer != nil {
				if _, werr := reply.Write(append(answer, '\n')); werr != nil {
					pw.CloseWithError(werr)
					return
				}
			}
			if pass {
				if _, werr := pw.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// readLine reads one line of at most limit bytes. A longer one is read to
// its end without being kept: over is set, and line holds its first limit
// bytes.
func readLine(br *bufio.Reader, limit int) (line []byte, over bool, err error) {
	for {
		part, err := br.ReadSlice('\n')
		if !over {
			if len(line)+len(part) > limit {
				line = append(line, part[:limit-len(line)]...)
				over = true
			} else {
				line = append(line, part...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, over, err
		}
	}
}

// lockedWriter lets the guard answer between the SDK's messages, never
// inside one (the SDK writes each message with one Write).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// nopCloser keeps the transport from closing stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
