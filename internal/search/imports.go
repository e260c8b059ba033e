package search

import (
	"path"
	"regexp"
	"strings"
)

// linkFiles is how many of the best files (each by its best candidate's
// score before the mark) count as strong; linkCap is the share of them
// linked to a file that makes a full mark.
const (
	linkFiles = 5
	linkCap   = 1.0
)

// markLinks sets FImportLinks on every candidate: how strong, among the
// query's best files, the files are that import the candidate's file or
// that its file imports. An answer is seldom one file: the relevant file
// is usually first, and what also helps is the helper it imports (hono's
// streaming helper and the stream it writes to) or the module that puts
// it to work (the JWT middleware around the token check), whose own
// words may match the question less well than many unrelated chunks do.
// An import is a link the codebase itself declares, so unlike a shared
// word it says the two files work together. Each strong file counts by
// exp(score − best file's score), as in markPeers. Relative imports
// only: a package's name says nothing about which of the index's files
// it is. The imports read are the statements the candidates use
// (chunk.RelevantImports), so the file's code at the match, not an
// import its matching code never touches, makes the link. Like
// markPeers, it reads the model's first ranking, after the peers.
func markLinks(m *Model, cands []Result, feats []Features) {
	if m == nil || len(cands) < 2 {
		return
	}
	// Which candidate files each file's candidates import.
	byModule := map[string][]string{}
	files := map[string]bool{}
	for _, c := range cands {
		p := c.Chunk.RelativePath
		if files[p] {
			continue
		}
		files[p] = true
		for _, k := range moduleKeys(p) {
			byModule[k] = append(byModule[k], p)
		}
	}
	// A file's chunks repeat its import statements: each is read once.
	specs := map[string]string{}
	imports := map[string]map[string]bool{}
	for _, c := range cands {
		from := c.Chunk.RelativePath
		for _, stmt := range c.Chunk.RelevantImports {
			spec, ok := specs[stmt]
			if !ok {
				spec, _ = relativeModule(stmt)
				specs[stmt] = spec
			}
			if spec == "" {
				continue
			}
			target := path.Join(path.Dir(from), spec)
			for _, p := range byModule[trimModuleExt(target)] {
				if p == from {
					continue
				}
				if imports[from] == nil {
					imports[from] = map[string]bool{}
				}
				imports[from][p] = true
			}
		}
	}
	// No candidate imports another: nothing to mark, and the first
	// reading need not be scored.
	if len(imports) == 0 {
		return
	}
	strong := strongFiles(m, cands, feats, linkFiles)
	mark := map[string]float64{}
	for p := range files {
		linked := 0.0
		for _, f := range strong {
			if f.path != p && (imports[f.path][p] || imports[p][f.path]) {
				linked += f.weight
			}
		}
		mark[p] = min(linked, linkCap) / linkCap
	}
	for i, c := range cands {
		feats[i][FImportLinks] = mark[c.Chunk.RelativePath]
	}
}

// moduleSpec finds the module of an import statement: `from '…'`, a bare
// `import '…'`, `import('…')` or `require('…')`.
var moduleSpec = regexp.MustCompile(`(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"]([^'"\n]+)['"]`)

// relativeModule is the module an import statement names, when it is a
// path relative to the importing file ("./x", "../y/z.js").
func relativeModule(stmt string) (string, bool) {
	m := moduleSpec.FindStringSubmatch(stmt)
	if m == nil {
		return "", false
	}
	spec := m[1]
	if spec == "." || spec == ".." {
		return spec + "/index", true
	}
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return "", false
	}
	return spec, true
}

// moduleExts are the extensions an import may leave out or write as .js
// for a TypeScript file.
var moduleExts = []string{".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// trimModuleExt is a module path without its extension: "./a.js",
// "./a.ts" and "./a" all name a.ts.
func trimModuleExt(p string) string {
	for _, e := range moduleExts {
		if strings.HasSuffix(p, e) {
			return strings.TrimSuffix(p, e)
		}
	}
	return p
}

// moduleKeys are the module paths that name file p: its path without
// extension and, for an index file, its directory ("./router" imports
// router/index.ts).
func moduleKeys(p string) []string {
	k := trimModuleExt(p)
	if path.Base(k) == "index" {
		return []string{k, path.Dir(k)}
	}
	return []string{k}
}
