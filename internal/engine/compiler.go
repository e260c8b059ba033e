package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/tsls"
)

// Compiler answers structure with the TypeScript 7 language server.
type Compiler struct {
	srv  *tsls.Server
	res  *structure.Compiler
	root string
}

// attachCompiler finds TypeScript 7 and starts it for the workspace, so
// structure comes from the compiler; when it cannot be found or started,
// warn hears why (wrapped around ErrApproximate) and answers come from the
// index, marked approximate. With wait false the server starts in the
// background and answers switch to it once its project is loaded. Close
// shuts it down.
func (e *Engine) attachCompiler(ctx context.Context, flag, cacheDir string, wait bool, warn func(error)) {
	if warn == nil {
		warn = func(error) {}
	}
	// The workspace's own node_modules TypeScript runs only when the user
	// trusts the workspace (config.CheckTrust).
	path, _, err := tsls.Find(tsls.FindOptions{Flag: flag, Root: e.root.Dir(), CacheDir: cacheDir,
		TrustWorkspace: e.conf().Origin.Trust.Trusted,
		PassedOver: func(nm string) {
			warn(fmt.Errorf("not running the TypeScript in %s: the workspace is not trusted (`scry trust`)", nm))
		}})
	if err != nil {
		warn(fmt.Errorf("%w: %w", ErrApproximate, err))
		return
	}
	// The server outlives the call that opened the engine: Close stops it.
	sctx := context.WithoutCancel(ctx)
	files := 0
	if fs, err := e.sourceFiles(); err == nil {
		files = len(fs)
	}
	e.compiler.warm.begin(files)
	start := func() *Compiler {
		comp, err := e.startCompiler(sctx, path)
		if err != nil {
			// The error's own prefixes say what the reason already does.
			why := err.Error()
			for _, p := range []string{"start TypeScript 7: ", "tsls: ", "not started: "} {
				why = strings.TrimPrefix(why, p)
			}
			e.setWhy(reasonNotStarted + ": " + why)
			e.compiler.warm.finish(err) // after the reason, which the questions it releases read
			warn(fmt.Errorf("%w: %w", ErrApproximate, err))
			return nil
		}
		e.setCompiler(comp)
		e.compiler.warm.finish(nil)
		return comp
	}
	stop := func(comp *Compiler) {
		if comp != nil {
			e.setCompiler(nil)
			comp.Close()
		}
	}
	if wait {
		comp := start()
		e.stopCompiler = func() { stop(comp) }
		return
	}
	// Until it is loaded, answers from the index say so: they may differ
	// from the compiler's.
	e.setWhy(reasonLoading)
	done := make(chan *Compiler, 1)
	go func() { done <- start() }()
	e.stopCompiler = func() {
		select {
		case comp := <-done:
			stop(comp)
		default:
			// Still starting: the process ends with scry.
		}
	}
}

// startCompiler starts tsgo for the workspace and waits until its project
// is loaded: the configured projects, and one program of the indexed files
// no tsconfig.json governs.
func (e *Engine) startCompiler(ctx context.Context, tsgoPath string) (*Compiler, error) {
	files, err := e.sourceFiles()
	if err != nil {
		return nil, fmt.Errorf("start TypeScript 7: %w", err)
	}
	root := e.root.Dir()
	srv, err := tsls.StartWithOptions(ctx, tsls.Options{Root: root, TsgoPath: tsgoPath, ProgramFiles: files})
	if err != nil {
		return nil, fmt.Errorf("start TypeScript 7: %w", err)
	}
	return &Compiler{srv: srv, res: structure.NewCompiler(srv), root: root}, nil
}

// sourceFiles lists the indexed files as absolute paths.
func (e *Engine) sourceFiles() ([]string, error) {
	recs, err := e.store.AllFiles()
	if err != nil {
		return nil, err
	}
	files := make([]string, len(recs))
	for i, r := range recs {
		files[i] = filepath.Join(e.root.Dir(), filepath.FromSlash(r.Path))
	}
	return files, nil
}

// Close shuts the language server down.
func (c *Compiler) Close() error { return c.srv.Close() }

// Server is the underlying language server.
func (c *Compiler) Server() *tsls.Server { return c.srv }

// compilerBox holds the compiler once it is ready; until then (and if it
// never starts) answers come from the index, saying why (why).
type compilerBox struct {
	p    atomic.Pointer[Compiler]
	why  atomic.Pointer[string]
	warm warmup
}

// setWhy records why answers come from the index while no compiler is
// attached.
func (e *Engine) setWhy(why string) { e.compiler.why.Store(&why) }

// noCompiler is why answers come from the index while no compiler is
// attached: still loading, failed to start, or not found.
func (e *Engine) noCompiler() string {
	if w := e.compiler.why.Load(); w != nil {
		return *w
	}
	return reasonNoServer
}

// setCompiler makes structure answers come from the compiler (nil: from the
// index again).
func (e *Engine) setCompiler(c *Compiler) {
	if c != nil {
		// A sync may have added or removed files since c started: c
		// learns of them before any question reaches it, so no answer
		// comes from a program missing files the index has.
		e.updateProgram(context.Background(), c)
	}
	e.compiler.p.Store(c)
	e.described.clear()
}

// updateProgram gives the compiler the index's current file list.
func (e *Engine) updateProgram(ctx context.Context, c *Compiler) {
	if files, err := e.sourceFiles(); err == nil {
		_ = c.srv.SetProgramFiles(ctx, files) // on failure the list is kept: a restarted server opens it
	}
}

// Compiler returns the attached compiler, or nil.
func (e *Engine) Compiler() *Compiler { return e.compiler.p.Load() }

func (e *Engine) target(c chunk.Chunk) structure.Target {
	line := nameLine(c)
	col := 0
	rows := lines.Split(c.FullSource)
	if i := line - c.StartLine; i >= 0 && i < len(rows) {
		if k := wordIndex(rows[i], c.Name); k >= 0 {
			col = k
		}
	}
	return structure.Target{Position: structure.Position{File: filepath.Join(e.root.Dir(), filepath.FromSlash(c.RelativePath)), Line: line, Column: col}, Name: c.Name, Kind: c.NodeKind}
}

// compilerSource answers structure with the TypeScript 7 compiler.
type compilerSource struct {
	e    *Engine
	comp *Compiler
}

func (s compilerSource) metadata(ctx context.Context, c chunk.Chunk, opts structure.Options) (*structure.SymbolMetadata, error) {
	return s.comp.res.Metadata(ctx, s.e.target(c), opts)
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
		switch m.Kind {
		case "method", "function", "constructor", "getter", "setter":
			r.Members = append(r.Members, m.Name+"()")
		default:
			r.Members = append(r.Members, m.Name)
		}
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

func outgoing(calls []structure.OutgoingCall) []graph.Call {
	var out []graph.Call
	for _, c := range calls {
		out = append(out, graph.Call{Name: c.QualifiedName(), File: c.Where(), Line: c.Line,
			Cycle: c.Cyclic, DepthLimit: c.DepthLimited, Children: outgoing(c.OutgoingCalls)})
	}
	return out
}

func incoming(calls []structure.IncomingCaller) []graph.Call {
	var out []graph.Call
	for _, c := range calls {
		out = append(out, graph.Call{Name: c.QualifiedName(), File: c.Where(), Line: c.Line,
			Cycle: c.Cyclic, DepthLimit: c.DepthLimited, Children: incoming(c.IncomingCallers)})
	}
	return out
}

func (n compilerSource) references(ctx context.Context, c chunk.Chunk, limit int) ([]Site, error) {
	md, err := n.comp.res.Metadata(ctx, n.e.target(c), structure.Options{Sections: structure.SecReferences})
	if err != nil {
		return nil, err
	}
	var out []Site
	if md.References == nil {
		return nil, nil
	}
	for _, s := range md.References.Sites {
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
	refs, err := n.comp.res.Implementations(ctx, n.e.target(c))
	if err != nil {
		return nil, err
	}
	return declarations(refs), nil
}

func (n compilerSource) definitionAt(ctx context.Context, absFile string, line, column int) ([]Declaration, error) {
	refs, err := n.comp.res.Definition(ctx, structure.Position{File: absFile, Line: line, Column: column - 1})
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
