package mcpserver

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/textsearch"
)

// tools is every tool scry offers: its name, its title (what a client shows
// a person), the description an agent reads (paid for on every turn, so
// short), and its handler.
var tools = []tool{
	newTool("codebase_search", "Search the codebase", "Find the code that answers a question: complete symbols with their callers, callees and types, within a token budget. Query in plain words, or `symbol = File > Parent > name` for an exact lookup.", (*Server).codebaseSearch),
	newTool("find_symbol", "Find symbols by name", "Find declarations by name: exact, prefix, fuzzy, or semantic (plain words). Lists kind, location and signature.", (*Server).findSymbol),
	newTool("list_symbols", "Outline files", "Outline a file or directory: its symbols with nesting, kinds and line ranges.", (*Server).listSymbols),
	newTool("get_symbol_info", "Symbol details", "A symbol's full typed signature, modifiers, type hierarchy, callers and callees, references and members.", (*Server).symbolInfo),
	newTool("find_definition", "Go to definition", "Where a symbol is declared: by name, or from a usage at file:line:column (follows imports, re-exports and aliases).", (*Server).findDefinition),
	newTool("find_references", "Find references", "Every use of a symbol, grouped by file, each line tagged call, new, import, type, write or read.", (*Server).findReferences),
	newTool("find_implementations", "Find implementations", "Classes and interfaces that extend or implement a class or interface.", (*Server).findImplementations),
	newTool("find_importers", "Find importers", "Files that import a module (a workspace file or a package) or a named export.", (*Server).findImporters),
	newTool("search_files", "Search file text", "Grep the workspace: literal text or RE2 regex, as file:line:text.", (*Server).searchFiles),
	newTool("find_files", "Find files by glob", "Find files by glob (ignored and generated directories excluded).", (*Server).findFiles),
	newTool("change_impact", "Change impact", "What a git change affects: changed symbols, their callers and references, importers of changed exports, tests reaching them. Default: uncommitted changes against HEAD.", (*Server).changeImpact),
}

// tool is one row of the table: add registers it on a server, bound to s.
type tool struct {
	name, title, description string
	add                      func(srv *mcp.Server, s *Server)
}

// newTool binds a named handler, whose argument type gives the tool its
// input schema, to its name, title and description.
//
// Every tool is annotated read-only, idempotent and closed-world, so that
// clients may run it without asking: a call reads the workspace and answers;
// what it writes is scry's own index in the cache directory, brought up to
// date with the files, never the workspace or anything outside this machine.
// The title is given once, in the annotations, where every client version
// looks for it (the schema is paid for on every turn).
func newTool[A any](name, title, description string, h func(s *Server, ctx context.Context, req *mcp.CallToolRequest, a A) (*mcp.CallToolResult, error)) tool {
	return tool{name: name, title: title, description: description, add: func(srv *mcp.Server, s *Server) {
		closed := false
		annotations := &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: description, Annotations: annotations},
			func(ctx context.Context, req *mcp.CallToolRequest, a A) (*mcp.CallToolResult, any, error) {
				res, err := s.call(ctx, func() (*mcp.CallToolResult, error) { return h(s, ctx, req, a) })
				if empty := s.empty.Load(); empty != nil && err == nil && res != nil {
					res.Content = append(res.Content, text(render.EmptyWorkspace(empty)))
				}
				// An answer given while TypeScript 7 is still loading says
				// so (the call waited for it up to compilerWait first).
				if st := s.eng.CompilerStatus(); structural[name] && st.Phase == engine.CompilerLoading && err == nil && res != nil {
					res.Content = append(res.Content, text(render.CompilerLoading(st)))
				}
				if err != nil {
					// An error may echo a name from an argument or the
					// workspace (an os error wraps the raw path): it must
					// not add lines of its own to the agent's context.
					err = escapedError{err}
				}
				return res, nil, err
			})
	}}
}

// structural are the tools whose answers hold structure from TypeScript 7
// (the others read files and the index only).
var structural = map[string]bool{"codebase_search": true, "get_symbol_info": true, "find_definition": true,
	"find_references": true, "find_implementations": true, "change_impact": true}

// escapedError is an error whose message is printed with textfmt.Line; it
// unwraps to the original, so its kind is still recognised.
type escapedError struct{ err error }

func (e escapedError) Error() string { return textfmt.Line(e.err.Error()) }
func (e escapedError) Unwrap() error { return e.err }

// Limits on what one call may ask for: generous for real use, small enough
// that no argument can make a call take unbounded time or memory.
const (
	maxLimit      = 500
	maxBudget     = 200_000
	maxPathFilter = 64
	maxMatches    = 20 // declarations answered for one ambiguous symbol path
)

// maxRepos bounds the repositories one search fans out to.
const maxRepos = 64

type searchArgs struct {
	Query     string   `json:"query" jsonschema:"plain-words question, or symbol = [file >] [Parent >] name"`
	Path      []string `json:"path,omitempty" jsonschema:"files, directories or globs to search within"`
	Languages []string `json:"languages,omitempty" jsonschema:"typescript, tsx, javascript"`
	Budget    int      `json:"budget,omitempty" jsonschema:"token budget for the answer (default 8000)"`
	Threshold *float64 `json:"threshold,omitempty" jsonschema:"minimum relevance 0..1 (default 0.5)"`
	Repos     []string `json:"repos,omitempty" jsonschema:"repositories to search in a shared index, among the server's --repo list (default: all of it)"`
}

// codebaseSearch answers with the connection graph first (priority 1.0),
// then one snapshot per file in score order.
func (s *Server) codebaseSearch(ctx context.Context, req *mcp.CallToolRequest, a searchArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(a.Query) == "" {
		return nil, argError("query is empty")
	}
	if len(a.Path) > maxPathFilter {
		return nil, argError("at most %d path filters", maxPathFilter)
	}
	paths, err := s.eng.ConfinePaths(a.Path)
	if err != nil {
		return nil, err
	}
	if a.Budget < 0 || a.Budget > maxBudget {
		return nil, argError("budget must be 1..%d", maxBudget)
	}
	if a.Threshold != nil && (*a.Threshold < 0 || *a.Threshold > 1) {
		return nil, argError("threshold must be within 0..1")
	}
	if err := s.fresh(ctx, req); err != nil {
		return nil, err
	}
	if len(a.Repos) > maxRepos {
		return nil, argError("at most %d repos", maxRepos)
	}
	ans, err := s.eng.Search(ctx, engine.Query{Text: a.Query, Paths: paths, Languages: a.Languages, Budget: a.Budget, Threshold: a.Threshold, Repos: a.Repos})
	if errors.Is(err, engine.ErrReposOnLocalIndex) {
		return nil, argError("repos: this server reads one local workspace; repos needs the weaviate backend")
	}
	if err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{}
	g := text(render.Graph(ans))
	g.Annotations.Priority = 1.0
	res.Content = append(res.Content, g)
	for _, snap := range ans.Snapshots {
		c := text(snap.Text)
		c.Annotations.Priority = snap.Priority
		res.Content = append(res.Content, c)
	}
	return res, nil
}

type findSymbolArgs struct {
	Name     string `json:"name" jsonschema:"symbol name (or words, with mode semantic)"`
	Mode     string `json:"mode,omitempty" jsonschema:"exact (default), prefix, fuzzy or semantic"`
	Kind     string `json:"kind,omitempty" jsonschema:"function, class, method, interface, type, enum, const..."`
	Language string `json:"language,omitempty"`
	Path     string `json:"path,omitempty" jsonschema:"file, directory or glob"`
	Limit    int    `json:"limit,omitempty" jsonschema:"default 20"`
}

func (s *Server) findSymbol(ctx context.Context, req *mcp.CallToolRequest, a findSymbolArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(a.Name) == "" {
		return nil, argError("name is empty")
	}
	if len(a.Name) > 1024 {
		return nil, argError("name too long")
	}
	switch a.Mode {
	case "", "exact", "prefix", "fuzzy", "semantic":
	default:
		return nil, argError("mode must be exact, prefix, fuzzy or semantic")
	}
	limit, err := limitOf(a.Limit, 20)
	if err != nil {
		return nil, err
	}
	q := answer.SymbolQuery{Name: a.Name, Mode: a.Mode, Limit: limit}
	if q.Paths, err = s.eng.ConfinePaths([]string{a.Path}); err != nil {
		return nil, err
	}
	if a.Language != "" {
		q.Languages = []string{a.Language}
	}
	if a.Kind != "" {
		q.Kinds = []string{a.Kind}
	}
	return askLocal(ctx, s, req, func(l answer.Local) ([]answer.Declaration, error) { return l.FindSymbols(ctx, q) },
		func(found []answer.Declaration) string { return render.Declarations(a.Name, found) })
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

func (s *Server) listSymbols(ctx context.Context, req *mcp.CallToolRequest, a listSymbolsArgs) (*mcp.CallToolResult, error) {
	if a.Path == "" {
		return nil, argError("path is empty")
	}
	if _, _, err := s.eng.ResolvePath(a.Path); err != nil {
		return nil, err
	}
	return askLocal(ctx, s, req, func(l answer.Local) (answer.Outline, error) { return l.Outline(a.Path, a.Kinds) }, render.Outline)
}

type symbolArgs struct {
	Symbol    string `json:"symbol" jsonschema:"[file >] [Parent >] name"`
	CallDepth int    `json:"call_depth,omitempty" jsonschema:"call-tree depth: 1 (default), N, -1 transitive"`
}

func (s *Server) symbolInfo(ctx context.Context, req *mcp.CallToolRequest, a symbolArgs) (*mcp.CallToolResult, error) {
	depth, err := s.eng.Config().CallDepthFor(a.CallDepth)
	if err != nil {
		return nil, argError("call_depth must be -1 or 1..%d", config.MaxCallDepth)
	}
	return s.eachSymbol(ctx, req, a.Symbol, "\n\n", func(l answer.Local, sym answer.Symbol) (string, error) {
		info, err := l.Info(ctx, sym, depth)
		return render.Info(info), err
	})
}

type positionArgs struct {
	Symbol string `json:"symbol,omitempty" jsonschema:"[file >] [Parent >] name"`
	File   string `json:"file,omitempty" jsonschema:"with line and column: a usage to resolve"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty" jsonschema:"1-based"`
}

func (s *Server) findDefinition(ctx context.Context, req *mcp.CallToolRequest, a positionArgs) (*mcp.CallToolResult, error) {
	if a.File == "" {
		return s.eachSymbol(ctx, req, a.Symbol, "", func(l answer.Local, sym answer.Symbol) (string, error) {
			return render.Declaration(sym.Declaration), nil
		})
	}
	if a.Line <= 0 || a.Column <= 0 {
		return nil, argError("file needs line and column (1-based)")
	}
	if _, _, err := s.eng.ResolvePath(a.File); err != nil {
		return nil, err
	}
	return askLocal(ctx, s, req, func(l answer.Local) (answer.Definitions, error) { return l.Definition(ctx, a.File, a.Line, a.Column) },
		render.Definitions)
}

type refsArgs struct {
	Symbol string `json:"symbol" jsonschema:"[file >] [Parent >] name"`
	Limit  int    `json:"limit,omitempty" jsonschema:"default 100"`
}

func (s *Server) findReferences(ctx context.Context, req *mcp.CallToolRequest, a refsArgs) (*mcp.CallToolResult, error) {
	limit, err := limitOf(a.Limit, 100)
	if err != nil {
		return nil, err
	}
	return s.eachSymbol(ctx, req, a.Symbol, "\n", func(l answer.Local, sym answer.Symbol) (string, error) {
		refs, err := l.References(ctx, sym, limit)
		return render.References(refs), err
	})
}

func (s *Server) findImplementations(ctx context.Context, req *mcp.CallToolRequest, a refsArgs) (*mcp.CallToolResult, error) {
	return s.eachSymbolOf(ctx, req, a.Symbol, "\n", answer.Local.Extensible, func(l answer.Local, sym answer.Symbol) (string, error) {
		impls, err := l.Implementations(ctx, sym)
		return render.Implementations(impls), err
	})
}

type importersArgs struct {
	Module string `json:"module" jsonschema:"workspace file, package name, or exported symbol name"`
}

func (s *Server) findImporters(ctx context.Context, req *mcp.CallToolRequest, a importersArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(a.Module) == "" {
		return nil, argError("module is empty")
	}
	return askLocal(ctx, s, req, func(l answer.Local) ([]answer.Importer, error) { return l.Importers(ctx, a.Module) },
		func(imps []answer.Importer) string { return render.Importers(a.Module, imps) })
}

type searchFilesArgs struct {
	Pattern       string   `json:"pattern" jsonschema:"text, or RE2 regex with regex=true"`
	Regex         bool     `json:"regex,omitempty"`
	CaseSensitive bool     `json:"case_sensitive,omitempty"`
	Path          []string `json:"path,omitempty" jsonschema:"directories, files or globs"`
	Limit         int      `json:"limit,omitempty" jsonschema:"max matches (default 200)"`
}

func (s *Server) searchFiles(ctx context.Context, req *mcp.CallToolRequest, a searchFilesArgs) (*mcp.CallToolResult, error) {
	limit, err := limitOf(a.Limit, 200)
	if err != nil {
		return nil, err
	}
	if len(a.Path) > maxPathFilter {
		return nil, argError("at most %d path filters", maxPathFilter)
	}
	paths, err := s.eng.ConfinePaths(a.Path)
	if err != nil {
		return nil, err
	}
	l, err := s.eng.Local(ctx)
	if err != nil {
		return nil, err
	}
	res, err := l.Grep(textsearch.GrepOptions{Pattern: a.Pattern, Regex: a.Regex, CaseSensitive: a.CaseSensitive, Paths: paths, MaxMatches: limit})
	if err != nil {
		return nil, err
	}
	return textResult(render.Grep(res, limit)), nil
}

type findFilesArgs struct {
	Pattern string `json:"pattern" jsonschema:"glob, e.g. *Service.ts or src/**/*.test.ts"`
	Path    string `json:"path,omitempty" jsonschema:"directory to search in"`
	Limit   int    `json:"limit,omitempty" jsonschema:"default 200"`
}

func (s *Server) findFiles(ctx context.Context, req *mcp.CallToolRequest, a findFilesArgs) (*mcp.CallToolResult, error) {
	limit, err := limitOf(a.Limit, 200)
	if err != nil {
		return nil, err
	}
	l, err := s.eng.Local(ctx)
	if err != nil {
		return nil, err
	}
	files, more, err := l.FindFiles(a.Pattern, a.Path, limit)
	if err != nil {
		return nil, err
	}
	return textResult(render.Files(a.Pattern, files, more, limit)), nil
}

// eachSymbol answers for every declaration a symbol path names (an
// ambiguous name answers for each, up to maxMatches), joining the answers
// with sep.
func (s *Server) eachSymbol(ctx context.Context, req *mcp.CallToolRequest, symbol, sep string, ask func(answer.Local, answer.Symbol) (string, error)) (*mcp.CallToolResult, error) {
	return s.eachSymbolOf(ctx, req, symbol, sep, nil, ask)
}

// eachSymbolOf is eachSymbol over the matches narrow keeps (all when nil).
func (s *Server) eachSymbolOf(ctx context.Context, req *mcp.CallToolRequest, symbol, sep string, narrow func(answer.Local, []answer.Symbol) []answer.Symbol, ask func(answer.Local, answer.Symbol) (string, error)) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(symbol) == "" {
		return nil, argError("symbol is empty")
	}
	l, err := s.freshLocal(ctx, req)
	if err != nil {
		return nil, err
	}
	syms, err := l.Symbols(symbol)
	if err != nil {
		return nil, err
	}
	if len(syms) == 0 {
		near, err := l.Near(symbol)
		if err != nil {
			return nil, err
		}
		return textResult(render.NoSymbol(symbol, near)), nil
	}
	if narrow != nil {
		syms = narrow(l, syms)
	}
	if len(syms) > maxMatches {
		syms = syms[:maxMatches]
	}
	parts := make([]string, 0, len(syms))
	for _, sym := range syms {
		out, err := ask(l, sym)
		if err != nil {
			return nil, err
		}
		parts = append(parts, out)
	}
	return textResult(strings.Join(parts, sep)), nil
}

type impactArgs struct {
	Rev    string `json:"rev,omitempty" jsonschema:"a revision (against the working tree) or a range A..B (default: HEAD)"`
	Depth  int    `json:"depth,omitempty" jsonschema:"how far callers and importers are followed (default 3)"`
	Budget int    `json:"budget,omitempty" jsonschema:"token budget (default 8000)"`
}

// maxImpactDepth bounds how far one impact call follows callers and
// importers.
const maxImpactDepth = 8

func (s *Server) changeImpact(ctx context.Context, req *mcp.CallToolRequest, a impactArgs) (*mcp.CallToolResult, error) {
	if a.Depth < 0 || a.Depth > maxImpactDepth {
		return nil, argError("depth must be 1..%d", maxImpactDepth)
	}
	if a.Budget < 0 || a.Budget > maxBudget {
		return nil, argError("budget must be 1..%d", maxBudget)
	}
	if len(a.Rev) > 256 {
		return nil, argError("rev too long")
	}
	return askLocal(ctx, s, req, func(l answer.Local) (answer.Impact, error) { return l.Impact(ctx, a.Rev, a.Depth) },
		func(imp answer.Impact) string {
			// Read after the refresh, which may have reloaded the configuration.
			budget := a.Budget
			if budget == 0 {
				budget = s.eng.Config().Budget
			}
			return render.Impact(imp, budget)
		})
}

// askLocal brings the index up to date, asks one question of the local
// form of the engine's View and returns what render makes of its answer.
func askLocal[A any](ctx context.Context, s *Server, req *mcp.CallToolRequest, ask func(answer.Local) (A, error), text func(A) string) (*mcp.CallToolResult, error) {
	l, err := s.freshLocal(ctx, req)
	if err != nil {
		return nil, err
	}
	ans, err := ask(l)
	if err != nil {
		return nil, err
	}
	return textResult(text(ans)), nil
}

// freshLocal brings the index up to date (fresh) and hands out the local
// form of the engine's View, which the structure questions read.
func (s *Server) freshLocal(ctx context.Context, req *mcp.CallToolRequest) (answer.Local, error) {
	if err := s.fresh(ctx, req); err != nil {
		return answer.Local{}, err
	}
	return s.eng.Local(ctx)
}
