package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/mcpserver"
	"github.com/scry-dev/scry/internal/testkit"
)

// The set-ups this package's tests share: an engine on a workspace, served
// by the real server to the SDK's real client, and the text of an answer.

// noEnv is an environment without SCRY_* settings, which would change the
// answers a test expects.
func noEnv(string) string { return "" }

// open opens an engine with o, on an index in a temporary directory where
// o names none; the engine closes when the test ends.
func open(t testing.TB, o engine.Options) *engine.Engine {
	t.Helper()
	if o.IndexPath == "" {
		o.IndexPath = filepath.Join(t.TempDir(), "index.db")
	}
	e, err := engine.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// inProcess serves a copy of the test project (padded with generated files
// so that syncs take a while) over OS pipes and returns the client and the
// copy's root.
func inProcess(t testing.TB, extraFiles int) (*mcp.ClientSession, string) {
	t.Helper()
	root := testkit.Fixture(t, "project")
	generated := make(map[string]string, extraFiles)
	for i := range extraFiles {
		generated[fmt.Sprintf("src/gen/m%02d/helper%d.ts", i%20, i)] = fmt.Sprintf("import { TokenService } from '../../../auth/tokenService.js';\n\n/** Generated helper %d. */\nexport function helper%d(svc: TokenService, token: string): boolean {\n  return svc.validateToken(token) !== null;\n}\n", i, i)
	}
	testkit.WriteTree(t, root, generated)
	return overPipes(t, open(t, engine.Options{Root: root})), root
}

// inMemory serves e in process over the SDK's in-memory transport and
// returns a connected client; server and client close when the test ends.
func inMemory(t testing.TB, e *engine.Engine) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	return connect(t, e, st, ct)
}

// overPipes serves e over two OS pipes, as over stdio (the SDK's
// in-memory transport is a synchronous net.Pipe, unlike any real client
// connection), and returns the client on the other end.
func overPipes(t testing.TB, e *engine.Engine) *mcp.ClientSession {
	t.Helper()
	sr, cw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cr, sw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, e, &mcp.IOTransport{Reader: sr, Writer: sw}, &mcp.IOTransport{Reader: cr, Writer: cw})
}

// connect serves e on the server's transport st and connects a client on
// ct; both sessions close when the test ends.
func connect(t testing.TB, e *engine.Engine, st, ct mcp.Transport) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(e)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// toolCall is a row of a table of calls.
type toolCall struct {
	tool string
	args map[string]any
}

// call calls the tool with args and returns the answer's text and whether
// it is a tool error; a protocol error fails the test.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return resultText(res), res.IsError
}

// resultText is the text of every part of a result, one after another.
func resultText(r *mcp.CallToolResult) string {
	// Each part is a block of its own to the agent: joined by a line
	// break, so a part's first line is checked as a line.
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toolNames lists the tools the server offers, in its order.
func toolNames(t testing.TB, cs *mcp.ClientSession) []string {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	return names
}
