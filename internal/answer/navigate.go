package answer

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/textfmt"
)

// resolve finds the declarations a symbol path names (`[file >] [Parent >]
// name`, or Parent.name): all of them when the name is ambiguous, none (not
// an error) when nothing matches.
func (x Local) resolve(symbol string) ([]chunk.Chunk, error) {
	sp, _, err := search.ParseSymbolPath(symbol)
	if err != nil {
		return nil, err
	}
	if sp.File != "" {
		if _, rel, err := x.Root.Canonical(sp.File); err == nil && rel != "" {
			sp.File = rel
		} else if err != nil && strings.Contains(err.Error(), "outside") {
			return nil, fmt.Errorf("symbol %q: %w", symbol, err)
		}
	}
	cs, err := search.LookupSymbol(x.Store, sp, nil, nil)
	if err != nil {
		return nil, err
	}
	var out []chunk.Chunk
	for _, c := range cs {
		if !statementKind(c.NodeKind) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Site is one place a symbol is used.
type Site struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Text    string `json:"text"`
	Context string `json:"context"` // call, new, import, type, write, read, declaration
}

// usage classifies how a line uses a name: enough for an agent to tell
// callers from imports from type positions at a glance.
func usage(line string, col int, name string) string {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "export ") && strings.Contains(t, " from ") || strings.Contains(t, "require(") {
		return "import"
	}
	before := strings.TrimRight(line[:max(0, col)], " \t")
	after := strings.TrimLeft(line[min(len(line), col+len(name)):], " \t")
	switch {
	case strings.HasSuffix(before, "new"):
		return "new"
	case strings.HasPrefix(after, "(") || strings.HasPrefix(after, "<") && strings.Contains(after, ">(") || strings.HasPrefix(after, "`"):
		return "call"
	case strings.HasSuffix(before, ":") || strings.HasSuffix(before, "extends") || strings.HasSuffix(before, "implements") ||
		strings.HasSuffix(before, "<") || strings.HasSuffix(before, "|") || strings.HasSuffix(before, "&") ||
		strings.HasSuffix(before, "as") || strings.HasSuffix(before, "satisfies") || strings.HasSuffix(before, "keyof") || strings.HasSuffix(before, "typeof"):
		return "type"
	case (strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "==") && !strings.HasPrefix(after, "=>")) ||
		strings.HasPrefix(after, "+=") || strings.HasPrefix(after, "-=") || strings.HasPrefix(after, "++") || strings.HasPrefix(after, "--"):
		return "write"
	}
	return "read"
}

// textReferences finds the whole-word occurrences of a declaration's name in
// the indexed files: the syntactic stand-in for compiler references. It
// cannot tell a same-named symbol apart, which is why callers mark it
// approximate.
func (x Local) textReferences(c chunk.Chunk, limit int) ([]Site, error) {
	name := definedName(c)
	if !ident.Is(strings.TrimPrefix(name, "#")) {
		return nil, nil
	}
	files, err := x.Store.FilesReferencing(name, "")
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b string) int { return cmp.Or(pathclass.Compare(a, b), strings.Compare(a, b)) })
	re := regexp.MustCompile(`(?:^|[^` + identChars + `#])(` + regexp.QuoteMeta(name) + `)(?:$|[^` + identChars + `])`)
	var out []Site
	for _, f := range files {
		abs, _, err := x.Root.Resolve(f)
		if err != nil {
			continue
		}
		b, err := x.readFile(abs)
		if err != nil {
			continue
		}
		starts := lines.Starts(b)
		for n := 1; n <= lines.Total(starts, len(b)); n++ {
			line := string(b[starts[n-1]:lines.End(b, starts, n)])
			loc := re.FindStringSubmatchIndex(line)
			if loc == nil {
				continue
			}
			col := loc[2]
			ctx := usage(line, col, name)
			if f == c.RelativePath && n == nameLine(c) {
				ctx = "declaration"
			}
			out = append(out, Site{File: f, Line: n, Column: col + 1, Text: clip(strings.TrimSpace(line)), Context: ctx})
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
	}
	return out, nil
}

// identChars is the identifier rule (internal/ident) as a regexp character
// class body, non-ASCII included: RE2's \w and \b know ASCII only, and would
// find "caf" inside "café".
const identChars = `\p{L}\p{N}\p{M}\p{Pc}$`

// clip bounds a reference's line of source in an answer, cutting between
// characters.
func clip(s string) string { return textfmt.Clip(s, 200) }

// textImplementations lists classes and interfaces whose heritage clause
// names the declaration (syntactic).
func (x Local) textImplementations(c chunk.Chunk) ([]chunk.Chunk, error) {
	ids, err := x.Store.ChunksReferencing(c.Name, "")
	if err != nil {
		return nil, err
	}
	re := regexp.MustCompile(`\b(extends|implements)\b[^{]*(?:^|[^` + identChars + `])` + regexp.QuoteMeta(c.Name) + `(?:$|[^` + identChars + `])`)
	var out []chunk.Chunk
	for _, id := range ids {
		cand, err := x.Store.Chunk(id)
		if err != nil {
			continue
		}
		if cand.NodeKind != "class" && cand.NodeKind != "interface" && cand.NodeKind != "component" {
			continue
		}
		if re.MatchString(cand.Signature) && cand.ID != c.ID {
			out = append(out, cand)
		}
	}
	return out, nil
}

// Importer is one import of a module.
type Importer struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Statement string `json:"statement"`
	// Via says how the import reaches the file when a relative path does
	// not: a tsconfig paths alias or baseUrl, a workspace package's name,
	// or a barrel that re-exports it (`export * from`).
	Via string `json:"via,omitempty"`
}

// maxBarrelDepth bounds the chain of barrels re-exporting a file that
// importers are followed through.
const maxBarrelDepth = 8

// Importers lists the import statements (ES imports, re-exports, require)
// that load a module: a workspace file (relative specifiers resolved, `.js`
// standing for `.ts`, directory index files) or a package name. When the
// target is a symbol name, only imports that bind it are listed.
//
// Specifiers are resolved from the workspace's files and the index; when
// TypeScript 7 runs, the references it knows to the file's exported
// declarations add the import lines it resolved another way (a tsconfig
// extended from a package, say), so the list is the compiler's too.
func (x Local) Importers(ctx context.Context, target string) ([]Importer, error) {
	return x.importers(ctx, target, true)
}

// maxCompilerImportNames bounds the exported declarations whose references
// the compiler is asked for, one request each.
const maxCompilerImportNames = 64

// importers is Importers, with the compiler asked only when withCompiler
// (impact, which asks for many files, keeps to the index).
func (x Local) importers(ctx context.Context, target string, withCompiler bool) ([]Importer, error) {
	if target == "" {
		return nil, fmt.Errorf("find_importers: empty module")
	}
	var wantFile, wantPkg, wantName string
	if strings.Contains(target, "/") || strings.Contains(target, ".") {
		if _, rel, err := x.Root.Canonical(target); err == nil && x.fileIndexed(rel) {
			wantFile = rel
		} else if strings.HasPrefix(target, ".") || strings.HasPrefix(target, "/") {
			if err != nil {
				return nil, fmt.Errorf("find_importers: %w", err)
			}
			return nil, fmt.Errorf("find_importers: %s is not an indexed file", textfmt.Name(target))
		} else {
			wantPkg = target
		}
	} else if cs, _ := x.resolve(target); len(cs) > 0 {
		wantName = target
		wantFile = cs[0].RelativePath
	} else {
		wantPkg = target
	}
	rows, err := x.Store.FindSymbols(store.SymbolQuery{Name: "import:", Match: store.MatchPrefix, Limit: 1 << 20, IncludeStatements: true})
	if err != nil {
		return nil, err
	}
	reexports, err := x.Store.FindSymbols(store.SymbolQuery{Name: "re-export:", Match: store.MatchPrefix, Limit: 1 << 20, IncludeStatements: true})
	if err != nil {
		return nil, err
	}
	rows = append(rows, reexports...)
	specOf := func(c chunk.Chunk) string { return c.Name[strings.IndexByte(c.Name, ':')+1:] }
	mr := x.newModuleResolver()
	// names are what an import must bind to reach the target through a
	// barrel: the name asked for, or the file's exports.
	names := []string{wantName}
	if wantName == "" && wantFile != "" {
		names = x.exportedNames(wantFile)
	}
	binds := func(c chunk.Chunk) bool {
		if strings.Contains(c.FullSource, "*") {
			return true
		}
		for _, n := range names {
			if n != "" && containsWord(c.FullSource, n) {
				return true
			}
		}
		return false
	}
	var out []Importer
	listed := map[string]bool{}
	add := func(c chunk.Chunk, via string) {
		key := fmt.Sprintf("%s:%d", c.RelativePath, c.StartLine)
		if listed[key] {
			return
		}
		listed[key] = true
		out = append(out, Importer{File: c.RelativePath, Line: c.StartLine, Statement: strings.Join(strings.Fields(c.FullSource), " "), Via: via})
	}
	for _, c := range rows {
		spec := specOf(c)
		match, via := false, ""
		switch {
		case wantPkg != "":
			match = spec == wantPkg || strings.HasPrefix(spec, wantPkg+"/")
		case wantFile != "":
			match, via = mr.resolvesTo(c.RelativePath, spec, wantFile)
		}
		if match && wantName != "" && !containsWord(c.FullSource, wantName) && !strings.Contains(c.FullSource, "*") {
			match = false
		}
		if match {
			add(c, via)
		}
	}
	if wantFile != "" {
		// Barrels: files re-exporting the target (transitively), whose own
		// importers reach it through them.
		barrels := map[string]bool{wantFile: true}
		frontier, order := []string{wantFile}, []string(nil)
		for depth := 0; depth < maxBarrelDepth && len(frontier) > 0; depth++ {
			var next []string
			for _, f := range frontier {
				for _, c := range reexports {
					if barrels[c.RelativePath] || !binds(c) {
						continue
					}
					if ok, _ := mr.resolvesTo(c.RelativePath, specOf(c), f); ok {
						barrels[c.RelativePath] = true
						next = append(next, c.RelativePath)
					}
				}
			}
			order = append(order, next...)
			frontier = next
		}
		for _, b := range order {
			for _, c := range rows {
				if c.RelativePath == b || !binds(c) {
					continue
				}
				if ok, how := mr.resolvesTo(c.RelativePath, specOf(c), b); ok {
					via := "the barrel " + b
					if how != "" {
						via += " (through " + how + ")"
					}
					add(c, via)
				}
			}
		}
	}
	if wantFile != "" && withCompiler {
		x.compilerImporters(ctx, wantFile, wantName, rows, add)
	}
	// The code's imports before the tests' and auxiliary code's (a
	// package's 155 importers in TanStack router began with benchmarks/),
	// by file and line within each.
	slices.SortFunc(out, func(a, b Importer) int {
		return cmp.Or(pathclass.Compare(a.File, b.File), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return out, nil
}

// viaCompiler is how an importer that only TypeScript 7 resolved reaches
// the file.
const viaCompiler = "TypeScript 7's module resolution"

// compilerImporters asks TypeScript 7, when it runs, for the references to
// file's exported declarations (only name's, when given) and adds the
// import and re-export statements (rows) those references fall in. An
// answer the compiler cannot give leaves the index's list as it is.
func (x Local) compilerImporters(ctx context.Context, file, name string, rows []chunk.Chunk, add func(chunk.Chunk, string)) {
	comp, _ := x.compiler(ctx)
	if comp == nil {
		return
	}
	cs, err := x.Store.ChunksByFile(file)
	if err != nil {
		return
	}
	byFile := map[string][]chunk.Chunk{}
	for _, c := range rows {
		byFile[c.RelativePath] = append(byFile[c.RelativePath], c)
	}
	src := compilerSource{comp, x.Root.Dir()}
	asked := 0
	for _, c := range cs {
		if !c.Exported || c.ParentChunkID != "" || statementKind(c.NodeKind) || !named(c) || name != "" && c.Name != name {
			continue
		}
		if asked++; asked > maxCompilerImportNames || ctx.Err() != nil {
			return
		}
		sites, err := src.references(ctx, c, 0)
		if err != nil {
			return // not answering: the rest would not be either
		}
		for _, s := range sites {
			if s.File == file {
				continue
			}
			for _, r := range byFile[s.File] {
				if s.Line >= r.StartLine && s.Line <= r.EndLine {
					add(r, viaCompiler)
				}
			}
		}
	}
}

// exportedNames are the names a file's top-level exported declarations
// declare.
func (x Local) exportedNames(rel string) []string {
	cs, err := x.Store.ChunksByFile(rel)
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range cs {
		// A line of several declarations is a "statement" named after them.
		if !c.Exported || c.ParentChunkID != "" || statementKind(c.NodeKind) && c.NodeKind != "statement" {
			continue
		}
		for _, n := range strings.Split(c.Name, ", ") {
			if ident.Is(n) {
				out = append(out, n)
			}
		}
	}
	return out
}

func (x Local) fileIndexed(rel string) bool {
	cs, err := x.Store.ChunksByFile(rel)
	return err == nil && len(cs) > 0
}

// statementKind reports whether a chunk kind is a statement rather than a
// named declaration (imports, re-exports, expressions, comments).
func statementKind(k string) bool {
	switch k {
	case "import", "re-export", "comment", "expression", "statement":
		return true
	}
	return false
}
