package parse

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Layouts and functions from tree-sitter's api.h (linked in through the Go
// binding); declared here so the walk below runs entirely in C.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } scry_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } scry_cursor;
scry_cursor ts_tree_cursor_new(scry_node);
void ts_tree_cursor_delete(scry_cursor *);
scry_node ts_tree_cursor_current_node(const scry_cursor *);
_Bool ts_tree_cursor_goto_first_child(scry_cursor *);
_Bool ts_tree_cursor_goto_next_sibling(scry_cursor *);
_Bool ts_tree_cursor_goto_parent(scry_cursor *);
void ts_tree_cursor_reset(scry_cursor *, scry_node);
_Bool ts_node_is_named(scry_node);
uint16_t ts_node_symbol(scry_node);
uint32_t ts_node_start_byte(scry_node);
uint32_t ts_node_end_byte(scry_node);

typedef struct { scry_node node; uint32_t start, end; uint16_t symbol; } scry_candidate;

// scry_collect walks the whole tree once and returns, in preorder, every node
// whose symbol is marked 1 in want; it does not descend into nodes marked 1
// in skip.
static scry_candidate *scry_collect(scry_node root, const uint8_t *want, const uint8_t *skip, uint32_t nsym, size_t *count) {
	size_t cap = 1024, n = 0;
	scry_candidate *out = malloc(cap * sizeof *out);
	scry_cursor c = ts_tree_cursor_new(root);
	for (;;) {
		scry_node node = ts_tree_cursor_current_node(&c);
		uint16_t sym = ts_node_symbol(node);
		int descend = !(sym < nsym && skip[sym]);
		if (sym < nsym && want[sym]) {
			if (n == cap) {
				cap *= 2;
				out = realloc(out, cap * sizeof *out);
			}
			out[n].node = node;
			out[n].start = ts_node_start_byte(node);
			out[n].end = ts_node_end_byte(node);
			out[n].symbol = sym;
			n++;
		}
		if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				*count = n;
				return out;
			}
		}
	}
}

// scry_children writes the children of n (only its named ones when named
// is set) to out, up to cap of them, and returns how many there are. It
// walks them with the cursor c, as Node.Children and Node.NamedChildren do,
// in one call instead of two or three per child.
static uint32_t scry_children(scry_cursor *c, scry_node n, int named, scry_node *out, uint32_t cap) {
	uint32_t k = 0;
	ts_tree_cursor_reset(c, n);
	if (!ts_tree_cursor_goto_first_child(c)) return 0;
	do {
		scry_node child = ts_tree_cursor_current_node(c);
		if (named && !ts_node_is_named(child)) continue;
		if (k < cap) out[k] = child;
		k++;
	} while (ts_tree_cursor_goto_next_sibling(c));
	return k;
}
*/
import "C"

import (
	"sort"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// candidate is a node that may declare a nested symbol.
type candidate struct {
	node       sitter.Node
	start, end int
	kind       kind
}

func isCandidate(k kind) bool {
	switch k {
	case kFunctionDecl, kGeneratorFunctionDecl, kClassDecl, kAbstractClassDecl, kLexical, kVariable,
		kClass, kArrowFunction, kFunctionExpression, kGeneratorFunction, kMethodDef:
		return true
	}
	return false
}

// collect finds every candidate of the tree in one C walk: a Go walk costs
// several cgo calls per node, as much as the parse itself on large files.
func (b *builder) collect(root *sitter.Node) {
	n := len(b.g.kinds)
	want := make([]byte, n)
	skip := make([]byte, n)
	for id, k := range b.g.kinds {
		if isCandidate(k) {
			want[id] = 1
		}
		if k == kSkip || k == kString || k == kComment {
			skip[id] = 1
		}
	}
	var count C.size_t
	// sitter.Node is a struct holding exactly one C TSNode.
	rootNode := *(*C.scry_node)(unsafe.Pointer(root))
	ptr := C.scry_collect(rootNode, (*C.uint8_t)(unsafe.Pointer(&want[0])), (*C.uint8_t)(unsafe.Pointer(&skip[0])), C.uint32_t(n), &count)
	defer C.free(unsafe.Pointer(ptr))
	raw := unsafe.Slice(ptr, int(count))
	b.cands = make([]candidate, len(raw))
	for i := range raw {
		b.cands[i] = candidate{
			node:  *(*sitter.Node)(unsafe.Pointer(&raw[i].node)),
			start: int(raw[i].start),
			end:   int(raw[i].end),
			kind:  b.g.kinds[raw[i].symbol],
		}
	}
}

// nested finds the declarations inside n (a function body, an expression, a
// field initialiser): named functions, classes, function-valued variables and
// multi-line callbacks. Each becomes a child symbol whose own children come
// from the candidates inside it.
//
// Below MaxDepth levels of nesting it finds nothing: the declarations
// there stay part of their ancestor's source (see MaxDepth).
func (b *builder) nested(n *sitter.Node) []*Symbol {
	if n == nil || b.level >= MaxDepth {
		return nil
	}
	b.level++
	defer func() { b.level-- }()
	start, end, id := int(n.StartByte()), int(n.EndByte()), n.Id()
	i := b.candidateAt(0, start)
	var out []*Symbol
	for i < len(b.cands) && b.cands[i].start < end {
		c := &b.cands[i]
		b.scanned++
		if c.end > end || c.node.Id() == id {
			i++
			continue
		}
		if s := b.nestedSymbol(&c.node, c.kind); s != nil {
			out = append(out, s)
			// The candidates inside this one are its own children's
			// business: jump past them rather than step over each, which
			// made every level of a deep nest rescan all the levels below.
			i = b.candidateAt(i+1, c.end)
			continue
		}
		i++
	}
	return mergeSameLine(out)
}

// candidateAt is the index of the first candidate from index from on that
// starts at or after byte off (candidates are in preorder, so sorted by start).
func (b *builder) candidateAt(from, off int) int {
	return from + sort.Search(len(b.cands)-from, func(i int) bool { return b.cands[from+i].start >= off })
}

// childNodes returns n's children, or its named children only, as
// Node.Children and Node.NamedChildren do, walked in C (see scry_children).
// The slice is the caller's.
func (b *builder) childNodes(n *sitter.Node, named bool) []sitter.Node {
	flag := C.int(0)
	if named {
		flag = 1
	}
	for {
		// The nodes land in C memory: a Go buffer would be checked
		// whole for Go pointers at every call (cgocheck), which made a
		// file of many statements quadratic.
		// sitter.Node and sitter.TreeCursor are structs holding exactly
		// one C TSNode and TSTreeCursor, which hold no Go pointers.
		k := int(C.scry_children((*C.scry_cursor)(unsafe.Pointer(b.cursor)), *(*C.scry_node)(unsafe.Pointer(n)), flag,
			(*C.scry_node)(b.kids), C.uint32_t(b.nkids)))
		if k <= b.nkids {
			if k == 0 {
				return nil
			}
			return append([]sitter.Node(nil), unsafe.Slice((*sitter.Node)(unsafe.Pointer(b.kids)), k)...)
		}
		b.nkids = max(k, 64)
		b.kids = C.realloc(b.kids, C.size_t(b.nkids)*C.sizeof_scry_node)
		if b.kids == nil {
			panic("parse: out of memory")
		}
	}
}

// freeKids frees childNodes' buffer.
func (b *builder) freeKids() {
	C.free(b.kids)
	b.kids, b.nkids = nil, 0
}
