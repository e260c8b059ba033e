package tsls

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
)

// Typed requests. Paths are absolute file paths; positions are LSP
// positions (0-based line, UTF-16 column) — use Text.PositionOf to convert
// the parser's 1-based line and byte column.

func docParams(path string) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": PathToURI(path)}}
}

func posParams(path string, pos Position) map[string]any {
	return map[string]any{
		"textDocument": map[string]any{"uri": PathToURI(path)},
		"position":     pos,
	}
}

func abs(path string) (string, error) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", path, err)
	}
	return p, nil
}

// DocumentSymbols returns the file's declarations as a tree, in the order
// the server gives them (source order).
func (s *Server) DocumentSymbols(ctx context.Context, path string) ([]DocumentSymbol, error) {
	path, err := abs(path)
	if err != nil {
		return nil, err
	}
	var out []DocumentSymbol
	if err := s.call(ctx, path, "textDocument/documentSymbol", docParams(path), &out); err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Server) locations(ctx context.Context, method, path string, params any) ([]Location, error) {
	var raw json.RawMessage
	if err := s.call(ctx, path, method, params, &raw); err != nil {
		return nil, err
	}
	locs, err := decodeLocations(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: decode: %w", method, err)
	}
	// The workspace program document is the server's, not the user's.
	doc := filepath.Join(s.root, programDocName)
	kept := locs[:0]
	for _, l := range locs {
		if l.Path() != doc {
			kept = append(kept, l)
		}
	}
	return s.confiner().locations(kept), nil
}

// Definition returns where the symbol at pos is declared (through aliases,
// re-exports and imports to the original declaration).
func (s *Server) Definition(ctx context.Context, path string, pos Position) ([]Location, error) {
	path, err := abs(path)
	if err != nil {
		return nil, err
	}
	return s.locations(ctx, "textDocument/definition", path, posParams(path, pos))
}

// References returns every reference to the symbol at pos, sorted by file
// and position. With includeDecl false the server leaves out declarations,
// including the local names bound by plain `import { x }` specifiers (but
// not the original name in `import { x as y }`).
func (s *Server) References(ctx context.Context, path string, pos Position, includeDecl bool) ([]Location, error) {
	path, err := abs(path)
	if err != nil {
		return nil, err
	}
	params := posParams(path, pos)
	params["context"] = map[string]any{"includeDeclaration": includeDecl}
	locs, err := s.locations(ctx, "textDocument/references", path, params)
	if err != nil {
		return nil, err
	}
	sortLocations(locs)
	return locs, nil
}

// Implementation returns implementations of the symbol at pos. For classes
// and interfaces tsgo answers with every class or interface deriving from
// it (transitively), the declaration itself, and import sites of aliases —
// callers filter.
func (s *Server) Implementation(ctx context.Context, path string, pos Position) ([]Location, error) {
	path, err := abs(path)
	if err != nil {
		return nil, err
	}
	locs, err := s.locations(ctx, "textDocument/implementation", path, posParams(path, pos))
	if err != nil {
		return nil, err
	}
	sortLocations(locs)
	return locs, nil
}

// Hover returns the hover at pos (nil when there is none). Its Code() is
// the declaration as the compiler prints it.
func (s *Server) Hover(ctx context.Context, path string, pos Position) (*Hover, error) {
	path, err := abs(path)
	if err != nil {
		return nil, err
	}
	var h *Hover
	if err := s.call(ctx, path, "textDocument/hover", posParams(path, pos), &h); err != nil {
		return nil, err
	}
	return h, nil
}

// PrepareCallHierarchy returns the callable declaration(s) at pos. tsgo
// answers nothing for variables whose initializer is not a function
// (e.g. `const f: T = wrap(...)`).
func (s *Server) PrepareCallHierarchy(ctx context.Context, path string, pos Position) ([]CallHierarchyItem, error) {
	path, err := abs(path)
	if err != nil {
		return nil, err
	}
	var out []CallHierarchyItem
	if err := s.call(ctx, path, "textDocument/prepareCallHierarchy", posParams(path, pos), &out); err != nil {
		return nil, err
	}
	return s.confiner().items(out), nil
}

// IncomingCalls returns the callers of item. `new C()` counts as a call of
// class C; calls through aliases, re-exports and default imports are
// followed.
func (s *Server) IncomingCalls(ctx context.Context, item CallHierarchyItem) ([]IncomingCall, error) {
	var out []IncomingCall
	if err := s.call(ctx, item.Path(), "callHierarchy/incomingCalls", map[string]any{"item": item}, &out); err != nil {
		return nil, err
	}
	return keepAllowed(s.confiner(), out, func(in IncomingCall) string { return in.From.URI }), nil
}

// OutgoingCalls returns what item calls, one entry per callee declaration.
// `new C()` and `super()` appear as calls of the class.
func (s *Server) OutgoingCalls(ctx context.Context, item CallHierarchyItem) ([]OutgoingCall, error) {
	var out []OutgoingCall
	if err := s.call(ctx, item.Path(), "callHierarchy/outgoingCalls", map[string]any{"item": item}, &out); err != nil {
		return nil, err
	}
	return keepAllowed(s.confiner(), out, func(o OutgoingCall) string { return o.To.URI }), nil
}

// WorkspaceSymbol searches declarations by name in the loaded projects.
func (s *Server) WorkspaceSymbol(ctx context.Context, query string) ([]SymbolInformation, error) {
	var out []SymbolInformation
	if err := s.call(ctx, "", "workspace/symbol", map[string]any{"query": query}, &out); err != nil {
		return nil, err
	}
	return keepAllowed(s.confiner(), out, func(si SymbolInformation) string { return si.Location.URI }), nil
}

// sortLocations orders locations by path then position, for stable output.
func sortLocations(locs []Location) {
	sort.SliceStable(locs, func(i, j int) bool {
		if locs[i].URI != locs[j].URI {
			return locs[i].URI < locs[j].URI
		}
		return locs[i].Range.Start.Less(locs[j].Range.Start)
	})
}
