package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
)

// navigator answers navigation questions with the compiler. Without one,
// the engine answers from the index and says the answer is approximate.
type navigator interface {
	References(ctx context.Context, c chunk.Chunk, limit int) ([]Site, error)
	Implementations(ctx context.Context, c chunk.Chunk) ([]Location, error)
	DefinitionAt(ctx context.Context, absFile string, line, column int) ([]Location, error)
}

// Location is a declaration found by the compiler.
type Location struct {
	File      string // relative to the root, or a package path outside it
	Line      int
	Name      string
	Kind      string
	Signature string
	External  bool // in node_modules or a .d.ts outside the workspace
}

const approxNote = "(approximate: from the index, TypeScript server unavailable)"

// Outline lists the symbols of a file, or of every file under a directory,
// with nesting, kinds and line ranges.
func (e *Engine) Outline(rel string, kinds []string) (string, error) {
	files, err := e.store.Files()
	if err != nil {
		return "", err
	}
	var paths []string
	if _, ok := files[rel]; ok {
		paths = []string{rel}
	} else {
		prefix := strings.TrimSuffix(rel, "/") + "/"
		if rel == "" || rel == "." {
			prefix = ""
		}
		for p := range files {
			if strings.HasPrefix(p, prefix) {
				paths = append(paths, p)
			}
		}
		sort.Strings(paths)
	}
	if len(paths) == 0 {
		return "", fmt.Errorf("list_symbols: %s is not an indexed file or a directory holding one", rel)
	}
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	var b strings.Builder
	const maxLines = 2000
	lines := 0
	for _, p := range paths {
		cs, err := e.store.ChunksByFile(p)
		if err != nil {
			return "", err
		}
		byParent := map[string][]chunk.Chunk{}
		for _, c := range cs {
			byParent[c.ParentChunkID] = append(byParent[c.ParentChunkID], c)
		}
		fmt.Fprintf(&b, "%s\n", p)
		var walk func(parent string, depth int)
		walk = func(parent string, depth int) {
			kids := byParent[parent]
			sort.SliceStable(kids, func(i, j int) bool { return kids[i].StartLine < kids[j].StartLine })
			for _, c := range kids {
				if lines >= maxLines {
					return
				}
				show := !statementKind(c.NodeKind) && (len(want) == 0 || want[c.NodeKind])
				if show {
					mods := ""
					if len(c.Modifiers) > 0 {
						mods = " [" + strings.Join(c.Modifiers, " ") + "]"
					}
					fmt.Fprintf(&b, "%s%s %s%s %d-%d\n", strings.Repeat("  ", depth+1), c.NodeKind, c.Name, mods, c.StartLine, c.EndLine)
					lines++
				}
				walk(c.ID, depth+1)
			}
		}
		walk("", 0)
		if lines >= maxLines {
			fmt.Fprintf(&b, "(outline stopped at %d symbols; list a narrower path)\n", maxLines)
			break
		}
	}
	return b.String(), nil
}

// IsStatementKind reports whether a chunk kind is a statement rather than a
// named declaration (imports, re-exports, expressions, comments).
func IsStatementKind(k string) bool { return statementKind(k) }

func statementKind(k string) bool {
	switch k {
	case "import", "re-export", "comment", "expression", "statement":
		return true
	}
	return false
}

// Info renders one symbol's metadata in the connection graph's
// single-result format.
func (e *Engine) Info(ctx context.Context, c chunk.Chunk, callDepth int) (string, error) {
	d, err := e.describe(ctx, c, callDepth)
	if err != nil {
		return "", err
	}
	text, _ := graph.Render(graph.Input{Query: DisplayName(c), Results: []graph.Result{d}})
	// Drop the search summary line: this is an answer about one symbol.
	if i := strings.Index(text, "\n\n"); i >= 0 && strings.HasPrefix(text, "Search:") {
		text = text[i+2:]
	}
	return strings.TrimRight(text, "\n"), nil
}

// ReferencesText lists a symbol's uses grouped by file.
func (e *Engine) ReferencesText(ctx context.Context, c chunk.Chunk, limit int) (string, error) {
	var sites []Site
	var err error
	nav := e.nav()
	approx := nav == nil
	if !approx {
		sites, err = nav.References(ctx, c, limit)
		if err != nil {
			approx = true
		}
	}
	if approx {
		if sites, err = e.TextReferences(c, limit); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	files := map[string]bool{}
	for _, s := range sites {
		files[s.File] = true
	}
	fmt.Fprintf(&b, "%s — %s:%d: %d reference(s) in %d file(s)", DisplayName(c), c.RelativePath, NameLine(c), len(sites), len(files))
	if approx {
		b.WriteString(" " + approxNote)
	}
	b.WriteByte('\n')
	cur := ""
	for _, s := range sites {
		if s.File != cur {
			cur = s.File
			fmt.Fprintf(&b, "%s\n", cur)
		}
		fmt.Fprintf(&b, "  %d [%s] %s\n", s.Line, s.Context, s.Text)
	}
	if limit > 0 && len(sites) >= limit {
		fmt.Fprintf(&b, "(first %d shown)\n", limit)
	}
	return b.String(), nil
}

// ImplementationsText lists the subtypes of a class or interface.
func (e *Engine) ImplementationsText(ctx context.Context, c chunk.Chunk) (string, error) {
	var b strings.Builder
	if nav := e.nav(); nav != nil {
		locs, err := nav.Implementations(ctx, c)
		if err == nil {
			fmt.Fprintf(&b, "%s — %s: %d implementation(s)\n", DisplayName(c), c.RelativePath, len(locs))
			for _, l := range locs {
				fmt.Fprintf(&b, "  %s %s — %s:%d\n", l.Kind, l.Name, l.File, l.Line)
			}
			return b.String(), nil
		}
	}
	impls, err := e.TextImplementations(c)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "%s — %s: %d implementation(s) %s\n", DisplayName(c), c.RelativePath, len(impls), approxNote)
	for _, i := range impls {
		fmt.Fprintf(&b, "  %s %s — %s:%d-%d\n", i.NodeKind, i.Name, i.RelativePath, i.StartLine, i.EndLine)
	}
	return b.String(), nil
}

// DefinitionAt resolves the symbol used at a position to its declaration.
func (e *Engine) DefinitionAt(ctx context.Context, absFile string, line, column int) (string, error) {
	if nav := e.nav(); nav != nil {
		locs, err := nav.DefinitionAt(ctx, absFile, line, column)
		if err == nil {
			if len(locs) == 0 {
				return "No definition found at that position.", nil
			}
			var b strings.Builder
			for _, l := range locs {
				where := fmt.Sprintf("%s:%d", l.File, l.Line)
				if l.External {
					where += " (outside the workspace)"
				}
				fmt.Fprintf(&b, "%s %s — %s\n", l.Kind, l.Name, where)
				if l.Signature != "" {
					fmt.Fprintf(&b, "    %s\n", l.Signature)
				}
			}
			return b.String(), nil
		}
	}
	// Syntactic: the identifier under the cursor, looked up by name.
	name, err := identifierAt(absFile, line, column)
	if err != nil {
		return "", err
	}
	cs, err := e.Resolve(name)
	if err != nil {
		return "", err
	}
	if len(cs) == 0 {
		return fmt.Sprintf("No declaration of %q in the workspace %s.", name, approxNote), nil
	}
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s %s — %s:%d-%d\n", c.NodeKind, DisplayName(c), c.RelativePath, c.StartLine, c.EndLine)
	}
	b.WriteString(approxNote + "\n")
	return b.String(), nil
}
