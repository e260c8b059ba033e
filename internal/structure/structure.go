// Package structure answers the structural questions about one
// symbol — signature, modifiers, type hierarchy, call trees, references,
// type flows, members — as a SymbolMetadata.
//
// The Compiler asks TypeScript 7's language server (package tsls) and its
// answers are exact (approximate: false). Without tsgo, the engine answers
// the same questions from the index and marks everything approximate.
//
// Paths in the output are relative to the workspace root and use "/".
// Lines are 1-based. Columns are 1-based byte columns (as ripgrep counts).
package structure

import "strings"

// Position is a place in a file in the parser's coordinates.
type Position struct {
	// File is an absolute path.
	File string
	// Line is 1-based ("\n"-separated rows, tree-sitter's row + 1).
	Line int
	// Column is the 0-based byte offset within the line (tree-sitter's
	// Point.Column).
	Column int
}

// Target is a declaration to describe: the position of its NAME identifier
// plus what the parser knows about it.
type Target struct {
	Position
	// Name is the declared name; it is used to re-find the identifier when
	// the column is off (the line is searched for the name).
	Name string
	// Kind is the parser's kind ("function", "class", "method", ...);
	// empty means "ask the compiler".
	Kind string
}

// Section selects parts of SymbolMetadata; the zero value means all.
type Section uint

// Sections.
const (
	SecSignature  Section = 1 << iota // signature and modifiers
	SecHierarchy                      // typeHierarchy (classes, interfaces)
	SecOutgoing                       // outgoingCalls
	SecIncoming                       // incomingCallers
	SecReferences                     // references
	SecTypeFlows                      // typeFlows
	SecMembers                        // members (classes, interfaces)

	SecAll = SecSignature | SecHierarchy | SecOutgoing | SecIncoming | SecReferences | SecTypeFlows | SecMembers
)

// Options tunes a Metadata call.
type Options struct {
	// CallDepth is how many hops call trees go: 0 means the default (1),
	// -1 (any negative) means transitive, bounded by MaxCallNodes.
	CallDepth int
	// Sections to compute; 0 means SecAll.
	Sections Section
	// MaxCallNodes bounds each call tree; 0 means DefaultMaxCallNodes.
	// Nodes left unexpanded because of it are marked depthLimited.
	MaxCallNodes int
	// SkipDepthLimit leaves depthLimited unset at the depth boundary,
	// saving one request per boundary node (hubs have dozens) when the
	// caller will not show the marks.
	SkipDepthLimit bool
}

// DefaultMaxCallNodes bounds a call tree when CallDepth is -1 or large: a
// tree (not a graph) of a hub function can otherwise grow exponentially.
const DefaultMaxCallNodes = 500

// SymbolMetadata is the per-symbol structure (docs/architecture.md, rule 7).
type SymbolMetadata struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Signature is the declaration as the compiler prints it (hover),
	// without markdown, kind labels ("(method) ") or the container
	// qualifier.
	Signature string   `json:"signature"`
	Modifiers []string `json:"modifiers"`
	// TypeHierarchy is set for classes and interfaces.
	TypeHierarchy *TypeHierarchy `json:"typeHierarchy,omitempty"`
	// CallDepth is the depth the call trees were built with (-1:
	// transitive).
	CallDepth       int              `json:"callDepth"`
	OutgoingCalls   []OutgoingCall   `json:"outgoingCalls"`
	IncomingCallers []IncomingCaller `json:"incomingCallers"`
	References      *References      `json:"references,omitempty"`
	TypeFlows       *TypeFlows       `json:"typeFlows,omitempty"`
	// Members is set for classes and interfaces, in source order (all
	// declarations of a merged interface, in file then source order).
	Members []Member `json:"members,omitempty"`
	// Approximate is false when every fact came from the compiler (a
	// section it could not answer sets it, with a note).
	Approximate bool `json:"approximate"`
	// Notes explain gaps and fallbacks in plain words.
	Notes []string `json:"notes,omitempty"`
}

// SymbolRef points at a declaration.
type SymbolRef struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Container is the class or interface owning a member.
	Container string `json:"container,omitempty"`
	// Written is the reference as written in a heritage clause when it
	// differs from Name ("Repository<T>", "ns.Base").
	Written    string `json:"written,omitempty"`
	IsAbstract bool   `json:"isAbstract,omitempty"`
	// External marks declarations outside user code: node_modules, .d.ts
	// files and TypeScript's default library. They are never walked.
	External bool   `json:"external,omitempty"`
	Package  string `json:"package,omitempty"`
}

// QualifiedName is the name as answers show it: Container.Name for a
// member, "Container call signature" for an interface's call signature.
func (r SymbolRef) QualifiedName() string {
	if r.Kind == "call-signature" && r.Name == "" {
		return strings.TrimSpace(r.Container + " call signature")
	}
	if r.Container != "" {
		return r.Container + "." + r.Name
	}
	return r.Name
}

// Where is where answers say the declaration is: its package when it is
// outside user code and has one, else its file.
func (r SymbolRef) Where() string {
	if r.External && r.Package != "" {
		return r.Package
	}
	return r.File
}

// TypeHierarchy is a class's or interface's place among types.
type TypeHierarchy struct {
	// Extends is a class's base class.
	Extends *SymbolRef `json:"extends,omitempty"`
	// Implements holds the interfaces a class implements, or the
	// interfaces an interface extends.
	Implements []SymbolRef `json:"implements"`
	// Subtypes are the classes and interfaces whose heritage clause names
	// this declaration directly.
	Subtypes []SymbolRef `json:"subtypes"`
	// IsAbstract is set for abstract classes.
	IsAbstract     bool            `json:"isAbstract,omitempty"`
	TypeParameters []TypeParameter `json:"typeParameters"`
}

// TypeParameter is one generic parameter.
type TypeParameter struct {
	Name       string `json:"name"`
	Constraint string `json:"constraint,omitempty"`
	Default    string `json:"default,omitempty"`
}

// CallInfo is what both call-tree directions record about one node.
type CallInfo struct {
	SymbolRef
	// CallSites are the 1-based lines of the calls: in the caller's file
	// (for outgoing calls, the symbol's own file; for incoming callers,
	// the caller's file).
	CallSites []int `json:"callSites"`
	// Cyclic: the node already appears on the path from the root; its
	// children are not repeated.
	Cyclic bool `json:"cyclic,omitempty"`
	// DepthLimited: the tree stops here at callDepth (or the node budget)
	// although the node has further calls.
	DepthLimited bool `json:"depthLimited,omitempty"`
	// ViaNew: a constructor call (`new C()`, or `super()` for a base).
	ViaNew bool `json:"viaNew,omitempty"`
	// ViaReferences: found through references/definitions because the
	// compiler's call hierarchy has no entry for it (e.g. functions
	// declared as `const f: T = make(...)`).
	ViaReferences bool `json:"viaReferences,omitempty"`
}

// OutgoingCall is a callee with its own callees.
type OutgoingCall struct {
	CallInfo
	OutgoingCalls []OutgoingCall `json:"outgoingCalls"`
}

// IncomingCaller is a caller with its own callers.
type IncomingCaller struct {
	CallInfo
	IncomingCallers []IncomingCaller `json:"incomingCallers"`
}

// References lists where a symbol is used. Its own declarations are
// excluded (DeclarationExcluded); imports and re-exports (`import { x }`,
// `export { x } from`) are uses and are listed, a renamed one
// (`import { x as y }`) once, at `x`.
type References struct {
	Count               int      `json:"count"`
	Files               []string `json:"files"`
	Sites               []Site   `json:"sites"`
	DeclarationExcluded bool     `json:"declarationExcluded"`
}

// Site is one reference.
type Site struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Text is the trimmed source line.
	Text string `json:"text"`
}

// TypeFlows says where a symbol's types come from.
type TypeFlows struct {
	// Parameters of a function, method or constructor.
	Parameters []ParamFlow `json:"parameters"`
	// Returns is the return type of a callable.
	Returns *TypeFlow `json:"returns,omitempty"`
	// Type is the declared type of a variable or property.
	Type *TypeFlow `json:"type,omitempty"`
}

// ParamFlow is one parameter.
type ParamFlow struct {
	Name     string    `json:"name"`
	Type     string    `json:"type"`
	Optional bool      `json:"optional,omitempty"`
	Rest     bool      `json:"rest,omitempty"`
	Types    []TypeRef `json:"types"`
}

// TypeFlow is a type and the declarations it names.
type TypeFlow struct {
	Type  string    `json:"type"`
	Types []TypeRef `json:"types"`
}

// TypeRef is a named type with its declaration. Primitives are never
// listed; TypeScript's default library types (Promise, Array, ...) are not
// either.
type TypeRef struct {
	Name     string `json:"name"`
	Kind     string `json:"kind,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	External bool   `json:"external,omitempty"`
	Package  string `json:"package,omitempty"`
	// Unresolved: the compiler printed the name but no single declaration
	// could be found for it.
	Unresolved bool `json:"unresolved,omitempty"`
}

// Member is a property, method, accessor, constructor or signature.
type Member struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Line      int      `json:"line"`
	File      string   `json:"file,omitempty"` // set when not the target's file
	Signature string   `json:"signature,omitempty"`
	Modifiers []string `json:"modifiers,omitempty"`
}
