package answer

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/structure"
)

// target is where the compiler is asked about a declaration: its name on
// its line.
func (s compilerSource) target(c chunk.Chunk) structure.Target {
	line := nameLine(c)
	col := 0
	rows := lines.Split(c.FullSource)
	if i := line - c.StartLine; i >= 0 && i < len(rows) {
		if k := wordIndex(rows[i], c.Name); k >= 0 {
			col = k
		}
	}
	return structure.Target{Position: structure.Position{File: filepath.Join(s.root, filepath.FromSlash(c.RelativePath)), Line: line, Column: col}, Name: c.Name, Kind: c.NodeKind}
}

// compilerSource answers structure with the TypeScript 7 compiler.
type compilerSource struct {
	comp *structure.Compiler
	root string // the workspace root's real path
}

func (s compilerSource) metadata(ctx context.Context, c chunk.Chunk, opts structure.Options) (*structure.SymbolMetadata, error) {
	return s.comp.Metadata(ctx, s.target(c), opts)
}

func (s compilerSource) describe(ctx context.Context, c chunk.Chunk, callDepth int) (graph.Result, error) {
	// The graph shows [depth limit] only in multi-hop trees.
	md, err := s.metadata(ctx, c, structure.Options{CallDepth: callDepth, SkipDepthLimit: callDepth == 1})
	if err != nil {
		return graph.Result{}, err
	}
	return toGraph(c, md), nil
}

// toGraph converts SymbolMetadata to the connection graph's input.
func toGraph(c chunk.Chunk, md *structure.SymbolMetadata) graph.Result {
	r := graph.Result{
		Name:        c.DisplayName(),
		File:        c.RelativePath,
		Line:        md.Line,
		StartLine:   c.StartLine,
		EndLine:     c.EndLine,
		Kind:        c.NodeKind,
		Modifiers:   md.Modifiers,
		Signature:   md.Signature,
		RefFiles:    -1,
		Approximate: md.Approximate,
	}
	if md.Approximate {
		r.ApproximateReason = strings.Join(md.Notes, "; ")
	}
	if r.Signature == "" {
		r.Signature = c.Signature
	}
	if md.References != nil {
		r.RefFiles = len(md.References.Files)
	}
	if th := md.TypeHierarchy; th != nil {
		if th.Extends != nil {
			ref := toRef(*th.Extends)
			r.Extends = &ref
		}
		for _, s := range th.Implements {
			r.Implements = append(r.Implements, toRef(s))
		}
		for _, s := range th.Subtypes {
			r.Subtypes = append(r.Subtypes, toRef(s))
		}
	}
	if tf := md.TypeFlows; tf != nil {
		for _, p := range tf.Parameters {
			r.TypesIn = append(r.TypesIn, toTypeRef(p.Name, p.Type, p.Types))
		}
		if tf.Returns != nil {
			r.TypesOut = append(r.TypesOut, toTypeRef("", tf.Returns.Type, tf.Returns.Types))
		}
		if tf.Type != nil && r.Type == "" {
			r.Type = tf.Type.Type
		}
	}
	for _, m := range md.Members {
		r.Members = append(r.Members, memberName(m.Name, m.Kind))
	}
	r.Calls = outgoing(md.OutgoingCalls)
	r.CalledBy = incoming(md.IncomingCallers)
	return r
}

func toRef(s structure.SymbolRef) graph.Ref {
	return graph.Ref{Name: s.QualifiedName(), File: s.Where(), Abstract: s.IsAbstract, External: s.External}
}

func toTypeRef(param, typ string, refs []structure.TypeRef) graph.TypeRef {
	t := graph.TypeRef{Param: param, Type: typ}
	for _, tr := range refs {
		if tr.Unresolved {
			continue
		}
		if tr.External {
			t.File, t.External = tr.Package, true
		} else {
			t.File = tr.File
		}
		break
	}
	return t
}

// outgoing is a tree of calls as the graph draws it.
func outgoing(calls []structure.OutgoingCall) []graph.Call {
	return graphCalls(calls, func(c structure.OutgoingCall) (structure.CallInfo, []structure.OutgoingCall) {
		return c.CallInfo, c.OutgoingCalls
	})
}

// incoming is a tree of callers as the graph draws it, the callers in
// tests and test support after the others: the list is capped when shown, and the code
// that depends on a symbol matters more to an edit than its tests.
func incoming(calls []structure.IncomingCaller) []graph.Call {
	out := graphCalls(calls, func(c structure.IncomingCaller) (structure.CallInfo, []structure.IncomingCaller) {
		return c.CallInfo, c.IncomingCallers
	})
	slices.SortStableFunc(out, func(a, b graph.Call) int {
		return cmp.Compare(b2i(pathclass.TestCode(a.File)), b2i(pathclass.TestCode(b.File)))
	})
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// graphCalls converts a call tree of either direction; node gives a
// node's facts and its children.
func graphCalls[T any](calls []T, node func(T) (structure.CallInfo, []T)) []graph.Call {
	var out []graph.Call
	for _, c := range calls {
		info, kids := node(c)
		out = append(out, graph.Call{Name: info.QualifiedName(), File: info.Where(), Line: info.Line,
			Cycle: info.Cyclic, DepthLimit: info.DepthLimited, Children: graphCalls(kids, node)})
	}
	return out
}

func (n compilerSource) references(ctx context.Context, c chunk.Chunk, limit int) ([]Site, error) {
	md, err := n.comp.Metadata(ctx, n.target(c), structure.Options{Sections: structure.SecReferences})
	if err != nil {
		return nil, err
	}
	var out []Site
	if md.References == nil {
		return nil, nil
	}
	// The code's uses before its tests' and auxiliary code's, so that a
	// limited list keeps the ones an edit must follow.
	sites := slices.Clone(md.References.Sites)
	slices.SortStableFunc(sites, func(a, b structure.Site) int {
		return pathclass.Compare(a.File, b.File)
	})
	for _, s := range sites {
		// Sites carry the trimmed line: find the name in it again.
		col := strings.Index(s.Text, c.Name)
		if col < 0 {
			col = 0
		}
		ctxKind := usage(s.Text, col, c.Name)
		out = append(out, Site{File: s.File, Line: s.Line, Column: s.Column, Text: clip(strings.TrimSpace(s.Text)), Context: ctxKind})
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	return out, nil
}

func (n compilerSource) implementations(ctx context.Context, c chunk.Chunk) ([]Declaration, error) {
	refs, err := n.comp.Implementations(ctx, n.target(c))
	if err != nil {
		return nil, err
	}
	return declarations(refs), nil
}

func (n compilerSource) definitionAt(ctx context.Context, absFile string, line, column int) ([]Declaration, error) {
	refs, err := n.comp.Definition(ctx, structure.Position{File: absFile, Line: line, Column: column - 1})
	if err != nil {
		return nil, err
	}
	return declarations(refs), nil
}

// declarations lists the compiler's symbols as declarations.
func declarations(refs []structure.SymbolRef) []Declaration {
	var out []Declaration
	for _, r := range refs {
		out = append(out, Declaration{File: r.Where(), Line: r.Line, Name: r.QualifiedName(), Kind: r.Kind, External: r.External})
	}
	return out
}
