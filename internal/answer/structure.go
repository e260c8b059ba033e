package answer

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/textfmt"
)

// The questions answer with values; internal/render turns them into the text
// the CLI prints and MCP tools return.

// Declaration is a declared symbol as answers list it.
type Declaration struct {
	Name string `json:"name"` // display name: Parent.name for members
	Kind string `json:"kind"`
	// File is relative to the root, or a package outside it (External).
	File string `json:"file"`
	// Line is the line of the name; StartLine and EndLine bound the whole
	// declaration when known (0 otherwise).
	Line      int    `json:"line"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Signature string `json:"signature,omitempty"`
	External  bool   `json:"external,omitempty"` // in node_modules or a .d.ts outside the workspace
}

func declarationOf(c chunk.Chunk) Declaration {
	return Declaration{Name: c.DisplayName(), Kind: c.NodeKind, File: c.RelativePath, Line: nameLine(c),
		StartLine: c.StartLine, EndLine: c.EndLine, Signature: c.Signature}
}

// Symbol is a declaration a symbol path resolved to: what the structural
// questions are asked about.
type Symbol struct {
	Declaration
	c chunk.Chunk
}

// Symbols resolves a symbol path (`[file >] [Parent >] name`, or
// Parent.name) to its declarations: all of them when the name is
// ambiguous, none (not an error) when nothing matches.
func (x Local) Symbols(path string) ([]Symbol, error) {
	cs, err := x.resolve(path)
	if err != nil {
		return nil, err
	}
	out := make([]Symbol, len(cs))
	for i, c := range cs {
		out[i] = Symbol{Declaration: declarationOf(c), c: c}
	}
	return out, nil
}

// Near names the declarations a symbol path that resolved to nothing most
// likely meant (search.NearSymbols: the name under another parent or file,
// or the parent's members of the closest names), so that a guess or a typo
// is answered with where to look.
func (x Local) Near(symbol string) ([]Declaration, error) {
	sp, _, err := search.ParseSymbolPath(symbol)
	if err != nil {
		return nil, err
	}
	cs, err := search.NearSymbols(x.Store, sp, nil, nil)
	if err != nil {
		return nil, err
	}
	out := make([]Declaration, 0, len(cs))
	for _, c := range cs {
		if !statementKind(c.NodeKind) {
			out = append(out, declarationOf(c))
		}
	}
	return out, nil
}

// SymbolInfo is everything known about one symbol, as the connection
// graph describes a result.
type SymbolInfo struct {
	Symbol    Declaration  `json:"symbol"`
	Structure graph.Result `json:"structure"`
}

// Info describes a symbol: signature, modifiers, hierarchy, calls and
// callers to callDepth, references, type flows, members.
func (x Local) Info(ctx context.Context, s Symbol, callDepth int) (SymbolInfo, error) {
	d, err := x.describe(ctx, s.c, callDepth)
	if err != nil {
		return SymbolInfo{}, err
	}
	return SymbolInfo{Symbol: s.Declaration, Structure: d}, nil
}

// Metadata is SymbolMetadata for a symbol with every section: from the
// compiler when attached, else from the index (marked approximate, with
// the reason).
func (x Local) Metadata(ctx context.Context, s Symbol, callDepth int) (*structure.SymbolMetadata, error) {
	return x.metadataOf(ctx, s.c, structure.Options{CallDepth: callDepth})
}

// References is every use of a symbol.
type References struct {
	Symbol Declaration `json:"symbol"`
	Sites  []Site      `json:"sites"`
	// Limit is the most sites asked for (0: all); Sites holds that many
	// when there may be more.
	Limit       int  `json:"limit,omitempty"`
	Approximate bool `json:"approximate,omitempty"` // text matches, not the compiler
	// Reason says why an approximate answer did not come from the
	// compiler, when that is not simply its absence (it is still loading,
	// it failed to start, it did not resolve the name).
	Reason string `json:"approximate_reason,omitempty"`
}

// References lists a symbol's uses (at most limit; 0 for all), from the
// compiler when attached, else whole-word matches in the indexed files.
func (x Local) References(ctx context.Context, s Symbol, limit int) (References, error) {
	sites, reason, err := ask(ctx, x, named(s.c), func(src source) ([]Site, error) { return src.references(ctx, s.c, limit) })
	return References{Symbol: s.Declaration, Limit: limit, Sites: sites, Approximate: reason != "", Reason: why(reason)}, err
}

// why is the reason an answer carries: none when the compiler answered or
// is simply absent (the answer's approximate mark says that).
func why(reason string) string {
	if reason == ReasonNoServer {
		return ""
	}
	return reason
}

// Implementations are the subtypes of a class or interface.
type Implementations struct {
	Symbol      Declaration   `json:"symbol"`
	Found       []Declaration `json:"found"`
	Approximate bool          `json:"approximate,omitempty"` // heritage clauses read from the index
	Reason      string        `json:"approximate_reason,omitempty"`
}

// Implementations lists the classes and interfaces that extend or
// implement a symbol.
// Extensible keeps the classes and interfaces among an ambiguous name's
// matches, the declarations that can have implementations; all of them
// when there is none. mocha's `Runnable` matched the class and seven
// variables holding it (`var Runnable = require('./runnable')`), each
// answered "0 implementation(s)".
func (Local) Extensible(syms []Symbol) []Symbol {
	var out []Symbol
	for _, s := range syms {
		if s.Kind == "class" || s.Kind == "interface" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return syms
	}
	return out
}

func (x Local) Implementations(ctx context.Context, s Symbol) (Implementations, error) {
	found, reason, err := ask(ctx, x, named(s.c), func(src source) ([]Declaration, error) { return src.implementations(ctx, s.c) })
	return Implementations{Symbol: s.Declaration, Found: found, Approximate: reason != "", Reason: why(reason)}, err
}

// Definitions are the declarations a usage resolves to.
type Definitions struct {
	// Name is the identifier looked up by name when the compiler could
	// not answer ("" when it did).
	Name        string        `json:"name,omitempty"`
	Found       []Declaration `json:"found"`
	Approximate bool          `json:"approximate,omitempty"`
	Reason      string        `json:"approximate_reason,omitempty"`
}

// Definition resolves the symbol used at a 1-based line and column of a
// workspace file to its declarations: through imports, re-exports and
// aliases with the compiler, else by looking the identifier up by name.
func (x Local) Definition(ctx context.Context, file string, line, column int) (Definitions, error) {
	abs, _, err := x.Root.Resolve(file)
	if err != nil {
		return Definitions{}, err
	}
	// Read first, so that a FIFO, a device or a huge file is refused here
	// rather than handed to the compiler.
	src, err := x.readFile(abs)
	if err != nil {
		return Definitions{}, fmt.Errorf("definition: %w", err)
	}
	found, reason, err := ask(ctx, x, true, func(s source) ([]Declaration, error) { return s.definitionAt(ctx, abs, line, column) })
	if err != nil {
		return Definitions{}, err
	}
	d := Definitions{Found: found, Approximate: reason != "", Reason: why(reason)}
	if d.Approximate {
		d.Name, _ = identifierAt(src, line, column)
	}
	return d, nil
}

// CallTree is a symbol's outgoing calls or incoming callers, as a tree.
type CallTree struct {
	Symbol   Declaration                `json:"symbol"`
	Incoming bool                       `json:"incoming,omitempty"`
	Outgoing []structure.OutgoingCall   `json:"outgoing,omitempty"`
	Callers  []structure.IncomingCaller `json:"callers,omitempty"`
	// Approximate: from the index, which sees calls by name only.
	Approximate bool   `json:"approximate,omitempty"`
	Reason      string `json:"approximate_reason,omitempty"`
	// Notes say what the tree leaves out (a tree cut at its node budget)
	// and what the compiler could not answer.
	Notes []string `json:"notes,omitempty"`
}

// callTree asks for a symbol's call trees, with why they came from the
// index when they did.
func (x Local) callTree(ctx context.Context, s Symbol, opts structure.Options) (*structure.SymbolMetadata, string, error) {
	md, reason, err := ask(ctx, x, named(s.c), func(src source) (*structure.SymbolMetadata, error) { return src.metadata(ctx, s.c, opts) })
	return md, why(reason), err
}

// Callees is the tree of calls a symbol makes, depth levels deep (-1: all).
func (x Local) Callees(ctx context.Context, s Symbol, depth int) (CallTree, error) {
	md, reason, err := x.callTree(ctx, s, structure.Options{CallDepth: depth, Sections: structure.SecOutgoing})
	if err != nil {
		return CallTree{}, err
	}
	t := CallTree{Symbol: s.Declaration, Outgoing: md.OutgoingCalls, Approximate: md.Approximate, Reason: reason, Notes: treeNotes(md)}
	t.Symbol.Line = md.Line
	return t, nil
}

// Callers is the tree of what calls a symbol, depth levels deep (-1: all).
func (x Local) Callers(ctx context.Context, s Symbol, depth int) (CallTree, error) {
	md, reason, err := x.callTree(ctx, s, structure.Options{CallDepth: depth, Sections: structure.SecIncoming})
	if err != nil {
		return CallTree{}, err
	}
	t := CallTree{Symbol: s.Declaration, Incoming: true, Callers: md.IncomingCallers, Approximate: md.Approximate, Reason: reason, Notes: treeNotes(md)}
	t.Symbol.Line = md.Line
	return t, nil
}

// treeNotes are a call tree's notes, less the index's reason for answering
// (CallTree.Reason says it once).
func treeNotes(md *structure.SymbolMetadata) []string {
	var out []string
	for _, n := range md.Notes {
		if !strings.HasPrefix(n, indexNotePrefix) {
			out = append(out, n)
		}
	}
	return out
}

// Outline is the symbols of a file or of every file under a directory.
type Outline struct {
	Files []OutlineFile `json:"files"`
	// Truncated: the outline stopped at MaxOutline symbols.
	Truncated bool `json:"truncated,omitempty"`
}

// OutlineFile is one file's symbols in source order, nested by Depth.
type OutlineFile struct {
	Path    string          `json:"path"`
	Symbols []OutlineSymbol `json:"symbols"`
}

// OutlineSymbol is one line of an outline.
type OutlineSymbol struct {
	Depth     int      `json:"depth"` // 0 for top-level declarations
	Kind      string   `json:"kind"`
	Name      string   `json:"name"`
	Modifiers []string `json:"modifiers,omitempty"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
}

// MaxOutline bounds an outline: a directory of thousands of files would
// otherwise fill an agent's context.
const MaxOutline = 2000

// Outline lists the symbols of a file, or of every file under a directory
// (a path relative to the root, or absolute inside it), with nesting,
// kinds and line ranges; kinds, when given, keeps only those kinds.
func (x Local) Outline(path string, kinds []string) (Outline, error) {
	// Canonical: the index knows a file by its real path only.
	_, rel, err := x.Root.Canonical(path)
	if err != nil {
		return Outline{}, err
	}
	files, err := x.Store.Files()
	if err != nil {
		return Outline{}, err
	}
	var paths []string
	if _, ok := files[rel]; ok {
		paths = []string{rel}
	} else {
		prefix := strings.TrimSuffix(rel, "/") + "/"
		if rel == "" || rel == "." {
			prefix = ""
		}
		for p := range files {
			if strings.HasPrefix(p, prefix) {
				paths = append(paths, p)
			}
		}
		sort.Strings(paths)
	}
	if len(paths) == 0 {
		return Outline{}, fmt.Errorf("outline: %s is not an indexed file or a directory holding one", textfmt.Name(rel))
	}
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	var out Outline
	n := 0
	for _, p := range paths {
		cs, err := x.Store.ChunksByFile(p)
		if err != nil {
			return Outline{}, err
		}
		byParent := map[string][]chunk.Chunk{}
		for _, c := range cs {
			byParent[c.ParentChunkID] = append(byParent[c.ParentChunkID], c)
		}
		f := OutlineFile{Path: p}
		var walk func(parent string, depth int)
		walk = func(parent string, depth int) {
			kids := byParent[parent]
			sort.SliceStable(kids, func(i, j int) bool { return kids[i].StartLine < kids[j].StartLine })
			for _, c := range kids {
				if n >= MaxOutline {
					return
				}
				if !statementKind(c.NodeKind) && (len(want) == 0 || want[c.NodeKind]) {
					f.Symbols = append(f.Symbols, OutlineSymbol{Depth: depth, Kind: c.NodeKind, Name: c.Name, Modifiers: c.Modifiers, StartLine: c.StartLine, EndLine: c.EndLine})
					n++
				}
				walk(c.ID, depth+1)
			}
		}
		walk("", 0)
		out.Files = append(out.Files, f)
		if n >= MaxOutline {
			out.Truncated = true
			break
		}
	}
	return out, nil
}
