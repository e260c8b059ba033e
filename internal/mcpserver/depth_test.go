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
		if got := Nesting([]byte(tt.msg), MaxNesting); got != tt.depth && !(tt.depth > MaxNesting && got > MaxNesting) {
			t.Errorf("Nesting(%.40s) = %d, want %d", tt.msg, got, tt.depth)
		}
		if got := string(RequestID([]byte(tt.msg))); got != tt.id {
			t.Errorf("RequestID(%.40s) = %q, want %q", tt.msg, got, tt.id)
		}
	}
}

func TestGuardReader(t *testing.T) {
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + deep + "}\n" +
		`{"jsonrpc":"2.0","method":"notifications/x","params":` + deep + "}\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"
	out, err := io.ReadAll(GuardReader(strings.NewReader(in)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3 (the deep notification dropped):\n%s", len(lines), out)
	}
	if !strings.Contains(lines[1], `"id":2`) || !strings.Contains(lines[1], "nested deeper") || strings.Contains(lines[1], "[[") {
		t.Errorf("deep request not rewritten: %.200s", lines[1])
	}
	if lines[0] != `{"jsonrpc":"2.0","id":1,"method":"ping"}` || lines[2] != `{"jsonrpc":"2.0","id":3,"method":"ping"}` {
		t.Errorf("shallow messages changed: %q %q", lines[0], lines[2])
	}
}
