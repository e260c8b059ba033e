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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/textfmt"
)

// Version is reported to clients in the initialize handshake.
var Version = "0.1.0"

// DefaultTools is the set exposed when the config names none. Every tool's
// schema is paid for on every agent turn, so the default leaves out the two
// that duplicate an agent's own file tools (search_files, find_files).
var DefaultTools = []string{
	"codebase_search", "find_symbol", "list_symbols", "get_symbol_info", "find_definition",
	"find_references", "find_implementations", "find_importers", "search_files", "find_files",
}

// AllTools lists every tool scry offers.
var AllTools = DefaultTools

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
}

// call runs one tool call. A call that finds the index damaged (pages
// damaged while the server runs surface as "database disk image is
// malformed" in the queries that read them) rebuilds it with the other
// calls held off, asks once more, and says so in its answer.
func (s *Server) call(ctx context.Context, run func() (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	s.calls.RLock()
	gen := s.rebuilds
	res, err := run()
	s.calls.RUnlock()
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

// New builds the MCP server with the tools the engine's configuration
// names.
func New(eng *engine.Engine) (*mcp.Server, error) {
	cfg := eng.Config()
	s := &Server{eng: eng, cfg: cfg}
	srv := mcp.NewServer(&mcp.Implementation{Name: "scry", Version: Version}, &mcp.ServerOptions{
		Instructions: "scry answers questions about this TypeScript/JavaScript codebase with complete symbols and their compiler-resolved connections. " +
			"Start with codebase_search (plain words, or `symbol = File > Parent > name`); use the other tools to follow up.",
	})
	names := cfg.Tools
	if len(names) == 0 {
		names = DefaultTools
	}
	if eng.Shared() {
		// A server of the shared index holds no checkout: it answers
		// codebase_search from the cluster; the other tools read a
		// workspace.
		for _, n := range cfg.Tools {
			if n != "codebase_search" {
				return nil, fmt.Errorf("mcp: tool %s needs a local index; the weaviate backend serves codebase_search", n)
			}
		}
		names = []string{"codebase_search"}
	}
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
		t.add(srv, s)
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

// fresh brings the index up to date before a call is answered, reporting
// progress to clients that asked for it. Calls arriving during a sync wait
// for it, so no answer is read from a half-written index.
func (s *Server) fresh(ctx context.Context, req *mcp.CallToolRequest) error {
	if s.eng.Shared() {
		return nil // the shared index is kept fresh by `scry index`
	}
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
	if _, err := s.eng.SyncProgress(ctx, progress); err != nil {
		return fmt.Errorf("bringing the index up to date: %w", err)
	}
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
