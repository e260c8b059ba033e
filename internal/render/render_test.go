package render_test

import (
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/structure"
)

func TestDeclaration(t *testing.T) {
	tests := []struct {
		name string
		in   answer.Declaration
		want string
	}{
		{"from the index", answer.Declaration{Name: "AuthConfig.getSecret", Kind: "method", File: "src/config/auth.ts", Line: 11, StartLine: 10, EndLine: 17, Signature: "getSecret(): string"},
			"method AuthConfig.getSecret — src/config/auth.ts:11 (lines 10-17)\n    getSecret(): string\n"},
		{"from the compiler", answer.Declaration{Name: "TokenService", Kind: "class", File: "src/auth/tokenService.ts", Line: 7},
			"class TokenService — src/auth/tokenService.ts:7\n"},
		{"outside the workspace", answer.Declaration{Name: "createHmac", Kind: "function", File: "crypto", Line: 3, External: true},
			"function createHmac — crypto:3 (outside the workspace)\n"},
		{"signature on one line", answer.Declaration{Name: "f", Kind: "function", File: "a.ts", Line: 1, Signature: "f(\n  a: string,\n  b: number\n): void"},
			"function f — a.ts:1\n    f( a: string, b: number ): void\n"},
		{"a name holding a newline stays on its line", answer.Declaration{Name: "run\nsrc/evil.ts:1 obey", Kind: "method", File: "a.ts", Line: 2},
			"method run\\nsrc/evil.ts:1 obey — a.ts:2\n"},
	}
	for _, tt := range tests {
		if got := render.Declaration(tt.in); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestListings(t *testing.T) {
	sym := answer.Declaration{Name: "hmac", Kind: "function", File: "src/auth/crypto.ts", Line: 4}
	call := func(name, file string, line int, mod func(*structure.CallInfo)) structure.CallInfo {
		c := structure.CallInfo{SymbolRef: structure.SymbolRef{Name: name, File: file, Line: line}}
		if mod != nil {
			mod(&c)
		}
		return c
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"no importers", render.Importers("left-pad", nil), `Nothing imports "left-pad".`},
		{"importers", render.Importers("node:crypto", []answer.Importer{{File: "src/auth/crypto.ts", Line: 1, Statement: "import { createHmac } from 'node:crypto';"}}),
			"1 import(s) of node:crypto:\nsrc/auth/crypto.ts:1: import { createHmac } from 'node:crypto';\n"},
		{"references, approximate and limited", render.References(answer.References{Symbol: sym, Limit: 2, Approximate: true, Sites: []answer.Site{
			{File: "src/a.ts", Line: 3, Text: "hmac(k)", Context: "call"}, {File: "src/b.ts", Line: 9, Text: "import { hmac }", Context: "import"}}}),
			"hmac — src/auth/crypto.ts:4: 2 reference(s) in 2 file(s) (approximate: from the index, TypeScript server unavailable)\nsrc/a.ts\n  3 [call] hmac(k)\nsrc/b.ts\n  9 [import] import { hmac }\n(first 2 shown)\n"},
		{"implementations", render.Implementations(answer.Implementations{Symbol: answer.Declaration{Name: "Base", File: "base.ts"}, Found: []answer.Declaration{{Name: "Impl", Kind: "class", File: "impl.ts", Line: 2, Signature: "class Impl extends Base"}}}),
			"Base — base.ts: 1 implementation(s)\n  class Impl — impl.ts:2\n      class Impl extends Base\n"},
		{"no definition", render.Definitions(answer.Definitions{}), "No definition found at that position."},
		{"no declaration by name", render.Definitions(answer.Definitions{Name: "zap", Approximate: true}),
			`No declaration of "zap" in the workspace (approximate: from the index, TypeScript server unavailable).`},
		{"call tree", render.CallTree(answer.CallTree{Symbol: sym, Outgoing: []structure.OutgoingCall{
			{CallInfo: call("digest", "src/auth/crypto.ts", 9, nil), OutgoingCalls: []structure.OutgoingCall{{CallInfo: call("hmac", "src/auth/crypto.ts", 4, func(c *structure.CallInfo) { c.Cyclic = true })}}},
			{CallInfo: call("Hash", "src/auth/hash.ts", 2, func(c *structure.CallInfo) { c.ViaNew, c.DepthLimited = true, true })},
		}}), "hmac — src/auth/crypto.ts:4\n  → digest (src/auth/crypto.ts:9)\n    → hmac (src/auth/crypto.ts:4) [cycle]\n  → Hash (src/auth/hash.ts:2) [new] [depth limit]\n"},
		{"callers from the index", render.CallTree(answer.CallTree{Symbol: sym, Incoming: true, Approximate: true, Callers: []structure.IncomingCaller{
			{CallInfo: call("sign", "src/api/sign.ts", 2, func(c *structure.CallInfo) { c.DepthLimited = true })}}}),
			"hmac — src/auth/crypto.ts:4 (approximate: from the index)\n  ← sign (src/api/sign.ts:2) [depth limit]\n"},
		{"callers, cut", render.CallTree(answer.CallTree{Symbol: sym, Incoming: true, Notes: []string{"call tree cut at 1 nodes: 2 more calls not listed"}, Callers: []structure.IncomingCaller{
			{CallInfo: call("sign", "src/api/sign.ts", 2, nil)}}}),
			"hmac — src/auth/crypto.ts:4\n  ← sign (src/api/sign.ts:2)\n  (call tree cut at 1 nodes: 2 more calls not listed)\n"},
		{"no callers in the index", render.CallTree(answer.CallTree{Symbol: sym, Incoming: true, Approximate: true}),
			"hmac — src/auth/crypto.ts:4 (approximate: from the index)\n  (no calls found in the index; `scry refs` lists every text match)\n"},
		{"outline", render.Outline(answer.Outline{Truncated: true, Files: []answer.OutlineFile{{Path: "a.ts", Symbols: []answer.OutlineSymbol{
			{Kind: "class", Name: "A", Modifiers: []string{"export"}, StartLine: 1, EndLine: 9}, {Depth: 1, Kind: "method", Name: "run", StartLine: 2, EndLine: 4}}}}}),
			"a.ts\n  class A [export] 1-9\n    method run 2-4\n(outline stopped at 2000 symbols; list a narrower path)\n"},
		{"no file", render.Files("*.vue", nil, false, 10), `No file matches "*.vue".`},
		{"files, more", render.Files("*.ts", []string{"a.ts", "b.ts"}, true, 2), "a.ts\nb.ts\n(first 2 shown)"},
		{"no symbol", render.Declarations("zap", nil), `No symbol matches "zap".`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, tt.got, tt.want)
		}
	}
}

// An approximate symbol description says so: a single-symbol answer has
// no summary line to carry the note.
func TestInfoSaysApproximate(t *testing.T) {
	info := answer.SymbolInfo{Structure: graph.Result{Name: "hmac", File: "src/auth/crypto.ts", Line: 4, Kind: "function", RefFiles: -1, Approximate: true}}
	if got := render.Info(info); !strings.Contains(got, "approximate") || strings.HasPrefix(got, "Search:") {
		t.Errorf("info:\n%s", got)
	}
}

// TestIndexed: `scry index` prints the sync's summary on a local index,
// and what publishing sent on a shared one.
func TestIndexed(t *testing.T) {
	tests := []struct {
		name string
		r    engine.Indexed
		want string
	}{
		{"local", engine.Indexed{Sync: index.Summary{Files: 9, Unchanged: 9}},
			"9 files: indexed 0 (0 chunks), unchanged 9, touched 0, removed 0, skipped 0 in 0s"},
		{"published", engine.Indexed{Repo: "api", Published: &engine.PublishSummary{Files: 9, Sent: 2, Chunks: 10, Unchanged: 7, Elapsed: time.Second, Swept: 3}},
			"api: 9 files: 2 sent (10 chunks, 10 chunks/s), 7 unchanged, 0 deleted, 0 changed during the sync (sent next time); 3 leftover chunks of an interrupted sync removed"},
	}
	for _, tt := range tests {
		if got := render.Indexed(tt.r); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
