package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/testkit"
)

// mixedCalls are an agent's everyday calls on the test project, for the
// test and the benchmark that fire many at once.
var mixedCalls = []mcp.CallToolParams{
	{Name: "codebase_search", Arguments: map[string]any{"query": "validate a token"}},
	{Name: "find_symbol", Arguments: map[string]any{"name": "helper1", "mode": "prefix"}},
	{Name: "list_symbols", Arguments: map[string]any{"path": "src/auth"}},
	{Name: "get_symbol_info", Arguments: map[string]any{"symbol": "TokenService"}},
	{Name: "find_references", Arguments: map[string]any{"symbol": "TokenService > validateToken"}},
	{Name: "search_files", Arguments: map[string]any{"pattern": "validateToken"}},
}

// TestConcurrentCallsDuringEdits fires many tool calls at once while files
// keep changing: every call succeeds, and each answer is consistent with
// some complete state of the index (run under -race).
func TestConcurrentCallsDuringEdits(t *testing.T) {
	cs, root := inProcess(t, 300)
	ctx := context.Background()
	calls := append(slices.Clone(mixedCalls),
		mcp.CallToolParams{Name: "find_importers", Arguments: map[string]any{"module": "src/auth/tokenService.ts"}},
		mcp.CallToolParams{Name: "find_files", Arguments: map[string]any{"pattern": "*.ts"}})
	stopEditing := testkit.Background(func(i int) { // an editor saving files while the agent works
		p := filepath.Join(root, "src", "gen", "m00", fmt.Sprintf("helper%d.ts", (i%15)*20))
		os.WriteFile(p, []byte(fmt.Sprintf("export function edited%d(): number {\n  return %d;\n}\n", i, i)), 0o644)
	})
	errs := make(chan error, 64)
	var callers sync.WaitGroup
	for i := 0; i < 48; i++ {
		callers.Add(1)
		go func(i int) {
			defer callers.Done()
			p := calls[i%len(calls)]
			res, err := cs.CallTool(ctx, &p)
			switch {
			case err != nil:
				errs <- fmt.Errorf("%s: %v", p.Name, err)
			case res.IsError:
				errs <- fmt.Errorf("%s: tool error: %s", p.Name, resultText(res))
			case strings.TrimSpace(resultText(res)) == "":
				errs <- fmt.Errorf("%s: empty answer", p.Name)
			}
		}(i)
	}
	callers.Wait()
	stopEditing()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestBadArguments checks that hostile arguments end as clear tool errors
// in bounded time, and that the server keeps answering afterwards.
func TestBadArguments(t *testing.T) {
	cs, _ := inProcess(t, 0)
	ctx := context.Background()
	// Nesting of a few hundred levels is refused by schema validation.
	// (Beyond ~1000 levels the SDK's frame decoder closes the session: a
	// known limit, noted in the README.)
	deep := any("x")
	for i := 0; i < 300; i++ {
		deep = []any{deep}
	}
	bad := []mcp.CallToolParams{
		{Name: "codebase_search", Arguments: map[string]any{"query": strings.Repeat("token ", 100_000)}},
		{Name: "codebase_search", Arguments: map[string]any{"query": "x", "path": deep}},
		{Name: "codebase_search", Arguments: map[string]any{"query": "x", "budget": -5}},
		{Name: "find_symbol", Arguments: map[string]any{"name": "x", "limit": 1 << 40}},
		{Name: "find_symbol", Arguments: map[string]any{"name": "x", "mode": "telepathic"}},
		{Name: "search_files", Arguments: map[string]any{"pattern": "a(?=b)", "regex": true}},
		{Name: "search_files", Arguments: map[string]any{"pattern": strings.Repeat("a", 10000)}},
		{Name: "list_symbols", Arguments: map[string]any{"path": "../.."}},
		{Name: "find_importers", Arguments: map[string]any{"module": "/etc/passwd"}},
		{Name: "get_symbol_info", Arguments: map[string]any{"symbol": " > > "}},
		{Name: "find_files", Arguments: map[string]any{"pattern": "[unclosed"}},
		{Name: "find_definition", Arguments: map[string]any{"file": "src/index.ts", "line": 1}},
	}
	for _, p := range bad {
		res, err := cs.CallTool(ctx, &p)
		if err != nil {
			t.Errorf("%s: protocol error (the session must survive bad arguments): %.200v", p.Name, err)
			continue
		}
		if !res.IsError {
			t.Errorf("%s %.80v: expected a tool error, got: %.200s", p.Name, p.Arguments, resultText(res))
		} else if len(resultText(res)) == 0 {
			t.Errorf("%s: tool error without a message", p.Name)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_symbol", Arguments: map[string]any{"name": "TokenService"}})
	if err != nil {
		t.Fatalf("server stopped answering after bad input: %v", err)
	}
	if res.IsError || !strings.Contains(resultText(res), "tokenService.ts") {
		t.Fatalf("server answers wrongly after bad input: %s", resultText(res))
	}
}

// BenchmarkConcurrentLoad holds 8 concurrent clients' worth of mixed tool
// calls against a warm server and reports calls/s; every call must succeed.
//
//	go test ./internal/mcpserver -run '^$' -bench ConcurrentLoad -benchtime 400x
func BenchmarkConcurrentLoad(b *testing.B) {
	cs, _ := inProcess(b, 200)
	ctx := context.Background()
	var failed atomic.Int64
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				p := mixedCalls[i%int64(len(mixedCalls))]
				res, err := cs.CallTool(ctx, &p)
				if err != nil || res.IsError {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
	b.ReportMetric(float64(failed.Load()), "failed")
	if failed.Load() > 0 {
		b.Fatalf("%d calls failed", failed.Load())
	}
}
