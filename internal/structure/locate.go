package structure

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/tsls"
)

// target is a resolved Target: its text, offsets and declaration node.
type target struct {
	path      string
	txt       *tsls.Text
	name      string
	nameOff   int
	pos       tsls.Position
	decl      *tsls.DocumentSymbol // nil when the server lists none here
	parent    *tsls.DocumentSymbol
	keyword   string // declaration keyword written before the name
	kind      string
	modifiers []string
}

// locate finds the name identifier: at the given column, or the first
// whole-word occurrence of the name on that line when the column is off.
func (r *req) locate(t Target) (*target, error) {
	if !filepath.IsAbs(t.File) {
		return nil, fmt.Errorf("target file %q is not absolute", t.File)
	}
	txt, err := r.text(t.File)
	if err != nil {
		return nil, fmt.Errorf("read target: %w", err)
	}
	off, err := txt.RowOffset(t.Line, t.Column)
	if err != nil {
		return nil, fmt.Errorf("%s:%d:%d: %w", t.File, t.Line, t.Column, err)
	}
	src := txt.Bytes()
	name := t.Name
	if name == "" {
		end := off
		for end < len(src) && ident.PartByte(src[end]) {
			end++
		}
		name = string(src[off:end])
	}
	if name == "" {
		return nil, fmt.Errorf("%s:%d:%d: no identifier here", t.File, t.Line, t.Column)
	}
	if !identAt(src, off, name) {
		lineStart, _ := txt.RowOffset(t.Line, 0)
		line := txt.LineText(t.Line)
		found := -1
		for i := 0; i+len(name) <= len(line); i++ {
			if identAt(src, lineStart+i, name) {
				found = lineStart + i
				break
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("%s:%d: %q not found on the line", t.File, t.Line, name)
		}
		off = found
	}
	return &target{path: t.File, txt: txt, name: name, nameOff: off, pos: txt.PositionAt(off)}, nil
}

// identAt reports whether the identifier name starts at off (whole word).
func identAt(src []byte, off int, name string) bool {
	if off < 0 || off+len(name) > len(src) || string(src[off:off+len(name)]) != name {
		return false
	}
	if off > 0 && ident.PartByte(src[off-1]) && src[off-1] != '#' {
		return false
	}
	end := off + len(name)
	return end == len(src) || !ident.PartByte(src[end])
}

// findDecl returns the document symbol whose name is at pos, and its parent.
func findDecl(syms []tsls.DocumentSymbol, pos tsls.Position) (decl, parent *tsls.DocumentSymbol) {
	var walk func(list []tsls.DocumentSymbol, par *tsls.DocumentSymbol) bool
	walk = func(list []tsls.DocumentSymbol, par *tsls.DocumentSymbol) bool {
		for i := range list {
			s := &list[i]
			if s.SelectionRange.Contains(pos) && s.SelectionRange.Start.Line == pos.Line {
				decl, parent = s, par
				return true
			}
			if s.Range.Contains(pos) && walk(s.Children, s) {
				return true
			}
		}
		return false
	}
	walk(syms, nil)
	return decl, parent
}

// implementationOf maps an overload signature (a function, method or
// constructor declaration without a body) to the overload set's
// implementation, the sibling of the same name that has one. Calls resolve
// to the matching overload signature, whose own call hierarchy is empty;
// the implementation is where the calls are.
//
// declRange, when known, lets a declaration with a body skip the document
// symbol lookup.
func (r *req) implementationOf(path string, sel tsls.Position, declRange *tsls.Range) (*tsls.DocumentSymbol, bool) {
	if declRange != nil {
		if txt, err := r.text(path); err == nil && strings.HasSuffix(strings.TrimSpace(txt.Slice(*declRange)), "}") {
			return nil, false
		}
	}
	syms, err := r.symbols(path)
	if err != nil {
		return nil, false
	}
	decl, parent := findDecl(syms, sel)
	if decl == nil {
		return nil, false
	}
	switch decl.Kind {
	case tsls.KindFunction, tsls.KindMethod, tsls.KindConstructor:
	default:
		return nil, false
	}
	txt, err := r.text(path)
	if err != nil {
		return nil, false
	}
	hasBody := func(d *tsls.DocumentSymbol) bool {
		return strings.HasSuffix(strings.TrimSpace(txt.Slice(d.Range)), "}")
	}
	if hasBody(decl) {
		return nil, false
	}
	siblings := syms
	if parent != nil {
		siblings = parent.Children
	}
	for i := range siblings {
		s := &siblings[i]
		if s.Name == decl.Name && s.Kind == decl.Kind && s != decl && hasBody(s) {
			return s, true
		}
	}
	return nil, false
}

// kindFor maps what the source and the server say to scry's kinds.
func kindFor(keyword string, lsp tsls.SymbolKind) string {
	switch keyword {
	case "class", "interface", "enum", "function", "namespace":
		return keyword
	case "module":
		return "namespace"
	case "type":
		return "type"
	case "get":
		return "getter"
	case "set":
		return "setter"
	case "const":
		if lsp == tsls.KindFunction {
			return "function"
		}
		return "const"
	case "let", "var":
		if lsp == tsls.KindFunction {
			return "function"
		}
		return "variable"
	}
	switch lsp {
	case tsls.KindField:
		return "property"
	case tsls.KindConstant:
		return "const"
	case tsls.KindModule:
		return "namespace"
	case 0:
		return "unknown"
	}
	return lsp.String()
}
