package structure

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/scry-dev/scry/internal/tsls"
)

// Compiler resolves symbols with TypeScript 7's language server. Its
// answers are the compiler's (approximate: false). Safe for concurrent use.
type Compiler struct {
	srv   *tsls.Server
	root  string
	files fileCache
	// outlines caches documentSymbol answers across requests: they depend
	// only on the file's own text, big files answer with thousands of
	// symbols, and every Metadata call on a symbol asks for its file's.
	outlines outlineCache
	// names caches workspace symbol searches until the server's files
	// change: the same type names (Observable, Effect, Option…) come back
	// in the signatures of result after result.
	names namesCache
}

// NewCompiler wraps a running server.
func NewCompiler(srv *tsls.Server) *Compiler {
	return &Compiler{srv: srv, root: srv.Root()}
}

// req is the state of one question: per-call caches so a tree that meets
// the same function twice asks the server once.
type req struct {
	c    *Compiler
	ctx  context.Context
	opts Options

	syms  memo[[]tsls.DocumentSymbol]
	defs  memo[[]tsls.Location]
	out   memo[[]*callNode]
	in    memo[[]*callNode]
	hover memo[string]
	items memo[[]tsls.CallHierarchyItem]
	refs  memo[[]tsls.Location]
	names memo[[]tsls.SymbolInformation]

	mu    sync.Mutex
	notes []string
}

func (c *Compiler) newReq(ctx context.Context, opts Options) *req {
	return &req{c: c, ctx: ctx, opts: opts}
}

func (r *req) note(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	msg := fmt.Sprintf(format, args...)
	for _, n := range r.notes {
		if n == msg {
			return
		}
	}
	r.notes = append(r.notes, msg)
}

func (r *req) text(path string) (*tsls.Text, error) { return r.c.files.get(path) }

func (r *req) rel(path string) string { return relPath(r.c.root, path) }

func (r *req) symbols(path string) ([]tsls.DocumentSymbol, error) {
	return r.syms.get(path, func() ([]tsls.DocumentSymbol, error) {
		return r.c.outlines.get(path, func() ([]tsls.DocumentSymbol, error) {
			return r.c.srv.DocumentSymbols(r.ctx, path)
		})
	})
}

func posKey(path string, p tsls.Position) string {
	return fmt.Sprintf("%s:%d:%d", path, p.Line, p.Character)
}

func (r *req) definition(path string, p tsls.Position) ([]tsls.Location, error) {
	return r.defs.get(posKey(path, p), func() ([]tsls.Location, error) {
		return r.c.srv.Definition(r.ctx, path, p)
	})
}

// referencesAt is shared by the references section and the callers found
// by references: without a call hierarchy both ask about the same name.
func (r *req) referencesAt(path string, p tsls.Position) ([]tsls.Location, error) {
	return r.refs.get(posKey(path, p), func() ([]tsls.Location, error) {
		return r.c.srv.References(r.ctx, path, p, false)
	})
}

// symbolsNamed searches declarations by name, once per question and
// file generation.
func (r *req) symbolsNamed(name string) ([]tsls.SymbolInformation, error) {
	return r.names.get(name, func() ([]tsls.SymbolInformation, error) {
		return r.c.names.get(r.c.srv.Generation(), name, func() ([]tsls.SymbolInformation, error) {
			return r.c.srv.WorkspaceSymbol(r.ctx, name)
		})
	})
}

// hoverCode is the declaration at p as the compiler prints it, with the
// literal types its own file does not hold widened (withholdLiterals).
func (r *req) hoverCode(path string, p tsls.Position) (string, error) {
	return r.hover.get(posKey(path, p), func() (string, error) {
		h, err := r.c.srv.Hover(r.ctx, path, p)
		if err != nil {
			return "", err
		}
		txt, err := r.text(path)
		if err != nil {
			return "", err
		}
		return withholdLiterals(h.Code(), txt.Bytes()), nil
	})
}

// nonCallable kinds have no call trees.
var nonCallable = map[string]bool{
	"interface": true, "type": true, "enum": true, "enum-member": true, "namespace": true, "module": true,
}

// Metadata implements Resolver.
func (c *Compiler) Metadata(ctx context.Context, t Target, opts Options) (*SymbolMetadata, error) {
	if opts.CallDepth == 0 {
		opts.CallDepth = 1
	}
	if opts.Sections == 0 {
		opts.Sections = SecAll
	}
	if opts.MaxCallNodes <= 0 {
		opts.MaxCallNodes = DefaultMaxCallNodes
	}
	r := c.newReq(ctx, opts)
	tg, err := r.locate(t)
	if err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}

	var hoverErr, symErr error
	var sig string
	parallel(
		func() { sig, hoverErr = r.hoverCode(tg.path, tg.pos) },
		func() {
			var syms []tsls.DocumentSymbol
			syms, symErr = r.symbols(tg.path)
			if symErr == nil {
				tg.decl, tg.parent = findDecl(syms, tg.pos)
			}
		},
	)
	if err := firstErr(ctx, hoverErr, symErr); err != nil {
		return nil, fmt.Errorf("structure: %s:%d %s: %w", r.rel(tg.path), t.Line, tg.name, err)
	}
	src := tg.txt.Bytes()
	tg.keyword = declKeyword(src, tg.nameOff)
	var lspKind tsls.SymbolKind
	if tg.decl != nil {
		lspKind = tg.decl.Kind
	}
	tg.kind = t.Kind
	if tg.kind == "" {
		tg.kind = kindFor(tg.keyword, lspKind)
	}
	tg.modifiers = r.modifiers(tg)

	md := &SymbolMetadata{
		Name:      tg.name,
		Kind:      tg.kind,
		File:      r.rel(tg.path),
		Line:      tg.txt.Line(tg.pos),
		Signature: cleanSignature(sig, tg.name),
		Modifiers: tg.modifiers,
		CallDepth: opts.CallDepth,
	}
	if opts.Sections&SecSignature == 0 {
		md.Signature, md.Modifiers = "", nil
	}

	isType := tg.keyword == "class" || tg.keyword == "interface" || lspKind == tsls.KindClass || lspKind == tsls.KindInterface
	var errs [5]error
	parallel(
		func() {
			if opts.Sections&SecHierarchy != 0 && isType {
				md.TypeHierarchy, errs[0] = r.typeHierarchy(tg)
			}
		},
		func() {
			if opts.Sections&(SecOutgoing|SecIncoming) != 0 && !nonCallable[tg.kind] && tg.keyword != "interface" {
				md.OutgoingCalls, md.IncomingCallers, errs[1] = r.callTrees(tg)
			}
		},
		func() {
			if opts.Sections&SecReferences != 0 {
				md.References, errs[2] = r.references(tg)
			}
		},
		func() {
			if opts.Sections&SecTypeFlows != 0 {
				md.TypeFlows, errs[3] = r.typeFlows(tg, sig)
			}
		},
		func() {
			if opts.Sections&SecMembers != 0 && isType {
				md.Members, errs[4] = r.members(tg)
			}
		},
	)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
	names := []string{"type hierarchy", "call trees", "references", "type flows", "members"}
	for i, err := range errs {
		if err != nil {
			if errors.Is(err, tsls.ErrClosed) {
				return nil, fmt.Errorf("structure: %w", err)
			}
			// A section missing from a compiler answer makes it partial:
			// marked, with the note saying which and why.
			r.note("%s unavailable: %v", names[i], err)
			md.Approximate = true
		}
	}
	sort.Strings(r.notes) // found concurrently: keep the output stable
	md.Notes = r.notes
	normalize(md)
	return md, nil
}

func firstErr(ctx context.Context, errs ...error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// nonNil makes *s an empty slice where it is nil, so that JSON has an
// array for it.
func nonNil[T any](s *[]T) {
	if *s == nil {
		*s = []T{}
	}
}

// normalize replaces nil slices with empty ones so JSON always has arrays
// where docs/architecture.md (rule 7) has them.
func normalize(md *SymbolMetadata) {
	nonNil(&md.Modifiers)
	nonNil(&md.OutgoingCalls)
	nonNil(&md.IncomingCallers)
	if th := md.TypeHierarchy; th != nil {
		nonNil(&th.Implements)
		nonNil(&th.Subtypes)
		nonNil(&th.TypeParameters)
	}
	if tf := md.TypeFlows; tf != nil {
		nonNil(&tf.Parameters)
		for i := range tf.Parameters {
			nonNil(&tf.Parameters[i].Types)
		}
		if tf.Returns != nil {
			nonNil(&tf.Returns.Types)
		}
		if tf.Type != nil {
			nonNil(&tf.Type.Types)
		}
	}
	if rf := md.References; rf != nil {
		nonNil(&rf.Files)
		nonNil(&rf.Sites)
	}
}
