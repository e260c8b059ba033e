package mcpserver_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/engine/enginetest"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// BenchmarkToolLatency measures each tool's per-call latency on a warm
// server over OS pipes (as over stdio), on the TypeScript sources of rxjs
// and effect (600+ files). Run: SCRY_CORPUS=... go test ./internal/mcpserver
// -run '^$' -bench ToolLatency -benchtime 1x
func BenchmarkToolLatency(b *testing.B) {
	e, sum := enginetest.Workspace(b, engine.CompilerOff)
	ctx := context.Background()
	cs := overPipes(b, e)
	calls := []struct {
		label string
		p     mcp.CallToolParams
	}{
		{"codebase_search", mcp.CallToolParams{Name: "codebase_search", Arguments: map[string]any{"query": "retry an observable when it errors with a delay"}}},
		{"codebase_search_symbol", mcp.CallToolParams{Name: "codebase_search", Arguments: map[string]any{"query": "symbol = Subscriber > next"}}},
		{"find_symbol_exact", mcp.CallToolParams{Name: "find_symbol", Arguments: map[string]any{"name": "mergeMap"}}},
		{"find_symbol_fuzzy", mcp.CallToolParams{Name: "find_symbol", Arguments: map[string]any{"name": "swtchmp", "mode": "fuzzy"}}},
		{"list_symbols", mcp.CallToolParams{Name: "list_symbols", Arguments: map[string]any{"path": "rxjs/internal/Subscriber.ts"}}},
		{"get_symbol_info", mcp.CallToolParams{Name: "get_symbol_info", Arguments: map[string]any{"symbol": "Subscriber > next"}}},
		{"find_definition", mcp.CallToolParams{Name: "find_definition", Arguments: map[string]any{"symbol": "Observable"}}},
		{"find_references", mcp.CallToolParams{Name: "find_references", Arguments: map[string]any{"symbol": "innerFrom"}}},
		{"find_implementations", mcp.CallToolParams{Name: "find_implementations", Arguments: map[string]any{"symbol": "Subscription"}}},
		{"find_importers", mcp.CallToolParams{Name: "find_importers", Arguments: map[string]any{"module": "rxjs/internal/Observable.ts"}}},
		{"search_files", mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"pattern": "isFunction("}}},
		{"find_files", mcp.CallToolParams{Name: "find_files", Arguments: map[string]any{"pattern": "*Subject.ts"}}},
	}
	const n = 40
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range calls {
			var lat []time.Duration
			for j := 0; j < n; j++ {
				start := time.Now()
				res, err := cs.CallTool(ctx, &c.p)
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %s", c.label, err, resultText(res))
				}
				lat = append(lat, time.Since(start))
			}
			reportLatency(b, lat, c.label)
		}
	}
	b.ReportMetric(float64(sum.Files), "files")
}

// BenchmarkSearchOverMCP measures codebase_search as an agent gets it: over
// OS pipes, on a warm index with the TypeScript 7 server attached, each
// question of testdata/questions.txt asked once after three others have
// warmed up the server. Run: SCRY_CORPUS=... SCRY_TSGO=... go test
// ./internal/mcpserver -run '^$' -bench SearchOverMCP -benchtime 1x
func BenchmarkSearchOverMCP(b *testing.B) {
	tslstest.Binary(b) // skips without TypeScript 7, which Open then finds the same way
	e, sum := enginetest.Workspace(b, engine.CompilerWait)
	if e.Compiler() == nil {
		b.Fatal("TypeScript 7 did not start")
	}
	questions := enginetest.Questions(b)
	ctx := context.Background()
	cs := overPipes(b, e)
	ask := func(q string) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "codebase_search", Arguments: map[string]any{"query": q}})
		if err != nil || res.IsError {
			b.Fatalf("%q: %v %s", q, err, resultText(res))
		}
		if strings.Contains(resultText(res), "TypeScript server unavailable") {
			b.Fatalf("%q: answered without the compiler", q)
		}
		return time.Since(start)
	}
	for _, q := range enginetest.WarmUp {
		ask(q)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var lat []time.Duration
		for _, q := range questions {
			lat = append(lat, ask(q))
		}
		reportLatency(b, lat, "first")
	}
	b.ReportMetric(float64(sum.Files), "files")
}

// reportLatency reports the median and the 95th percentile of lat, in
// milliseconds, as label_p50_ms and label_p95_ms.
func reportLatency(b *testing.B, lat []time.Duration, label string) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, label+"_p50_ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, label+"_p95_ms")
}
