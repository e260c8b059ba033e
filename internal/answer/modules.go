package answer

import (
	"encoding/json"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
)

// Module resolution for importers: which workspace file a specifier names.
// Relative specifiers resolve against the importing file; others through
// the `paths` and `baseUrl` of the nearest tsconfig.json (or jsconfig.json,
// following `extends` inside the root) and through the workspace's own
// packages (a package.json `name` inside the root, as a monorepo's
// workspaces link them, and its `exports` map when it has one). What is read is the workspace's own files, so the
// answer is the same with or without the compiler.

// tsPaths is what one tsconfig says about non-relative specifiers.
type tsPaths struct {
	baseURL  string              // root-relative
	hasBase  bool                // baseUrl given
	pathsDir string              // root-relative directory `paths` targets are relative to
	paths    map[string][]string // pattern → targets
	set      bool                // baseUrl or paths given
}

// moduleResolver answers for one question; it caches what it reads.
type moduleResolver struct {
	x        Local
	configs  map[string]*tsPaths  // directory → its config's settings (nil: none there)
	packages map[string]wsPackage // package name → where it is and what it exports
}

// wsPackage is one package.json inside the root.
type wsPackage struct {
	dir     string          // root-relative directory
	exports json.RawMessage // its `exports` field, nil when absent
}

func (x Local) newModuleResolver() *moduleResolver {
	return &moduleResolver{x: x, configs: map[string]*tsPaths{}}
}

// target is one way a specifier may name a file: the root-relative path it
// resolves to (before extensions), and how (empty for a relative path).
type modTarget struct {
	path, via string
}

// candidates lists the root-relative paths a specifier written in from may
// resolve to, each before TypeScript's extension and index-file rules.
func (m *moduleResolver) candidates(from, spec string) []modTarget {
	if strings.HasPrefix(spec, ".") {
		return []modTarget{{path: path.Clean(path.Join(path.Dir(from), spec))}}
	}
	var out []modTarget
	if cfg := m.configFor(path.Dir(from)); cfg != nil {
		patterns := make([]string, 0, len(cfg.paths))
		for p := range cfg.paths {
			patterns = append(patterns, p)
		}
		sort.Strings(patterns)
		for _, p := range patterns {
			star, ok := matchPattern(p, spec)
			if !ok {
				continue
			}
			for _, t := range cfg.paths[p] {
				out = append(out, modTarget{path: path.Clean(path.Join(cfg.pathsDir, strings.Replace(t, "*", star, 1))),
					via: "the tsconfig paths alias " + p})
			}
		}
		if cfg.hasBase {
			out = append(out, modTarget{path: path.Clean(path.Join(cfg.baseURL, spec)), via: "the tsconfig baseUrl"})
		}
	}
	name, rest := packageName(spec)
	if pkg, ok := m.workspacePackages()[name]; ok {
		dir := pkg.dir
		sub := "."
		if rest != "" {
			sub = "./" + rest
		}
		for _, t := range exportTargets(pkg.exports, sub) {
			out = append(out, modTarget{path: path.Clean(path.Join(dir, t.path)), via: "the package.json exports " + t.via + " of " + name})
		}
		via := "the workspace package " + name
		if rest == "" {
			for _, p := range []string{"index", "src/index"} {
				out = append(out, modTarget{path: path.Join(dir, p), via: via})
			}
		} else {
			out = append(out, modTarget{path: path.Join(dir, rest), via: via}, modTarget{path: path.Join(dir, "src", rest), via: via})
		}
	}
	return out
}

// resolvesTo reports whether spec, written in from, names the file target,
// and how ("" for a relative specifier).
func (m *moduleResolver) resolvesTo(from, spec, target string) (bool, string) {
	for _, c := range m.candidates(from, spec) {
		if c.path == ".." || strings.HasPrefix(c.path, "../") {
			continue // outside the root
		}
		if sameModule(c.path, target) {
			return true, c.via
		}
	}
	return false, ""
}

// sameModule reports whether a resolved path p names the file target, with
// TypeScript's resolution of extensions: `a`, `a.js` (for a.ts), `dir`
// (for dir/index.ts).
func sameModule(p, target string) bool {
	if p == target {
		return true
	}
	stem := strings.TrimSuffix(target, path.Ext(target))
	stem = strings.TrimSuffix(stem, ".d")
	pstem := p
	for _, ext := range []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"} {
		if strings.HasSuffix(p, ext) {
			pstem = strings.TrimSuffix(p, ext)
			break
		}
	}
	return pstem == stem || pstem+"/index" == stem
}

// matchPattern matches a `paths` pattern (at most one `*`) against spec and
// returns what the `*` stands for.
func matchPattern(pattern, spec string) (string, bool) {
	i := strings.IndexByte(pattern, '*')
	if i < 0 {
		return "", pattern == spec
	}
	pre, suf := pattern[:i], pattern[i+1:]
	if len(spec) < len(pre)+len(suf) || !strings.HasPrefix(spec, pre) || !strings.HasSuffix(spec, suf) {
		return "", false
	}
	return spec[len(pre) : len(spec)-len(suf)], true
}

// packageName splits a bare specifier into its package name and the path
// inside it (`@scope/pkg/a/b` → `@scope/pkg`, `a/b`).
func packageName(spec string) (name, rest string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			rest = parts[2]
		}
		return name, rest
	}
	name, rest, _ = strings.Cut(spec, "/")
	return name, rest
}

// configFor is the settings of the nearest tsconfig.json or jsconfig.json
// at or above dir (root-relative), nil when none sets paths or baseUrl.
func (m *moduleResolver) configFor(dir string) *tsPaths {
	if cfg, ok := m.configs[dir]; ok {
		return cfg
	}
	var cfg *tsPaths
	found := false
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		if c, ok := m.readConfig(path.Join(dir, name), 0); ok {
			cfg, found = c, true
			break
		}
	}
	if !found && dir != "." && dir != "" {
		cfg = m.configFor(path.Dir(dir))
	}
	if cfg != nil && !cfg.set {
		cfg = nil
	}
	m.configs[dir] = cfg
	return cfg
}

// maxExtends bounds a chain of `extends`.
const maxExtends = 8

// readConfig reads the config at rel (root-relative) with what it extends
// inside the root; ok is false when the file is missing or unreadable.
func (m *moduleResolver) readConfig(rel string, depth int) (*tsPaths, bool) {
	abs := filepath.Join(m.x.Root.Dir(), filepath.FromSlash(rel))
	b, err := m.x.readFile(abs)
	if err != nil {
		return nil, false
	}
	var raw struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(jsonc(b), &raw) != nil {
		return nil, false
	}
	dir := path.Dir(rel)
	cfg := &tsPaths{}
	// What it extends first; its own settings win.
	var bases []string
	if len(raw.Extends) > 0 {
		var one string
		if json.Unmarshal(raw.Extends, &one) == nil {
			bases = []string{one}
		} else {
			_ = json.Unmarshal(raw.Extends, &bases)
		}
	}
	for _, base := range bases {
		if depth >= maxExtends || !strings.HasPrefix(base, ".") {
			continue // a package's config: outside the workspace's own files
		}
		p := path.Clean(path.Join(dir, base))
		if !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		if p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		if b, ok := m.readConfig(p, depth+1); ok && b.set {
			*cfg = *b
		}
	}
	if o := raw.CompilerOptions; o.BaseURL != nil {
		cfg.baseURL = path.Clean(path.Join(dir, *o.BaseURL))
		cfg.hasBase, cfg.set = true, true
		if cfg.paths != nil && cfg.pathsDir == "" {
			cfg.pathsDir = cfg.baseURL
		}
	}
	if o := raw.CompilerOptions; o.Paths != nil {
		cfg.paths = o.Paths
		cfg.pathsDir = dir
		if o.BaseURL != nil {
			cfg.pathsDir = cfg.baseURL
		}
		cfg.set = true
	}
	return cfg, true
}

// workspacePackages maps the names of the package.json files inside the
// root (outside node_modules) to their directories.
func (m *moduleResolver) workspacePackages() map[string]wsPackage {
	if m.packages != nil {
		return m.packages
	}
	m.packages = map[string]wsPackage{}
	files, _, err := m.x.FindFiles("**/package.json", "", 5000)
	if err != nil {
		return m.packages
	}
	for _, f := range files {
		if strings.Contains("/"+f, "/node_modules/") {
			continue
		}
		b, err := m.x.readFile(filepath.Join(m.x.Root.Dir(), filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		var pkg struct {
			Name    string          `json:"name"`
			Exports json.RawMessage `json:"exports"`
		}
		if json.Unmarshal(b, &pkg) == nil && pkg.Name != "" {
			if _, dup := m.packages[pkg.Name]; !dup {
				m.packages[pkg.Name] = wsPackage{dir: path.Dir(f), exports: pkg.Exports}
			}
		}
	}
	return m.packages
}

// exportConditions are the conditions of an `exports` map taken, in this
// order, as TypeScript resolving an import for its types tries them. All
// of them are candidates: in a workspace `types` often names a build
// output that is not there, and TypeScript then goes on to the next.
var exportConditions = []string{"types", "import", "default"}

// maxExportDepth bounds the nesting of conditions objects.
const maxExportDepth = 8

// exportTargets resolves the subpath sub ("." or "./x/y") through a
// package.json `exports` field: package-relative paths (the `*` of a
// pattern replaced), each with the key that matched as via. An exact key
// wins over patterns; among patterns the longest prefix wins, as Node
// resolves them. Nothing when exports is absent or does not export sub.
func exportTargets(exports json.RawMessage, sub string) []modTarget {
	if len(exports) == 0 {
		return nil
	}
	var asMap map[string]json.RawMessage
	if json.Unmarshal(exports, &asMap) != nil || !subpathKeys(asMap) {
		// A string, an array or a conditions object: what "." exports.
		if sub != "." {
			return nil
		}
		return exportValue(exports, "", ".", 0)
	}
	if v, ok := asMap[sub]; ok && !strings.Contains(sub, "*") {
		return exportValue(v, "", sub, 0)
	}
	best, bestStar := "", ""
	for key := range asMap {
		star, ok := matchPattern(key, sub)
		if !ok || !strings.Contains(key, "*") {
			continue
		}
		pre := key[:strings.IndexByte(key, '*')]
		if best == "" || len(pre) > strings.IndexByte(best, '*') || len(pre) == strings.IndexByte(best, '*') && key < best {
			best, bestStar = key, star
		}
	}
	if best == "" {
		return nil
	}
	return exportValue(asMap[best], bestStar, best, 0)
}

// subpathKeys reports whether an exports object maps subpaths (its keys
// start with ".") rather than conditions.
func subpathKeys(m map[string]json.RawMessage) bool {
	for k := range m {
		return strings.HasPrefix(k, ".")
	}
	return false
}

// exportValue resolves one value of an exports map: a path (its `*`
// replaced by star), an array (its first entry that resolves) or a
// conditions object (the targets of its conditions taken); null excludes
// the subpath.
func exportValue(v json.RawMessage, star, key string, depth int) []modTarget {
	if depth > maxExportDepth {
		return nil
	}
	var target string
	if json.Unmarshal(v, &target) == nil {
		if !strings.HasPrefix(target, "./") {
			return nil // a package's target must stay inside it
		}
		return []modTarget{{path: strings.ReplaceAll(target, "*", star), via: key}}
	}
	var list []json.RawMessage
	if json.Unmarshal(v, &list) == nil {
		for _, item := range list {
			if out := exportValue(item, star, key, depth+1); len(out) > 0 {
				return out
			}
		}
		return nil
	}
	var conds map[string]json.RawMessage
	if json.Unmarshal(v, &conds) != nil {
		return nil
	}
	var out []modTarget
	for _, c := range exportConditions {
		if cv, ok := conds[c]; ok {
			out = append(out, exportValue(cv, star, key, depth+1)...)
		}
	}
	return out
}

// jsonc turns JSON with comments and trailing commas (as tsconfig.json is
// written) into JSON; input that is not even that comes back as it is, for
// the JSON decoder to refuse.
func jsonc(b []byte) []byte {
	std, err := hujson.Standardize(append([]byte(nil), b...))
	if err != nil {
		return b
	}
	return std
}
