package mcpserver

import (
	"io"
	"strings"
	"testing"
)

func TestNestingAndRequestID(t *testing.T) {
	deep := strings.Repeat("[", 3000) + strings.Repeat("]", 3000)
	tests := []struct {
		msg   string
		depth int
		id    string
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, 1, "7"},
		{`{"jsonrpc":"2.0","method":"x","params":{"a":[1,[2]]},"id":"abc"}`, 4, `"abc"`},
		{`{"params":{"s":"[[[[not nesting"},"id":1}`, 2, "1"},
		{`{"params":` + deep + `,"id":42}`, MaxNesting + 1, "42"},
		{`{"method":"notify","params":` + deep + `}`, MaxNesting + 1, ""},
	}
	for _, tt := range tests {
		if got := nesting([]byte(tt.msg), MaxNesting); got != tt.depth && !(tt.depth > MaxNesting && got > MaxNesting) {
			t.Errorf("nesting(%.40s) = %d, want %d", tt.msg, got, tt.depth)
		}
		if got := string(requestID([]byte(tt.msg))); got != tt.id {
			t.Errorf("requestID(%.40s) = %q, want %q", tt.msg, got, tt.id)
		}
	}
}

func TestGuardReader(t *testing.T) {
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + deep + "}\n" +
		`{"jsonrpc":"2.0","method":"notifications/x","params":` + deep + "}\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"
	var reply strings.Builder
	out, err := io.ReadAll(guardReader(strings.NewReader(in), &reply))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"; string(out) != want {
		t.Errorf("passed on %q, want the shallow messages alone", out)
	}
	if want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"message nested deeper than 256 levels"}}` + "\n"; reply.String() != want {
		t.Errorf("answered %q, want %q (nothing for the notification)", reply.String(), want)
	}
}
