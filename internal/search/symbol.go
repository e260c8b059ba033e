package search

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/pathclass"
)

// SymbolPath is a parsed `symbol = [file >] [Parent >]... name` query.
type SymbolPath struct {
	File    string   // relative path or path suffix; "" for any file
	Parents []string // enclosing symbols, outermost first
	Name    string
}

func (p SymbolPath) String() string {
	parts := append([]string{}, p.Parents...)
	parts = append(parts, p.Name)
	if p.File != "" {
		parts = append([]string{p.File}, parts...)
	}
	return strings.Join(parts, " > ")
}

// maxSymbolQuery bounds the symbol path an agent can send; real paths are a
// few hundred bytes at most.
const maxSymbolQuery = 4096

// ParseSymbolQuery recognises the `symbol = ` prefix. It returns ok=false for
// natural-language queries, and an error for a symbol query that names no
// symbol.
func ParseSymbolQuery(q string) (SymbolPath, bool, error) {
	t := strings.TrimSpace(q)
	rest, ok := cutPrefixFold(t, "symbol")
	if !ok {
		return SymbolPath{}, false, nil
	}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "=") {
		return SymbolPath{}, false, nil
	}
	return ParseSymbolPath(rest[1:])
}

// ParseSymbolPath parses `[file >] [Parent >]... name`; `Parent.name` is
// accepted for a single segment too.
func ParseSymbolPath(s string) (SymbolPath, bool, error) {
	if len(s) > maxSymbolQuery {
		return SymbolPath{}, true, fmt.Errorf("symbol path too long (%d bytes, at most %d)", len(s), maxSymbolQuery)
	}
	var segs []string
	for _, seg := range strings.Split(s, ">") {
		if seg = strings.TrimSpace(seg); seg != "" {
			segs = append(segs, seg)
		}
	}
	if len(segs) == 0 {
		return SymbolPath{}, true, fmt.Errorf("symbol query names no symbol: use `symbol = Name` or `symbol = file.ts > Parent > name`")
	}
	var p SymbolPath
	if looksLikeFile(segs[0]) && len(segs) > 1 {
		p.File = strings.TrimPrefix(strings.ReplaceAll(segs[0], "\\", "/"), "./")
		segs = segs[1:]
	}
	if len(segs) == 1 && p.File == "" && strings.Contains(segs[0], ".") && !strings.HasPrefix(segs[0], ".") && !looksLikeFile(segs[0]) {
		// TokenService.validateToken
		var dot []string
		for _, d := range strings.Split(segs[0], ".") {
			if d = strings.TrimSpace(d); d != "" {
				dot = append(dot, d)
			}
		}
		if len(dot) == 0 {
			return SymbolPath{}, true, fmt.Errorf("symbol query names no symbol: %q", s)
		}
		segs = dot
	}
	p.Name = segs[len(segs)-1]
	p.Parents = segs[:len(segs)-1]
	return p, true, nil
}

func looksLikeFile(s string) bool {
	return strings.Contains(s, "/") || parse.LanguageOf(s) != ""
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return "", false
	}
	return s[len(prefix):], true
}

// LookupSymbol finds the chunks a symbol path names exactly: every match when
// the name is ambiguous, none (not an error) when nothing matches. Several
// matches come in the order an agent most likely means them: the code's
// before its tests' and auxiliary code's; an implementation before a
// declaration file's (fastify.js's fastify before fastify.d.ts's); a
// function, class or type before
// a variable that holds one (mocha's class Runner before lib/mocha.cjs's
// `exports.Runner = require('./runner')`); an implementation before an
// interface's signature of the name (AuthConfig's getSecret before
// ConfigProvider's); a file's top-level declaration
// before one nested in a function (vue's nextTick before the test helper
// of that name in a describe() callback).
func LookupSymbol(st Reader, p SymbolPath, paths, languages []string) ([]chunk.Chunk, error) {
	out, err := lookupSymbol(st, p, paths, languages)
	slices.SortStableFunc(out, func(a, b chunk.Chunk) int {
		return cmp.Or(pathclass.Compare(a.RelativePath, b.RelativePath),
			cmp.Compare(b2i(pathclass.Decl(a.RelativePath)), b2i(pathclass.Decl(b.RelativePath))),
			cmp.Compare(b2i(!isCallableOrType(a.NodeKind)), b2i(!isCallableOrType(b.NodeKind))),
			cmp.Compare(b2i(isSignature(a)), b2i(isSignature(b))),
			cmp.Compare(a.Depth, b.Depth))
	})
	return out, err
}

// isSignature says whether c is a member of an interface or object type,
// a declaration without code of its own.
func isSignature(c chunk.Chunk) bool {
	return slices.Contains(c.Modifiers, parse.SignatureModifier)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func lookupSymbol(st Reader, p SymbolPath, paths, languages []string) ([]chunk.Chunk, error) {
	out, err := lookupExact(st, p, paths, languages)
	if err != nil {
		return nil, err
	}
	if len(p.Parents) == 0 {
		// A bare name is every declaration of it: a class's method `run`,
		// and so `Runner.prototype.run = function …` too, the method of
		// JavaScript written before classes, named by the path it is
		// assigned to.
		assigned, err := lookupAssigned(st, p, paths, languages)
		return append(out, assigned...), err
	}
	if len(out) > 0 {
		return out, nil
	}
	// JavaScript written before classes names a method by the path it is
	// assigned to (Mocha.prototype.retries = function …): Mocha > retries,
	// Mocha.retries and Mocha.prototype.retries name that symbol exactly.
	for _, q := range assignedPaths(p) {
		if out, err = lookupExact(st, q, paths, languages); len(out) > 0 || err != nil {
			return out, err
		}
	}
	return nil, nil
}

func lookupExact(st Reader, p SymbolPath, paths, languages []string) ([]chunk.Chunk, error) {
	cands, err := st.ChunksByName(p.Name)
	if err != nil {
		return nil, fmt.Errorf("lookup %s: %w", p, err)
	}
	var out []chunk.Chunk
	for _, c := range cands {
		if p.File != "" && c.RelativePath != p.File && !strings.HasSuffix(c.RelativePath, "/"+p.File) {
			continue
		}
		if !parentsMatch(c.Breadcrumb, p.Parents) {
			continue
		}
		if !matchesFilters(c.RelativePath, paths, languages) {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// maxAssigned bounds the definitions assigned to paths that one bare name
// brings in (mocha has a few dozen of each common method name at most).
const maxAssigned = 200

// lookupAssigned finds the definitions assigned to a path whose last name
// is p.Name (ident.Assigned), in full, by path and line.
func lookupAssigned(st Reader, p SymbolPath, paths, languages []string) ([]chunk.Chunk, error) {
	named, err := st.ChunksNamed([]string{p.Name}, maxAssigned)
	if err != nil {
		return nil, fmt.Errorf("lookup %s: %w", p, err)
	}
	var ids []string
	for _, c := range named {
		if c.Name != p.Name && ident.Assigned(c.Name) == p.Name {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	full, err := st.ChunksByIDs(ids)
	if err != nil {
		return nil, fmt.Errorf("lookup %s: %w", p, err)
	}
	var out []chunk.Chunk
	for _, id := range ids {
		c, ok := full[id]
		if !ok || p.File != "" && c.RelativePath != p.File && !strings.HasSuffix(c.RelativePath, "/"+p.File) ||
			!matchesFilters(c.RelativePath, paths, languages) {
			continue
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b chunk.Chunk) int {
		return cmp.Or(strings.Compare(a.RelativePath, b.RelativePath), cmp.Compare(a.StartLine, b.StartLine))
	})
	return out, nil
}

// assignedPaths are the readings of p in which its last parents and its
// name form one assigned name: for A > B > m, A > B.m, A > B.prototype.m,
// A.B.m and A.B.prototype.m, in that order (a prototype written in p is
// kept as it is).
func assignedPaths(p SymbolPath) []SymbolPath {
	var out []SymbolPath
	for k := len(p.Parents) - 1; k >= 0; k-- {
		owner := strings.Join(p.Parents[k:], ".")
		names := []string{owner + "." + p.Name}
		if p.Parents[len(p.Parents)-1] != "prototype" {
			names = append(names, owner+".prototype."+p.Name)
		}
		for _, n := range names {
			out = append(out, SymbolPath{File: p.File, Parents: p.Parents[:k], Name: n})
		}
	}
	return out
}

// parentsMatch checks that the breadcrumb (file > ... > parent > name) ends
// with the given parents directly above the name.
func parentsMatch(breadcrumb string, parents []string) bool {
	if len(parents) == 0 {
		return true
	}
	segs := strings.Split(breadcrumb, " > ")
	if len(segs) < len(parents)+2 { // file, parents..., name
		return false
	}
	above := segs[len(segs)-1-len(parents) : len(segs)-1]
	for i := range parents {
		if above[i] != parents[i] {
			return false
		}
	}
	return true
}

func matchesFilters(rel string, paths, languages []string) bool {
	if len(paths) > 0 {
		ok := false
		for _, p := range paths {
			if chunkindex.PathMatch(p, rel) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if len(languages) > 0 {
		lang := parse.LanguageOf(rel)
		ok := false
		for _, l := range languages {
			if NormalizeLanguage(l) == lang {
				ok = true
			}
		}
		return ok
	}
	return true
}

// NormalizeLanguage maps the names agents use ("ts", "TypeScript", "jsx") to
// scry's language names.
func NormalizeLanguage(l string) string {
	switch strings.ToLower(strings.TrimSpace(l)) {
	case "ts", "typescript", "mts", "cts":
		return parse.LangTypeScript
	case "tsx":
		return parse.LangTSX
	case "js", "javascript", "jsx", "mjs", "cjs":
		return parse.LangJavaScript
	}
	return strings.ToLower(strings.TrimSpace(l))
}
