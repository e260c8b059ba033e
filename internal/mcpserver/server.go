// Package mcpserver exposes scry to agents as MCP tools. Answers are plain
// text written for a model to read; every call first brings the index up to
// date, so an answer never describes code that has since changed.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/textfmt"
)

// Version is reported to clients in the initialize handshake.
var Version = "0.1.0"

// DefaultTools is the set exposed when the config names none: every tool
// scry offers. Every tool's schema is paid for on every agent turn; a
// workspace that wants fewer names them (tools in .scry.toml).
var DefaultTools = []string{
	"codebase_search", "find_symbol", "list_symbols", "get_symbol_info", "find_definition",
	"find_references", "find_implementations", "find_importers", "search_files", "find_files", "change_impact",
}

// Server answers MCP tool calls for one workspace.
type Server struct {
	eng *engine.Engine
	cfg config.Config
	// syncMu orders on-query syncs; the indexer serialises them too, but
	// holding this while answering keeps a call from reading a file set
	// that a concurrent call's sync is replacing.
	syncMu sync.Mutex
	// calls lets tool calls run together and a rebuild of a damaged index
	// run alone; rebuilds counts them, so that calls that failed on the
	// same damage rebuild once.
	calls    sync.RWMutex
	rebuilds int
	// empty is why the index holds no files, as of the last sync (nil
	// when it holds some): every answer then says so, since an empty
	// answer alone does not tell an agent that scry sees no code at all.
	empty atomic.Pointer[engine.EmptyWorkspace]
}

// call runs one tool call. A call that finds the index damaged (pages
// damaged while the server runs surface as "database disk image is
// malformed" in the queries that read them) rebuilds it with the other
// calls held off, asks once more, and says so in its answer.
func (s *Server) call(ctx context.Context, run func() (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	notes, err := s.reload()
	if err != nil {
		return nil, err
	}
	s.calls.RLock()
	gen := s.rebuilds
	res, err := run()
	s.calls.RUnlock()
	if err == nil && res != nil {
		for _, n := range notes {
			res.Content = append(res.Content, text("Note: "+textfmt.Line(n)))
		}
	}
	if !engine.IsCorrupt(err) {
		return res, err
	}
	damage := err
	s.calls.Lock()
	if s.rebuilds == gen { // no other call rebuilt it since this one began
		if rerr := s.eng.Rebuild(ctx); rerr != nil {
			s.calls.Unlock()
			return nil, fmt.Errorf("%w; rebuilding the index failed: %w", damage, rerr)
		}
		s.rebuilds++
	}
	s.calls.Unlock()
	s.calls.RLock()
	defer s.calls.RUnlock()
	res, err = run()
	if err == nil && res != nil {
		res.Content = append(res.Content, text("Note: the index was damaged ("+textfmt.Line(damage.Error())+"); scry rebuilt it from the workspace."))
	}
	return res, err
}

// reload loads the configuration again when the workspace's .scry.toml
// changed (a new exclude holds from the next call, without a restart),
// with the other calls held off, and says what the reload has to tell.
func (s *Server) reload() ([]string, error) {
	s.calls.RLock()
	changed := s.eng.ConfigChanged()
	s.calls.RUnlock()
	if !changed {
		return nil, nil
	}
	s.calls.Lock()
	defer s.calls.Unlock()
	if !s.eng.ConfigChanged() { // another call reloaded it meanwhile
		return nil, nil
	}
	return s.eng.ReloadConfig()
}

// New builds the MCP server with the tools the engine's configuration
// names.
func New(eng *engine.Engine) (*mcp.Server, error) {
	cfg := eng.Config()
	s := &Server{eng: eng, cfg: cfg}
	names := cfg.Tools
	if len(names) == 0 {
		names = DefaultTools
	}
	// Which server answers each tool: all of them this one, except on the
	// shared index, where codebase_search reads the cluster and the
	// structure tools read this machine's checkout of the repository,
	// when it has one.
	serverFor := func(string) *Server { return s }
	local, err := eng.LocalEngine(context.Background())
	switch {
	case errors.Is(err, engine.ErrNeedsLocalIndex):
		// Without a checkout the other tools have no workspace to read.
		for _, n := range cfg.Tools {
			if n != "codebase_search" {
				return nil, fmt.Errorf("mcp: tool %s needs a local index or a checkout of the repository (--checkout); the weaviate backend serves codebase_search", n)
			}
		}
		names = []string{"codebase_search"}
	case err != nil:
		return nil, fmt.Errorf("mcp: %w", err)
	case local != eng:
		// The checkout is an engine of its own, synced (fresh) and
		// reloaded apart from this one.
		ls := &Server{eng: local, cfg: local.Config()}
		serverFor = func(name string) *Server {
			if name == "codebase_search" {
				return s
			}
			return ls
		}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "scry", Version: Version}, &mcp.ServerOptions{
		Instructions: Instructions(names),
	})
	byName := make(map[string]tool, len(tools))
	for _, t := range tools {
		byName[t.name] = t
	}
	var unknown []string
	for _, name := range names {
		t, ok := byName[name]
		if !ok {
			unknown = append(unknown, name)
			continue
		}
		t.add(srv, serverFor(name))
	}
	if len(unknown) > 0 {
		known := make([]string, len(tools))
		for i, t := range tools {
			known[i] = t.name
		}
		sort.Strings(known)
		return nil, fmt.Errorf("config tools: unknown %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return srv, nil
}

// uses says, for each tool, the need it serves, as a line of the server's
// instructions; the order is the order an agent should reach for them.
var uses = []struct{ tool, line string }{
	{"codebase_search", "- Where something is done or how it works, in plain words: codebase_search. It answers with whole symbols and their callers, callees and types, so one call often replaces several greps and file reads. A known symbol: `symbol = File > Parent > name`."},
	{"find_symbol", "- A name you are unsure of (spelling, place): find_symbol, mode prefix or fuzzy."},
	{"get_symbol_info", "- Before changing a symbol: get_symbol_info (signature, callers, callees, types, members)."},
	{"find_references", "- Every use of a symbol: find_references."},
	{"find_implementations", "- Subclasses and implementations: find_implementations."},
	{"find_importers", "- Who imports a file, package or export: find_importers."},
	{"find_definition", "- Where a name used at file:line:column is declared: find_definition."},
	{"list_symbols", "- A file's or directory's outline: list_symbols."},
	{"search_files", "- Exact text or a regex: search_files."},
	{"find_files", "- Files by name: find_files."},
	{"change_impact", "- What the uncommitted change (or a revision range) affects, and which tests reach it: change_impact."},
}

// Instructions is what the server tells an agent at start-up: which of the
// named tools serves which need, in a few lines (clients add them to the
// agent's context, so every line is paid for on every turn).
func Instructions(names []string) string {
	on := make(map[string]bool, len(names))
	for _, n := range names {
		on[n] = true
	}
	lines := []string{"scry answers questions about this TypeScript/JavaScript codebase from an index kept in step with the files, with connections resolved by the TypeScript compiler (answers marked approximate come from the index alone, e.g. while the compiler loads)."}
	for _, u := range uses {
		if on[u.tool] {
			lines = append(lines, u.line)
		}
	}
	return strings.Join(lines, "\n")
}

// fresh brings the index up to date before a call is answered, reporting
// progress to clients that asked for it. Calls arriving during a sync wait
// for it, so no answer is read from a half-written index.
//
// On a reader of the shared index there is nothing to sync (`scry index`
// keeps the shared index fresh; Engine.SyncProgress).
func (s *Server) fresh(ctx context.Context, req *mcp.CallToolRequest) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	var progress func(done, total int)
	if req != nil && req.Params != nil && req.Session != nil {
		if token := req.Params.GetProgressToken(); token != nil {
			last := -1
			progress = func(done, total int) {
				if total == 0 || done == last || (done != total && done%25 != 0) {
					return
				}
				last = done
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      float64(done),
					Total:         float64(total),
					Message:       "indexing",
				})
			}
		}
	}
	sum, err := s.eng.SyncProgress(ctx, progress)
	if err != nil {
		return fmt.Errorf("bringing the index up to date: %w", err)
	}
	empty, err := s.eng.MaybeEmpty(ctx, sum)
	if err != nil {
		return err
	}
	s.empty.Store(empty)
	return nil
}

func text(s string) *mcp.TextContent {
	return &mcp.TextContent{Text: s, Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}}
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{text(s)}}
}

// errArg marks a bad argument: reported to the agent as a tool error.
var errArg = errors.New("invalid argument")

func argError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errArg, fmt.Sprintf(format, args...))
}
