package answer

import (
	"cmp"
	"context"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/workspace"
)

// Impact is what a change affects: the symbols it changes and, for each,
// who calls it and uses it (from the compiler when attached), the files
// importing a changed export, and the test files that reach any of them.
type Impact struct {
	// Rev is the change asked about: "" for the working tree against
	// HEAD, else the revision or range.
	Rev   string        `json:"rev,omitempty"`
	Depth int           `json:"depth"`
	Files []ChangedFile `json:"files"`
	// Symbols are the changed declarations, the widest blast radius first.
	Symbols []ChangedSymbol `json:"symbols"`
	// Tests are the test files that reach a changed symbol, nearest first.
	Tests []ImpactTest `json:"tests"`
	// Approximate: some structure came from the index (Reason says why).
	Approximate bool   `json:"approximate,omitempty"`
	Reason      string `json:"approximate_reason,omitempty"`
}

// ChangedSymbol is a declaration a change touches and its blast radius.
type ChangedSymbol struct {
	Declaration
	Exported bool `json:"exported,omitempty"`
	// Callers are the transitive callers to Impact.Depth, nearest first.
	Callers []ImpactCaller `json:"callers,omitempty"`
	// References counts the uses in each file (the symbol's own
	// declaration left out), most first.
	References []FileCount `json:"references,omitempty"`
	// Importers are the files importing a changed export.
	Importers []string `json:"importers,omitempty"`
}

// ImpactCaller is one caller in a transitive caller tree.
type ImpactCaller struct {
	Name  string `json:"name"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	Depth int    `json:"depth"` // 1: calls the changed symbol directly
}

// FileCount is a number of uses in one file.
type FileCount struct {
	File  string `json:"file"`
	Count int    `json:"count"`
}

// ImpactTest is a test file that reaches a changed symbol, and how.
type ImpactTest struct {
	File string `json:"file"`
	// Via names what it reaches first: a changed symbol it uses or calls,
	// or the file it imports on the way ("" when it changed itself).
	Via string `json:"via"`
	// Hops is how many import steps lie between it and a changed file
	// (0: it uses a changed symbol itself).
	Hops int `json:"hops"`
}

// DefaultImpactDepth is how far callers and importers are followed.
const DefaultImpactDepth = 3

// maxImpactSymbols bounds the changed symbols examined: a change to
// thousands of declarations is answered for its first ones.
const maxImpactSymbols = 200

// Impact answers "what does this change affect?" for the working tree
// against HEAD (rev ""), the working tree against a revision, or a range
// A..B, following callers and importers depth steps (≤0: the default).
func (x Local) Impact(ctx context.Context, rev string, depth int) (Impact, error) {
	if depth <= 0 {
		depth = DefaultImpactDepth
	}
	files, err := gitChanges(ctx, x.Root.Dir(), rev)
	if err != nil {
		return Impact{}, err
	}
	imp := Impact{Rev: rev, Depth: depth, Files: []ChangedFile{}, Symbols: []ChangedSymbol{}, Tests: []ImpactTest{}}
	for _, f := range files {
		if workspace.IsSupported(f.Path) {
			imp.Files = append(imp.Files, f)
		}
	}
	syms, err := x.changedSymbols(imp.Files)
	if err != nil {
		return imp, err
	}
	reached := map[string]string{} // file -> via, for the test search
	for _, f := range imp.Files {
		reached[f.Path] = "" // changed itself
	}
	for _, c := range syms {
		if err := ctx.Err(); err != nil {
			return imp, err
		}
		cs := ChangedSymbol{Declaration: declarationOf(c), Exported: c.Exported}
		s := Symbol{Declaration: cs.Declaration, c: c}
		tree, err := x.Callers(ctx, s, depth)
		if err != nil {
			return imp, err
		}
		if tree.Approximate {
			x.noteReason(&imp, tree.Reason)
			x.noteReason(&imp, ReasonNoServer)
		}
		cs.Callers = flattenCallers(tree.Callers, 1, nil)
		refs, err := x.References(ctx, s, 0)
		if err != nil {
			return imp, err
		}
		if refs.Approximate {
			x.noteReason(&imp, refs.Reason)
			x.noteReason(&imp, ReasonNoServer)
		}
		counts := map[string]int{}
		for _, site := range refs.Sites {
			if site.Context == "declaration" {
				continue
			}
			counts[site.File]++
		}
		for f, n := range counts {
			cs.References = append(cs.References, FileCount{File: f, Count: n})
		}
		// The code's files before the tests' and auxiliary code's, each
		// part by how often it uses the symbol.
		slices.SortFunc(cs.References, func(a, b FileCount) int {
			return cmp.Or(pathclass.Compare(a.File, b.File), cmp.Compare(b.Count, a.Count), strings.Compare(a.File, b.File))
		})
		if c.Exported && c.Depth == 0 {
			cs.Importers = x.importersOf(c.RelativePath, c.Name)
		}
		for _, cl := range cs.Callers {
			if _, ok := reached[cl.File]; !ok {
				reached[cl.File] = cs.Name
			}
		}
		for _, r := range cs.References {
			if _, ok := reached[r.File]; !ok {
				reached[r.File] = cs.Name
			}
		}
		for _, f := range cs.Importers {
			if _, ok := reached[f]; !ok {
				reached[f] = cs.Name
			}
		}
		imp.Symbols = append(imp.Symbols, cs)
	}
	imp.Tests = x.testsReaching(reached, depth)
	// The widest blast radius first, so that a budget cuts the narrowest.
	sort.SliceStable(imp.Symbols, func(i, j int) bool { return radius(imp.Symbols[i]) > radius(imp.Symbols[j]) })
	return imp, nil
}

// radius is how much a changed symbol reaches: its callers, the files
// using it and the files importing it.
func radius(s ChangedSymbol) int { return len(s.Callers) + len(s.References) + len(s.Importers) }

// noteReason records why some structure came from the index.
func (x Local) noteReason(imp *Impact, reason string) {
	if reason == "" {
		return
	}
	imp.Approximate = true
	if imp.Reason == "" {
		imp.Reason = reason
	}
}

// changedSymbols are the declarations around the changed lines: for each
// line, the innermost named declaration holding it; a deleted file has
// none left in the index.
func (x Local) changedSymbols(files []ChangedFile) ([]chunk.Chunk, error) {
	var out []chunk.Chunk
	seen := map[string]bool{}
	for _, f := range files {
		if f.Status == "deleted" {
			continue
		}
		cs, err := x.Store.ChunksByFile(f.Path)
		if err != nil {
			return nil, err
		}
		for _, r := range f.Lines {
			for _, c := range innermost(cs, r[0], r[1]) {
				if !seen[c.ID] && len(out) < maxImpactSymbols {
					seen[c.ID] = true
					out = append(out, c)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].RelativePath != out[j].RelativePath {
			return out[i].RelativePath < out[j].RelativePath
		}
		return out[i].StartLine < out[j].StartLine
	})
	return out, nil
}

// innermost are the deepest named declarations overlapping lines lo..hi
// whose changed lines no deeper declaration covers.
func innermost(cs []chunk.Chunk, lo, hi int) []chunk.Chunk {
	var hits []chunk.Chunk
	for _, c := range cs {
		if c.EndLine < lo || c.StartLine > hi || !named(c) || !declarationKind(c.NodeKind) {
			continue
		}
		hits = append(hits, c)
	}
	// Drop a declaration when one nested in it is hit too and covers the
	// whole changed range within it: a change inside a method is the
	// method's, not its class's.
	var out []chunk.Chunk
	for _, c := range hits {
		inner := false
		for _, d := range hits {
			if d.ID != c.ID && d.StartLine >= c.StartLine && d.EndLine <= c.EndLine && d.Depth > c.Depth &&
				max(lo, c.StartLine) >= d.StartLine && min(hi, c.EndLine) <= d.EndLine {
				inner = true
				break
			}
		}
		if !inner {
			out = append(out, c)
		}
	}
	return out
}

// declarationKind reports whether a chunk kind declares something callers
// and references can reach (not an import, comment or bare statement).
func declarationKind(kind string) bool {
	switch kind {
	case "import", "import_statement", "comment", "expression_statement", "export_statement", "re-export", "statement":
		return false
	}
	return true
}

// flattenCallers lists a caller tree breadth-first by depth, each caller
// once (at its nearest depth), at each depth the code's callers before the
// tests' and auxiliary code's.
func flattenCallers(cs []structure.IncomingCaller, depth int, seen map[string]bool) []ImpactCaller {
	if seen == nil {
		seen = map[string]bool{}
	}
	var out []ImpactCaller
	level := cs
	for d := depth; len(level) > 0; d++ {
		level = slices.Clone(level)
		slices.SortStableFunc(level, func(a, b structure.IncomingCaller) int {
			return pathclass.Compare(a.File, b.File)
		})
		var next []structure.IncomingCaller
		for _, c := range level {
			name := c.QualifiedName()
			key := c.File + ":" + name
			if c.External || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, ImpactCaller{Name: name, File: c.File, Line: c.Line, Depth: d})
			next = append(next, c.IncomingCallers...)
		}
		level = next
	}
	return out
}

// importersOf are the files importing name from file (or all of the file,
// through a namespace import or a re-export of everything).
func (x Local) importersOf(file, name string) []string {
	imps, err := x.importers(context.Background(), file, false)
	if err != nil {
		return nil
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b|\*`)
	seen := map[string]bool{}
	var out []string
	for _, im := range imps {
		if im.File == file || seen[im.File] || !word.MatchString(im.Statement) {
			continue
		}
		seen[im.File] = true
		out = append(out, im.File)
	}
	return out // in importers' order: the code's files first
}

// testsReaching finds the test files among the reached files, then follows
// importers of the reached non-test files up to depth steps for more.
func (x Local) testsReaching(reached map[string]string, depth int) []ImpactTest {
	tests := []ImpactTest{}
	seen := map[string]bool{}
	var frontier []string
	for f := range reached {
		frontier = append(frontier, f)
	}
	sort.Strings(frontier)
	for _, f := range frontier {
		seen[f] = true
		if pathclass.Test(f) {
			tests = append(tests, ImpactTest{File: f, Via: reached[f], Hops: 0})
		}
	}
	// A changed file's own importers are not followed wholesale: those
	// that import a changed export are among the reached files already,
	// and the others import only what did not change.
	var spread []string
	for _, f := range frontier {
		if reached[f] != "" {
			spread = append(spread, f)
		}
	}
	frontier = spread
	for hop := 1; hop <= depth && len(frontier) > 0; hop++ {
		var next []string
		for _, f := range frontier {
			if pathclass.Test(f) {
				continue
			}
			imps, err := x.importers(context.Background(), f, false)
			if err != nil {
				continue
			}
			for _, im := range imps {
				if seen[im.File] {
					continue
				}
				seen[im.File] = true
				next = append(next, im.File)
				if pathclass.Test(im.File) {
					tests = append(tests, ImpactTest{File: im.File, Via: path.Clean(f), Hops: hop})
				}
			}
		}
		sort.Strings(next)
		frontier = next
	}
	sort.SliceStable(tests, func(i, j int) bool {
		if tests[i].Hops != tests[j].Hops {
			return tests[i].Hops < tests[j].Hops
		}
		return tests[i].File < tests[j].File
	})
	return tests
}
