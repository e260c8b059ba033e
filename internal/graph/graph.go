// Package graph renders the connection graph: the first thing an agent reads
// in a search answer. It is a pure transformation of already-resolved
// metadata into text, so that everything about its layout can be pinned by
// golden files without a compiler in the loop.
//
// The layout follows docs/architecture.md, rule 6: a summary line, a Graph section (how the
// results connect), a Patterns section (hubs, shared dependencies, shared
// types, diamonds, cycles) and per-result details. Markers:
//
//	★  a reference to another result, wherever the reference is not already
//	   labelled with that result's [i]
//	◆  a symbol outside the results that two or more results reference
//	   directly (call or type)
//	[cycle], [depth limit]  as recorded in the call trees
package graph

import (
	"strings"

	"github.com/scry-dev/scry/internal/tokens"
)

// Input is everything the graph is drawn from.
type Input struct {
	Query string `json:"query"`
	// Budget is the token budget shown after the count; 0 shows the count
	// alone.
	Budget int `json:"budget,omitempty"`
	// Results in score order; Results[i] is shown as [i+1].
	Results []Result `json:"results"`
	// Leads name the best candidates in one line each when no result is
	// shown: none passed the relevance threshold, or none fit the budget.
	Leads []Lead `json:"leads,omitempty"`
	// Threshold is the relevance threshold the results had to pass, said
	// when leads stand in for results.
	Threshold float64 `json:"threshold,omitempty"`
	// Lookup: the query named its symbol (`symbol = …`, or a bare name
	// whose definition leads the leads), so a match over the budget is not
	// asked for by name again and, beside other results, is said to be the
	// one asked for.
	Lookup bool `json:"lookup,omitempty"`
	// Unknown is the name the query asked for when nothing in the index
	// defines or mentions it: the leads share only part of it.
	Unknown string `json:"unknown,omitempty"`
	// Missing is the symbol path a lookup asked for when nothing matched
	// it; the leads are then the nearest symbols.
	Missing string `json:"missing,omitempty"`
}

// Lead is a candidate named instead of shown.
type Lead struct {
	Kind        string  `json:"kind"`
	Name        string  `json:"name"`
	File        string  `json:"file"`
	Line        int     `json:"line"`
	Probability float64 `json:"probability"`
	// OverBudget: relevant enough, but larger than the whole budget.
	OverBudget bool `json:"over_budget,omitempty"`
	Tokens     int  `json:"tokens,omitempty"`
}

// Result is one selected symbol with its structural metadata.
type Result struct {
	// Name is the display name: "TokenService.validateToken" or
	// "AUTH_TOKEN_EXPIRY".
	Name string `json:"name"`
	// File is relative to the workspace root, with forward slashes.
	File string `json:"file"`
	// Line is the line of the declaration's name (1-based).
	Line int `json:"line"`
	// StartLine and EndLine bound the whole declaration. Call-tree nodes
	// whose line falls inside are recognised as this result (or one of its
	// members), which is what ties the trees of different results together.
	StartLine int `json:"start_line,omitempty"`
	EndLine   int `json:"end_line,omitempty"`
	// Kind is scry's kind name: "method", "class", "const", ...
	Kind string `json:"kind"`
	// Modifiers as the compiler reports them: "async", "static",
	// "exported" (or "export"), "default", "abstract", ...
	Modifiers []string `json:"modifiers,omitempty"`
	// RefFiles is the number of files referencing the symbol, -1 when
	// unknown.
	RefFiles  int    `json:"ref_files"`
	Signature string `json:"signature,omitempty"`

	Extends    *Ref  `json:"extends,omitempty"`
	Implements []Ref `json:"implements,omitempty"`
	Subtypes   []Ref `json:"subtypes,omitempty"`

	TypesIn  []TypeRef `json:"types_in,omitempty"`
	TypesOut []TypeRef `json:"types_out,omitempty"`

	// Members of a class or interface, as they should read:
	// "getSecret()", "secret".
	Members []string `json:"members,omitempty"`
	// Type and Value describe variables and constants; Value only when
	// the initialiser is a short literal.
	Type  string `json:"type,omitempty"`
	Value string `json:"value,omitempty"`

	// Calls is the outgoing call tree, CalledBy the incoming one.
	Calls    []Call `json:"calls,omitempty"`
	CalledBy []Call `json:"called_by,omitempty"`

	// Approximate: the structure came from syntax, not the compiler;
	// ApproximateReason says why ("" means the TypeScript server was
	// unavailable).
	Approximate       bool   `json:"approximate,omitempty"`
	ApproximateReason string `json:"approximate_reason,omitempty"`
}

// Ref names a declaration in a type hierarchy.
type Ref struct {
	Name string `json:"name"`
	// File is the declaring file, or the package name when External.
	File     string `json:"file,omitempty"`
	Abstract bool   `json:"abstract,omitempty"`
	External bool   `json:"external,omitempty"`
}

// TypeRef is a type flowing into or out of a result.
type TypeRef struct {
	// Param is the parameter name (types in only).
	Param string `json:"param,omitempty"`
	// Type is the type's name, or its text for primitives.
	Type string `json:"type"`
	// File is the declaring file, the package name when External, and
	// empty for primitives.
	File     string `json:"file,omitempty"`
	External bool   `json:"external,omitempty"`
}

// Call is one node of a call tree.
type Call struct {
	Name string `json:"name"`
	// File is empty for calls into code outside the workspace.
	File string `json:"file,omitempty"`
	// Line is the callee's (or caller's) declaration line.
	Line     int    `json:"line,omitempty"`
	Children []Call `json:"children,omitempty"`
	// Cycle: the node is an ancestor on its own path; Children is empty.
	Cycle bool `json:"cycle,omitempty"`
	// DepthLimit: the tree stops here although the node calls further.
	DepthLimit bool `json:"depth_limit,omitempty"`
}

// Tokens counts o200k tokens. It is the same counter the search pipeline
// budgets with, so the summary line and the budget agree.
func Tokens(s string) int { return tokens.Count(s) }

// maxRenders bounds the fixed-point search below. The count can only grow
// with each pass (a larger number never tokenizes shorter), so this is a
// guard, not a tuning knob.
const maxRenders = 8

// Render returns the connection graph and the token count it states: the
// graph itself plus every extra content item (the snapshots), each counted
// as a separate item, as an MCP response carries them.
func Render(in Input, extra ...string) (text string, total int) {
	text, total, _ = render(in, extra)
	return text, total
}

// Symbol describes one symbol on its own, as the details of a single-result
// graph read, without the search summary line; an approximate description
// says so, and why.
func Symbol(r Result) string {
	return strings.Join(newModel(Input{Results: []Result{r}}).details(1, true, true), "\n")
}

// render also reports how many passes the fixed point took, for tests.
func render(in Input, extra []string) (string, int, int) {
	base := 0
	for _, s := range extra {
		base += Tokens(s)
	}
	body := newModel(in).body()
	// The count is part of the text it counts. Starting from zero, each
	// pass yields a count at least as large as the previous one, and only
	// the number's digit groups change between passes, so it settles in two
	// or three passes.
	total := 0
	var text string
	for pass := 1; ; pass++ {
		text = summary(in, total) + body
		n := base + Tokens(text)
		if n == total || pass == maxRenders {
			return text, n, pass
		}
		total = n
	}
}
