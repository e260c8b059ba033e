// Package parse reads TypeScript and JavaScript with tree-sitter and returns a
// hierarchical symbol tree: every declaration and every root statement, with
// 1-based line ranges, kinds, modifiers, signatures and JSDoc.
package parse

// Kinds of symbols. Root statements that declare nothing still get a kind so
// that every line of a file belongs to some symbol.
const (
	KindFunction    = "function"
	KindMethod      = "method"
	KindConstructor = "constructor"
	KindGetter      = "getter"
	KindSetter      = "setter"
	KindProperty    = "property"
	KindClass       = "class"
	KindInterface   = "interface"
	KindType        = "type"
	KindEnum        = "enum"
	KindEnumMember  = "enum-member"
	KindComponent   = "component"
	KindVariable    = "variable"
	KindConst       = "const"
	KindNamespace   = "namespace"
	KindModule      = "module"
	KindImport      = "import"
	KindReExport    = "re-export"
	KindExpression  = "expression"
	KindStatement   = "statement"
	KindComment     = "comment"
	KindCallback    = "callback"
	KindStaticBlock = "static-block"
	KindIndex       = "index-signature"
	KindCall        = "call-signature"
)

// SignatureModifier marks a member of an interface or object type (a
// method, property or construct signature): a declaration with no code of
// its own, whose calls run the code of whatever implements it.
const SignatureModifier = "signature"

// MaxDepth is the deepest a symbol nests (a root symbol is at depth 0). A
// declaration at depth MaxDepth has no child symbols: whatever nests inside
// it stays in its source, as part of its chunk. Real code nests far less
// (6 levels at most in rxjs, effect and date-fns); the limit is what keeps a
// file of thousands of nested functions linear to parse and chunk, since
// every chunk holds the whole source of its descendants (architecture.md,
// rule 1).
const MaxDepth = 16

// Symbol is one node of the symbol tree.
type Symbol struct {
	Name       string
	Kind       string
	Depth      int
	ParentName string
	// StartLine and EndLine are 1-based and inclusive; the range includes
	// attached leading comments, JSDoc and decorators.
	StartLine int
	EndLine   int
	// StartByte/EndByte delimit the symbol's source text.
	StartByte int
	EndByte   int
	// DeclStartByte is where the declaration itself starts, after attached
	// comments (decorators and export keywords included).
	DeclStartByte int
	// BodyStartByte is where the collapsible body begins (the "{" of a
	// function or class body); -1 when the symbol has no body to collapse.
	BodyStartByte int
	Signature     string
	Modifiers     []string
	Exported      bool
	JSDoc         string
	Children      []*Symbol

	// fragment marks what the grammar could not make a statement of (an
	// error node, a stray ";"): on the line of a declaration it belongs to
	// that declaration rather than renaming it (see mergeSameLine).
	fragment bool
}

// BodyBearing reports whether the symbol has a body that a parent chunk
// collapses to a signature stub.
func (s *Symbol) BodyBearing() bool { return s.BodyStartByte >= 0 }

// Import is one import binding source: the statement text and the local names
// it introduces (default, named, namespace or require-bound).
type Import struct {
	Statement string
	Module    string
	Names     []string
	StartLine int
	EndLine   int
}

// File is a parsed source file.
type File struct {
	Path     string
	Language string // "typescript", "tsx", "javascript"
	Source   []byte
	// LineStarts is lines.Starts(Source), kept for the chunker and the
	// store, which need it too.
	LineStarts []int
	Symbols    []*Symbol // root symbols in source order, non-overlapping by line
	Imports    []Import
	// ErrorNodes counts tree-sitter ERROR/MISSING nodes: the file did not parse
	// cleanly, but its symbols still cover every line.
	ErrorNodes int
}
