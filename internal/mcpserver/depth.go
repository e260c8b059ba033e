package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// MaxNesting bounds how deeply a JSON-RPC message may nest. Real tool
// arguments nest a few levels; the SDK's decoder gives up (and closes the
// session) somewhere near a thousand, so deeper messages are turned away
// before it sees them.
const MaxNesting = 256

// Nesting returns the deepest nesting of arrays and objects in a JSON text
// (strings are skipped), stopping early once it passes limit.
func Nesting(b []byte, limit int) int {
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

// RequestID returns the "id" of a JSON-RPC message without decoding the
// rest of it (which may be too deep to decode), or nil.
func RequestID(b []byte) json.RawMessage {
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

// TooDeepMethod is the method a too-deeply nested request is rewritten to:
// the server answers it with "method not found", naming the problem, and
// the session goes on.
const TooDeepMethod = "rejected: message nested deeper than 256 levels"

// GuardReader filters newline-delimited JSON-RPC (the stdio transport):
// a message nested deeper than MaxNesting is replaced by a request the
// server refuses by name, or dropped if it is a notification.
func GuardReader(r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 64*1024)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				if Nesting(line, MaxNesting) > MaxNesting {
					line = rewriteTooDeep(line)
				}
				if len(line) > 0 {
					if _, werr := pw.Write(line); werr != nil {
						return
					}
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

func rewriteTooDeep(line []byte) []byte {
	id := RequestID(line)
	if id == nil {
		return nil // a notification: nothing to answer
	}
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": TooDeepMethod})
	return append(out, '\n')
}
