// Package render turns the engine's typed answers into the text people
// read in the CLI and agents read over MCP. It is the only place answers
// become text, so both front ends say the same thing the same way.
package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/textsearch"
)

// ErrorLine is an error as the CLI prints it: on one line, with any name
// inside it escaped (textfmt.Line).
func ErrorLine(err error) string { return textfmt.Line(err.Error()) }

// approxNote marks answers read from the index instead of the compiler.
const approxNote = "(approximate: from the index, TypeScript server unavailable)"

// approximate is the mark of an answer read from the index, with the
// reason when it is not the compiler's absence (still loading, say).
func approximate(reason string) string {
	if reason == "" {
		return approxNote
	}
	return "(approximate: from the index, " + textfmt.Line(reason) + ")"
}

// Search is a search answer as the CLI prints it: the connection graph,
// then each snapshot, separated by blank lines. (MCP sends the same parts
// as separate content items.)
func Search(a answer.Answer) string {
	parts := []string{Graph(a)}
	for _, s := range a.Snapshots {
		parts = append(parts, s.Text)
	}
	return strings.Join(parts, "\n\n")
}

// Graph is an answer's connection graph as text, its first content item:
// the graph of its results and leads, whose summary counts the whole
// answer (graph and snapshots), or the one line that says the budget is
// too small for any useful answer.
func Graph(a answer.Answer) string {
	if a.MinBudget > 0 {
		return graph.TooSmall(a.Graph.Query, a.Budget, a.MinBudget)
	}
	texts := make([]string, len(a.Snapshots))
	for i, s := range a.Snapshots {
		texts[i] = s.Text
	}
	g, _ := graph.Render(a.Graph, texts...)
	return g
}

// searchPlace is where a `results` or `leads` entry of `scry search
// --json` is, and what it is.
type searchPlace struct {
	File       string `json:"file"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	Name       string `json:"name"`
	Breadcrumb string `json:"breadcrumb"`
	Kind       string `json:"kind"`
}

func placeOf(c chunk.Chunk) searchPlace {
	return searchPlace{File: c.RelativePath, StartLine: c.StartLine, EndLine: c.EndLine, Name: c.Name, Breadcrumb: c.Breadcrumb, Kind: c.NodeKind}
}

// searchResult is the stable `results` entry of `scry search --json`.
type searchResult struct {
	searchPlace
	Score float64 `json:"score"`
}

// searchLead is a `leads` entry: a candidate named instead of shown, when
// no result passed the relevance threshold or fit the budget.
type searchLead struct {
	searchPlace
	Probability float64 `json:"probability"`
	OverBudget  bool    `json:"over_budget"`
	Tokens      int     `json:"tokens"`
}

type searchSnapshot struct {
	File     string  `json:"file"`
	Priority float64 `json:"priority"`
	Text     string  `json:"text"`
}

// SearchJSON writes the stable contract of `scry search --json`: results
// best first, the leads named when none is confident, then the graph and
// snapshots exactly as an agent receives them.
func SearchJSON(w io.Writer, a answer.Answer) error {
	res := make([]searchResult, len(a.Response.Results))
	for i, r := range a.Response.Results {
		res[i] = searchResult{placeOf(r.Chunk), round3(r.Score)}
	}
	leads := make([]searchLead, len(a.Response.Leads))
	for i, l := range a.Response.Leads {
		leads[i] = searchLead{placeOf(l.Chunk), round3(l.Probability), l.OverBudget, l.Tokens}
	}
	snaps := make([]searchSnapshot, len(a.Snapshots))
	for i, s := range a.Snapshots {
		snaps[i] = searchSnapshot{File: s.File, Priority: s.Priority, Text: s.Text}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	out := map[string]any{
		"query":     a.Response.Query,
		"results":   res,
		"leads":     leads,
		"graph":     Graph(a),
		"snapshots": snaps,
		"tokens":    a.Tokens,
		"budget":    a.Budget,
	}
	if a.Response.Unknown != "" {
		// Nothing in the index defines or mentions the name asked for.
		out["unknown"] = a.Response.Unknown
	}
	if a.MinBudget > 0 {
		// The budget holds no useful answer: the smallest one that does.
		out["min_budget"] = a.MinBudget
	}
	return enc.Encode(out)
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

// JSON writes v indented, for the CLI's --json.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// NoSymbol is the answer when a symbol path names nothing, with the
// nearest symbols when there are any (answer.Local.Near).
func NoSymbol(path string, near []answer.Declaration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No symbol %q in the workspace.", path)
	if len(near) > 0 {
		b.WriteString(" Nearest symbols:")
		for _, d := range near {
			fmt.Fprintf(&b, "\n- %s %s — %s:%d", d.Kind, textfmt.Line(d.Name), textfmt.Name(d.File), d.Line)
		}
	}
	return b.String()
}

// Declaration is the one way a declaration is listed: `kind Name —
// file:line (lines a-b)`, then its signature indented on the next line.
func Declaration(d answer.Declaration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s — %s:%d", d.Kind, textfmt.Line(d.Name), textfmt.Name(d.File), d.Line)
	if d.StartLine > 0 && d.EndLine > 0 {
		fmt.Fprintf(&b, " (lines %d-%d)", d.StartLine, d.EndLine)
	}
	if d.External {
		b.WriteString(" (outside the workspace)")
	}
	b.WriteByte('\n')
	if sig := oneLine(d.Signature); sig != "" {
		fmt.Fprintf(&b, "    %s\n", sig)
	}
	return b.String()
}

// Declarations lists the declarations matching a name.
func Declarations(name string, ds []answer.Declaration) string {
	if len(ds) == 0 {
		return fmt.Sprintf("No symbol matches %q.", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d symbol(s) matching %q:\n", len(ds), name)
	for _, d := range ds {
		b.WriteString(Declaration(d))
	}
	return b.String()
}

// Info is one symbol's description, as the connection graph details a
// single result.
func Info(i answer.SymbolInfo) string {
	return graph.Symbol(i.Structure)
}

// References lists a symbol's uses grouped by file, each tagged with how
// the line uses it.
func References(r answer.References) string {
	var b strings.Builder
	files := map[string]bool{}
	for _, s := range r.Sites {
		files[s.File] = true
	}
	fmt.Fprintf(&b, "%s — %s:%d: %d reference(s) in %d file(s)", r.Symbol.Name, textfmt.Name(r.Symbol.File), r.Symbol.Line, len(r.Sites), len(files))
	if r.Approximate {
		b.WriteString(" " + approximate(r.Reason))
	}
	b.WriteByte('\n')
	cur := ""
	for _, s := range r.Sites {
		if s.File != cur {
			cur = s.File
			fmt.Fprintf(&b, "%s\n", textfmt.Name(cur))
		}
		fmt.Fprintf(&b, "  %d [%s] %s\n", s.Line, s.Context, s.Text)
	}
	if r.Limit > 0 && len(r.Sites) >= r.Limit {
		fmt.Fprintf(&b, "(first %d shown)\n", r.Limit)
	}
	return b.String()
}

// Implementations lists the subtypes of a class or interface.
func Implementations(r answer.Implementations) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s: %d implementation(s)", r.Symbol.Name, textfmt.Name(r.Symbol.File), len(r.Found))
	if r.Approximate {
		b.WriteString(" " + approximate(r.Reason))
	}
	b.WriteByte('\n')
	for _, d := range r.Found {
		b.WriteString(indent(Declaration(d), "  "))
	}
	return b.String()
}

// Definitions lists the declarations a usage resolves to.
func Definitions(d answer.Definitions) string {
	if len(d.Found) == 0 {
		if d.Approximate {
			return fmt.Sprintf("No declaration of %q in the workspace %s.", d.Name, approximate(d.Reason))
		}
		return "No definition found at that position."
	}
	var b strings.Builder
	for _, x := range d.Found {
		b.WriteString(Declaration(x))
	}
	if d.Approximate {
		b.WriteString(approximate(d.Reason) + "\n")
	}
	return b.String()
}

// CallTree draws a symbol's calls (→) or callers (←) one level per indent,
// with [new], [cycle], [depth limit] and [via references] marks. A tree
// from the index says it is approximate.
func CallTree(t answer.CallTree) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s:%d", textfmt.Line(t.Symbol.Name), textfmt.Name(t.Symbol.File), t.Symbol.Line)
	switch {
	case t.Approximate && t.Reason != "":
		b.WriteString(" " + approximate(t.Reason))
	case t.Approximate:
		b.WriteString(" (approximate: from the index)")
	}
	b.WriteByte('\n')
	line := func(arrow string, depth int, c structure.CallInfo) {
		fmt.Fprintf(&b, "%s%s %s (%s:%d)%s\n", strings.Repeat("  ", depth), arrow, textfmt.Line(c.QualifiedName()), textfmt.Name(c.Where()), c.Line, marks(c))
	}
	var walkOut func([]structure.OutgoingCall, int)
	walkOut = func(calls []structure.OutgoingCall, depth int) {
		for _, c := range calls {
			line("→", depth, c.CallInfo)
			walkOut(c.OutgoingCalls, depth+1)
		}
	}
	var walkIn func([]structure.IncomingCaller, int)
	walkIn = func(calls []structure.IncomingCaller, depth int) {
		for _, c := range calls {
			line("←", depth, c.CallInfo)
			walkIn(c.IncomingCallers, depth+1)
		}
	}
	if t.Incoming {
		walkIn(t.Callers, 1)
		if t.Approximate && len(t.Callers) == 0 {
			b.WriteString("  (no calls found in the index; `scry refs` lists every text match)\n")
		}
	} else {
		walkOut(t.Outgoing, 1)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "  (%s)\n", textfmt.Line(n))
	}
	return b.String()
}

func marks(c structure.CallInfo) string {
	var m []string
	if c.ViaNew {
		m = append(m, "[new]")
	}
	if c.Cyclic {
		m = append(m, "[cycle]")
	}
	if c.DepthLimited {
		m = append(m, "[depth limit]")
	}
	if c.ViaReferences {
		m = append(m, "[via references]")
	}
	if len(m) == 0 {
		return ""
	}
	return " " + strings.Join(m, " ")
}

// Outline lists files' symbols, nested, with kinds, modifiers and line
// ranges.
func Outline(o answer.Outline) string {
	var b strings.Builder
	for _, f := range o.Files {
		fmt.Fprintf(&b, "%s\n", textfmt.Name(f.Path))
		for _, s := range f.Symbols {
			mods := ""
			if len(s.Modifiers) > 0 {
				mods = " [" + strings.Join(s.Modifiers, " ") + "]"
			}
			fmt.Fprintf(&b, "%s%s %s%s %d-%d\n", strings.Repeat("  ", s.Depth+1), s.Kind, textfmt.Line(s.Name), mods, s.StartLine, s.EndLine)
		}
	}
	if o.Truncated {
		fmt.Fprintf(&b, "(outline stopped at %d symbols; list a narrower path)\n", answer.MaxOutline)
	}
	return b.String()
}

// Importers lists the import statements that load a module.
func Importers(target string, imps []answer.Importer) string {
	if len(imps) == 0 {
		return fmt.Sprintf("Nothing imports %q.", target)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d import(s) of %s:\n", len(imps), textfmt.Name(target))
	for _, im := range imps {
		fmt.Fprintf(&b, "%s:%d: %s", textfmt.Name(im.File), im.Line, oneLine(im.Statement))
		if im.Via != "" {
			fmt.Fprintf(&b, " (via %s)", textfmt.Line(im.Via))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Grep lists matches as file:line:text, then how many and where from.
func Grep(res textsearch.GrepResult, limit int) string {
	var b strings.Builder
	for _, m := range res.Matches {
		fmt.Fprintf(&b, "%s:%d:%s\n", textfmt.Name(m.File), m.Line, m.Text)
	}
	fmt.Fprintf(&b, "%d match(es) in %d files searched", len(res.Matches), res.Searched)
	if res.Truncated {
		fmt.Fprintf(&b, " (stopped at %d; narrow the pattern or path)", limit)
	}
	return b.String()
}

// Files lists the files a glob found.
func Files(pattern string, files []string, more bool, limit int) string {
	if len(files) == 0 {
		return fmt.Sprintf("No file matches %q.", pattern)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = textfmt.Name(f)
	}
	out := strings.Join(names, "\n")
	if more {
		out += fmt.Sprintf("\n(first %d shown)", limit)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func indent(text, prefix string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}

// Indexed is what `scry index` prints: the sync's one-line summary, or on
// a shared index what publishing the repository's tenant sent.
func Indexed(r engine.Indexed) string {
	sum := r.Published
	if sum == nil {
		return r.Sync.String()
	}
	rate := 0.0
	if s := sum.Elapsed.Seconds(); s > 0 {
		rate = float64(sum.Chunks) / s
	}
	swept := ""
	if sum.Swept > 0 {
		swept = fmt.Sprintf("; %d leftover chunks of an interrupted sync removed", sum.Swept)
	}
	return fmt.Sprintf("%s: %d files: %d sent (%d chunks, %.0f chunks/s), %d unchanged, %d deleted, %d changed during the sync (sent next time)%s",
		r.Repo, sum.Files, sum.Sent, sum.Chunks, rate, sum.Unchanged, sum.Deleted, sum.Skipped, swept)
}
