package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// TestGuardReader: over stdio, a message nested too deeply, or larger than
// MaxRequestBytes (one line over ~16 MB used to end the server), is
// answered with an error for its request (nothing for a notification) and
// never passed on, nor held in memory whole; the messages around it pass
// and the session goes on.
func TestGuardReader(t *testing.T) {
	ping := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id) + "\n" }
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	tooLarge := `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"message larger than 4194304 bytes"}}` + "\n"
	tests := []struct {
		name, in   string
		out, reply string
	}{
		{"too deep",
			ping(1) + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + deep + "}\n" +
				`{"jsonrpc":"2.0","method":"notifications/x","params":` + deep + "}\n" + ping(3),
			ping(1) + ping(3),
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"message nested deeper than 256 levels"}}` + "\n"},
		{"too large",
			ping(1) + `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"s":"` + strings.Repeat("a", 20<<20) + `"}}}` + "\n" +
				`{"jsonrpc":"2.0","method":"tools/call","params":{"s":"` + strings.Repeat("b", MaxRequestBytes) + `"},"id":9}` + "\n" + ping(8),
			ping(1) + ping(8),
			fmt.Sprintf(tooLarge, "7") + fmt.Sprintf(tooLarge, "null")},
	}
	for _, tt := range tests {
		var reply strings.Builder
		out, err := io.ReadAll(guardReader(strings.NewReader(tt.in), &reply))
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tt.out {
			t.Errorf("%s: passed on %.200q, want %q", tt.name, out, tt.out)
		}
		if reply.String() != tt.reply {
			t.Errorf("%s: answered %q, want %q", tt.name, reply.String(), tt.reply)
		}
	}
}

// stdioAnswers serves a bare SDK server over ServeStdio, sends it an
// initialize and the given lines, and returns its first n answers (fewer
// when the session ends or none comes within a generous bound).
func stdioAnswers(t *testing.T, n int, lines ...string) []string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "scry-test", Version: "0"}, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ServeStdio(ctx, srv, inR, outW)
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		for _, l := range lines {
			io.WriteString(inW, l+"\n")
		}
	}()
	defer inW.Close()
	defer outW.Close()
	answers := make(chan string, n+1)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			answers <- sc.Text()
		}
		close(answers)
	}()
	var got []string
	bound := time.After(10 * time.Second) // a session that ended answers nothing more
	for len(got) < n {
		select {
		case a, ok := <-answers:
			if !ok {
				return got
			}
			got = append(got, a)
		case <-bound:
			return got
		}
	}
	return got
}

// TestStdioSessionSurvivesOversizedLine: through the SDK's server, the
// request after a 20 MB line is still answered.
func TestStdioSessionSurvivesOversizedLine(t *testing.T) {
	got := stdioAnswers(t, 3,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{"s":"`+strings.Repeat("a", 20<<20)+`"}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"ping"}`)
	all := strings.Join(got, "\n")
	if !strings.Contains(all, `"id":9,"error":{"code":-32600`) || !strings.Contains(all, `"id":10,"result"`) {
		t.Errorf("answers:\n%s\nwant an error for the large request and the next one answered", all)
	}
}
