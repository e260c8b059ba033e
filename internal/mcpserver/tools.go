package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/textsearch"
)

// Limits on what one call may ask for: generous for real use, small enough
// that no argument can make a call take unbounded time or memory.
const (
	maxLimit      = 500
	maxBudget     = 200_000
	maxPathFilter = 64
)

type searchArgs struct {
	Query     string   `json:"query" jsonschema:"plain-words question, or symbol = [file >] [Parent >] name"`
	Path      []string `json:"path,omitempty" jsonschema:"files, directories or globs to search within"`
	Languages []string `json:"languages,omitempty" jsonschema:"typescript, tsx, javascript"`
	Budget    int      `json:"budget,omitempty" jsonschema:"token budget for the answer (default 8000)"`
	Threshold *float64 `json:"threshold,omitempty" jsonschema:"minimum relevance 0..1 (default 0.5)"`
}

func (s *Server) addCodebaseSearch(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "codebase_search",
		Description: "Find the code that answers a question: complete symbols with their callers, callees and types, within a token budget. Query in plain words, or `symbol = File > Parent > name` for an exact lookup.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a searchArgs) (*mcp.CallToolResult, any, error) {
		if strings.TrimSpace(a.Query) == "" {
			return nil, nil, argError("query is empty")
		}
		if len(a.Path) > maxPathFilter {
			return nil, nil, argError("at most %d path filters", maxPathFilter)
		}
		paths, err := s.confinePaths(a.Path)
		if err != nil {
			return nil, nil, err
		}
		if err := s.fresh(ctx, req); err != nil {
			return nil, nil, err
		}
		prm := search.Params{
			RerankWeight: s.cfg.RerankWeight, VectorWeight: s.cfg.VectorWeight, Threshold: s.cfg.Threshold,
			Budget: s.cfg.Budget, Candidates: s.cfg.Candidates,
		}
		if a.Budget != 0 {
			if a.Budget < 0 || a.Budget > maxBudget {
				return nil, nil, argError("budget must be 1..%d", maxBudget)
			}
			prm.Budget = a.Budget
		}
		if a.Threshold != nil {
			if *a.Threshold < 0 || *a.Threshold > 1 {
				return nil, nil, argError("threshold must be within 0..1")
			}
			prm.Threshold = *a.Threshold
		}
		ans, err := s.eng.Search(ctx, search.Request{Query: a.Query, Paths: paths, Languages: a.Languages, Params: prm}, s.cfg.CallDepth)
		if err != nil {
			return nil, nil, err
		}
		res := &mcp.CallToolResult{}
		g := text(ans.Graph)
		g.Annotations.Priority = 1.0
		res.Content = append(res.Content, g)
		for _, snap := range ans.Snapshots {
			c := text(snap.Text)
			c.Annotations.Priority = snap.Priority
			res.Content = append(res.Content, c)
		}
		return res, nil, nil
	})
}

// confinePaths rejects path filters that point outside the workspace and
// turns absolute ones inside it into relative ones.
func (s *Server) confinePaths(paths []string) ([]string, error) {
	return s.eng.ConfinePaths(paths)
}

type findSymbolArgs struct {
	Name     string `json:"name" jsonschema:"symbol name (or words, with mode semantic)"`
	Mode     string `json:"mode,omitempty" jsonschema:"exact (default), prefix, fuzzy or semantic"`
	Kind     string `json:"kind,omitempty" jsonschema:"function, class, method, interface, type, enum, const..."`
	Language string `json:"language,omitempty"`
	Path     string `json:"path,omitempty" jsonschema:"file, directory or glob"`
	Limit    int    `json:"limit,omitempty" jsonschema:"default 20"`
}

func (s *Server) addFindSymbol(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "find_symbol",
		Description: "Find declarations by name: exact, prefix, fuzzy, or semantic (plain words). Lists kind, location and signature.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a findSymbolArgs) (*mcp.CallToolResult, any, error) {
		if strings.TrimSpace(a.Name) == "" {
			return nil, nil, argError("name is empty")
		}
		if len(a.Name) > 1024 {
			return nil, nil, argError("name too long")
		}
		limit, err := limitOf(a.Limit, 20)
		if err != nil {
			return nil, nil, err
		}
		var paths []string
		if a.Path != "" {
			if paths, err = s.confinePaths([]string{a.Path}); err != nil {
				return nil, nil, err
			}
		}
		var langs []string
		if a.Language != "" {
			langs = []string{search.NormalizeLanguage(a.Language)}
		}
		var kinds []string
		if a.Kind != "" {
			kinds = []string{a.Kind}
		}
		if err := s.fresh(ctx, req); err != nil {
			return nil, nil, err
		}
		switch a.Mode {
		case "", "exact", "prefix", "fuzzy", "semantic":
		default:
			return nil, nil, argError("mode must be exact, prefix, fuzzy or semantic")
		}
		found, err := s.eng.FindSymbols(ctx, engine.SymbolQuery{Name: a.Name, Mode: a.Mode, Kinds: kinds, Paths: paths, Languages: langs, Limit: limit})
		if err != nil {
			return nil, nil, err
		}
		if len(found) == 0 {
			return textResult(fmt.Sprintf("No symbol matches %q.", a.Name)), nil, nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d symbol(s) matching %q:\n", len(found), a.Name)
		for _, c := range found {
			fmt.Fprintf(&b, "%s %s — %s:%d-%d\n", c.NodeKind, engine.DisplayName(c), c.RelativePath, c.StartLine, c.EndLine)
			if c.Signature != "" {
				fmt.Fprintf(&b, "    %s\n", c.Signature)
			}
		}
		return textResult(b.String()), nil, nil
	})
}

func limitOf(v, def int) (int, error) {
	if v == 0 {
		return def, nil
	}
	if v < 0 || v > maxLimit {
		return 0, argError("limit must be 1..%d", maxLimit)
	}
	return v, nil
}

type listSymbolsArgs struct {
	Path  string   `json:"path" jsonschema:"file or directory"`
	Kinds []string `json:"kinds,omitempty" jsonschema:"only these kinds"`
}

func (s *Server) addListSymbols(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "list_symbols",
		Description: "Outline a file or directory: its symbols with nesting, kinds and line ranges.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a listSymbolsArgs) (*mcp.CallToolResult, any, error) {
		if a.Path == "" {
			return nil, nil, argError("path is empty")
		}
		_, rel, err := s.eng.ResolvePath(a.Path)
		if err != nil {
			return nil, nil, err
		}
		if err := s.fresh(ctx, req); err != nil {
			return nil, nil, err
		}
		out, err := s.eng.Outline(rel, a.Kinds)
		if err != nil {
			return nil, nil, err
		}
		return textResult(out), nil, nil
	})
}

type symbolArgs struct {
	Symbol    string `json:"symbol" jsonschema:"[file >] [Parent >] name"`
	CallDepth int    `json:"call_depth,omitempty" jsonschema:"call-tree depth: 1 (default), N, -1 transitive"`
}

func (s *Server) resolveOne(ctx context.Context, req *mcp.CallToolRequest, symbol string) ([]chunk.Chunk, *mcp.CallToolResult, error) {
	if strings.TrimSpace(symbol) == "" {
		return nil, nil, argError("symbol is empty")
	}
	if err := s.fresh(ctx, req); err != nil {
		return nil, nil, err
	}
	cs, err := s.eng.Resolve(symbol)
	if err != nil {
		return nil, nil, err
	}
	if len(cs) == 0 {
		return nil, textResult(fmt.Sprintf("No symbol %q in the workspace.", symbol)), nil
	}
	if len(cs) > 20 {
		cs = cs[:20]
	}
	return cs, nil, nil
}

// eachSymbol answers for every declaration a symbol path names (an
// ambiguous name answers for each), joining the answers with sep.
func (s *Server) eachSymbol(ctx context.Context, req *mcp.CallToolRequest, symbol, sep string, answer func(chunk.Chunk) (string, error)) (*mcp.CallToolResult, any, error) {
	cs, empty, err := s.resolveOne(ctx, req, symbol)
	if err != nil || empty != nil {
		return empty, nil, err
	}
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		out, err := answer(c)
		if err != nil {
			return nil, nil, err
		}
		parts = append(parts, out)
	}
	return textResult(strings.Join(parts, sep)), nil, nil
}

func (s *Server) addSymbolInfo(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "get_symbol_info",
		Description: "A symbol's full typed signature, modifiers, type hierarchy, callers and callees, references and members.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a symbolArgs) (*mcp.CallToolResult, any, error) {
		depth := a.CallDepth
		if depth == 0 {
			depth = s.cfg.CallDepth
		}
		if depth < -1 || depth > 32 {
			return nil, nil, argError("call_depth must be -1 or 1..32")
		}
		return s.eachSymbol(ctx, req, a.Symbol, "\n\n", func(c chunk.Chunk) (string, error) {
			return s.eng.Info(ctx, c, depth)
		})
	})
}

type positionArgs struct {
	Symbol string `json:"symbol,omitempty" jsonschema:"[file >] [Parent >] name"`
	File   string `json:"file,omitempty" jsonschema:"with line and column: a usage to resolve"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty" jsonschema:"1-based"`
}

func (s *Server) addFindDefinition(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "find_definition",
		Description: "Where a symbol is declared: by name, or from a usage at file:line:column (follows imports, re-exports and aliases).",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a positionArgs) (*mcp.CallToolResult, any, error) {
		if a.File != "" {
			if a.Line <= 0 || a.Column <= 0 {
				return nil, nil, argError("file needs line and column (1-based)")
			}
			abs, _, err := s.eng.ResolvePath(a.File)
			if err != nil {
				return nil, nil, err
			}
			if err := s.fresh(ctx, req); err != nil {
				return nil, nil, err
			}
			out, err := s.eng.DefinitionAt(ctx, abs, a.Line, a.Column)
			if err != nil {
				return nil, nil, err
			}
			return textResult(out), nil, nil
		}
		cs, empty, err := s.resolveOne(ctx, req, a.Symbol)
		if err != nil || empty != nil {
			return empty, nil, err
		}
		var b strings.Builder
		for _, c := range cs {
			fmt.Fprintf(&b, "%s %s — %s:%d-%d\n", c.NodeKind, engine.DisplayName(c), c.RelativePath, c.StartLine, c.EndLine)
			if c.Signature != "" {
				fmt.Fprintf(&b, "    %s\n", c.Signature)
			}
		}
		return textResult(b.String()), nil, nil
	})
}

type refsArgs struct {
	Symbol string `json:"symbol" jsonschema:"[file >] [Parent >] name"`
	Limit  int    `json:"limit,omitempty" jsonschema:"default 100"`
}

func (s *Server) addFindReferences(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "find_references",
		Description: "Every use of a symbol, grouped by file, each line tagged call, new, import, type, write or read.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a refsArgs) (*mcp.CallToolResult, any, error) {
		limit, err := limitOf(a.Limit, 100)
		if err != nil {
			return nil, nil, err
		}
		return s.eachSymbol(ctx, req, a.Symbol, "\n", func(c chunk.Chunk) (string, error) {
			return s.eng.ReferencesText(ctx, c, limit)
		})
	})
}

func (s *Server) addFindImplementations(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "find_implementations",
		Description: "Classes and interfaces that extend or implement a class or interface.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a refsArgs) (*mcp.CallToolResult, any, error) {
		return s.eachSymbol(ctx, req, a.Symbol, "\n", func(c chunk.Chunk) (string, error) {
			return s.eng.ImplementationsText(ctx, c)
		})
	})
}

type importersArgs struct {
	Module string `json:"module" jsonschema:"workspace file, package name, or exported symbol name"`
}

func (s *Server) addFindImporters(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "find_importers",
		Description: "Files that import a module (a workspace file or a package) or a named export.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a importersArgs) (*mcp.CallToolResult, any, error) {
		if strings.TrimSpace(a.Module) == "" {
			return nil, nil, argError("module is empty")
		}
		if err := s.fresh(ctx, req); err != nil {
			return nil, nil, err
		}
		imps, err := s.eng.Importers(a.Module)
		if err != nil {
			return nil, nil, err
		}
		if len(imps) == 0 {
			return textResult(fmt.Sprintf("Nothing imports %q.", a.Module)), nil, nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d import(s) of %s:\n", len(imps), a.Module)
		for _, im := range imps {
			fmt.Fprintf(&b, "%s:%d: %s\n", im.File, im.Line, im.Statement)
		}
		return textResult(b.String()), nil, nil
	})
}

type searchFilesArgs struct {
	Pattern       string   `json:"pattern" jsonschema:"text, or RE2 regex with regex=true"`
	Regex         bool     `json:"regex,omitempty"`
	CaseSensitive bool     `json:"case_sensitive,omitempty"`
	Path          []string `json:"path,omitempty" jsonschema:"directories, files or globs"`
	Limit         int      `json:"limit,omitempty" jsonschema:"max matches (default 200)"`
}

func (s *Server) addSearchFiles(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "search_files",
		Description: "Grep the workspace: literal text or RE2 regex, as file:line:text.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a searchFilesArgs) (*mcp.CallToolResult, any, error) {
		limit, err := limitOf(a.Limit, 200)
		if err != nil {
			return nil, nil, err
		}
		if len(a.Path) > maxPathFilter {
			return nil, nil, argError("at most %d path filters", maxPathFilter)
		}
		paths, err := s.confinePaths(a.Path)
		if err != nil {
			return nil, nil, err
		}
		res, err := s.eng.Grep(textsearch.GrepOptions{Pattern: a.Pattern, Regex: a.Regex, CaseSensitive: a.CaseSensitive, Paths: paths, MaxMatches: limit})
		if err != nil {
			return nil, nil, err
		}
		var b strings.Builder
		for _, m := range res.Matches {
			fmt.Fprintf(&b, "%s:%d:%s\n", m.File, m.Line, m.Text)
		}
		fmt.Fprintf(&b, "%d match(es) in %d files searched", len(res.Matches), res.Searched)
		if res.Truncated {
			fmt.Fprintf(&b, " (stopped at %d; narrow the pattern or path)", limit)
		}
		return textResult(b.String()), nil, nil
	})
}

type findFilesArgs struct {
	Pattern string `json:"pattern" jsonschema:"glob, e.g. *Service.ts or src/**/*.test.ts"`
	Path    string `json:"path,omitempty" jsonschema:"directory to search in"`
	Limit   int    `json:"limit,omitempty" jsonschema:"default 200"`
}

func (s *Server) addFindFiles(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "find_files",
		Description: "Find files by glob (ignored and generated directories excluded).",
	}, func(ctx context.Context, req *mcp.CallToolRequest, a findFilesArgs) (*mcp.CallToolResult, any, error) {
		limit, err := limitOf(a.Limit, 200)
		if err != nil {
			return nil, nil, err
		}
		files, more, err := s.eng.FindFiles(a.Pattern, a.Path, limit)
		if err != nil {
			return nil, nil, err
		}
		if len(files) == 0 {
			return textResult(fmt.Sprintf("No file matches %q.", a.Pattern)), nil, nil
		}
		out := strings.Join(files, "\n")
		if more {
			out += fmt.Sprintf("\n(first %d shown)", limit)
		}
		return textResult(out), nil, nil
	})
}
