// Package bench measures scry against the tools an agent would otherwise use:
// a retrieval-quality benchmark built from real npm packages (the query is a
// function's JSDoc summary, the answer is that function, and the JSDoc is
// removed from the indexed copy) and a speed benchmark of indexing, re-sync
// and query latency on a large corpus. Both print figures; neither passes or
// fails on them.
package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/scry-dev/scry/internal/workspace"
)

// Package is one pinned npm package and the files of it that enter a corpus.
type Package struct {
	Name    string
	Version string
	// Include lists doublestar globs, relative to the package directory, of
	// the files copied into the corpus.
	Include []string
	// Exclude lists globs (same syntax) that win over Include.
	Exclude []string
}

// Spec is the package pinned as npm wants it: name@version.
func (p Package) Spec() string { return p.Name + "@" + p.Version }

// QualityPackages are the pinned packages of the quality benchmark. Each
// ships its functions with JSDoc in exactly one form: where a package also
// ships declaration files or a second module format carrying the same JSDoc,
// those are left out, or the removed JSDoc would still be found in them.
var QualityPackages = []Package{
	// ESM build; the .d.ts/.d.cts/.cjs copies repeat the same JSDoc, and
	// cdn.js bundles repeat the code of the whole package (or of a locale)
	// in one file for browsers. date-fns writes its prose in @summary and
	// @description tags.
	{Name: "date-fns", Version: "4.1.0", Include: []string{"**/*.js"}, Exclude: []string{"**/cdn.js", "**/cdn.min.js"}},
	{Name: "lodash-es", Version: "4.17.21", Include: []string{"*.js"}},
	// TypeScript sources; dist/ holds three builds and .d.ts of them.
	{Name: "rxjs", Version: "7.8.2", Include: []string{"src/**/*.ts"}},
	// ESM build; src/ is the same code as CommonJS.
	{Name: "ramda", Version: "0.30.1", Include: []string{"es/**/*.js"}},
	{Name: "effect", Version: "3.10.0", Include: []string{"src/**/*.ts"}},
	{Name: "immer", Version: "10.1.1", Include: []string{"src/**/*.ts"}},
}

// QualityTunePackages are a second set of JSDoc questions, built the same way
// from other packages, for fitting the ranker: the benchmark's own packages
// (QualityPackages) are never fitted on. None of them is one of the
// benchmark's packages or carries their code (lodash would repeat
// lodash-es), and none is a repository of the localization benchmark.
// Each ships its documented code in one form only.
var QualityTunePackages = []Package{
	// src/ is the ESM source; build/ holds bundles of the same code.
	{Name: "luxon", Version: "3.7.2", Include: []string{"src/**/*.js"}},
	// lib/esm is one of three builds of the same source.
	{Name: "mathjs", Version: "15.2.0", Include: []string{"lib/esm/**/*.js"}},
	// es6/ is one of two builds; the .d.ts files repeat the JSDoc.
	{Name: "fp-ts", Version: "2.16.11", Include: []string{"es6/**/*.js"}},
	// The .mjs build only: .js and .d.ts repeat it.
	{Name: "graphql", Version: "17.1.0", Include: []string{"**/*.mjs"}, Exclude: []string{"**/*.d.mts"}},
	{Name: "three", Version: "0.187.0", Include: []string{"src/**/*.js"}},
	{Name: "commander", Version: "15.1.0", Include: []string{"lib/*.js"}},
}

// QualitySets names the question sets `scry bench quality --set` builds.
var QualitySets = map[string][]Package{"bench": QualityPackages, "tune": QualityTunePackages}

// SpeedPackages are the speed benchmark's corpus, over a million lines: the
// TypeScript compiler's shipped JavaScript and declaration files (large,
// machine-written files), the quality packages' sources (hand-written, many
// small files), and the compiled builds that rxjs and effect ship in dist/
// (copied as _dist/, see CollectCorpus).
var SpeedPackages = speedPackages()

func speedPackages() []Package {
	out := []Package{{Name: "typescript", Version: "5.9.3", Include: []string{"lib/*.js", "lib/*.d.ts"}}}
	for _, p := range QualityPackages {
		switch p.Name {
		case "rxjs", "effect":
			// Minified bundles are skipped by the workspace anyway.
			p.Include = append(append([]string(nil), p.Include...), "dist/**/*.js", "dist/**/*.ts")
			p.Exclude = append(append([]string(nil), p.Exclude...), "**/*.min.js")
		}
		out = append(out, p)
	}
	return out
}

// SelectPackages returns the packages of all whose names are in names, in
// the order of all; an empty names selects all. Unknown names are an error.
func SelectPackages(all []Package, names []string) ([]Package, error) {
	if len(names) == 0 {
		return all, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[strings.TrimSpace(n)] = true
	}
	var out []Package
	for _, p := range all {
		if want[p.Name] {
			out = append(out, p)
			delete(want, p.Name)
		}
	}
	if len(want) > 0 {
		var unknown []string
		for n := range want {
			unknown = append(unknown, n)
		}
		sort.Strings(unknown)
		var known []string
		for _, p := range all {
			known = append(known, p.Name)
		}
		return nil, fmt.Errorf("bench: unknown packages %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return out, nil
}

// PackageDir returns the installed directory of p under an npm prefix
// (<prefix>/node_modules/<name>) after checking that the installed version is
// the pinned one: figures from another version are not comparable.
func PackageDir(prefix string, p Package) (string, error) {
	dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(p.Name))
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("bench: %s is not installed under %s (run scripts/bench-corpus.sh): %w", p.Spec(), prefix, err)
	}
	var meta struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return "", fmt.Errorf("bench: %s/package.json: %w", dir, err)
	}
	if meta.Version != p.Version {
		return "", fmt.Errorf("bench: %s is installed at version %s, want %s (run scripts/bench-corpus.sh)", p.Name, meta.Version, p.Version)
	}
	return dir, nil
}

// PackageFiles lists the files of an installed package that p selects,
// slash-separated relative to dir, sorted.
func PackageFiles(dir string, p Package) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			// A package's own node_modules (nested dependencies) is never
			// part of the package.
			if d.Name() == "node_modules" && path != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if matchAny(p.Include, rel) && !matchAny(p.Exclude, rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bench: list %s: %w", p.Name, err)
	}
	sort.Strings(out)
	return out, nil
}

func matchAny(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// CorpusFile is one file copied into a corpus.
type CorpusFile struct {
	Package string
	Rel     string // relative to the corpus root: <package>/<path in package>
	PkgPath string // relative to the package directory
	Src     string // absolute path of the installed original
	Size    int64
}

// CollectCorpus resolves the files of pkgs installed under the npm prefix.
// Corpus paths are <package name>/<path inside the package>, a plain tree
// outside any node_modules, with excluded directory names renamed (see
// corpusPath), so that the workspace indexes every selected file.
func CollectCorpus(prefix string, pkgs []Package) ([]CorpusFile, error) {
	var out []CorpusFile
	for _, p := range pkgs {
		dir, err := PackageDir(prefix, p)
		if err != nil {
			return nil, err
		}
		files, err := PackageFiles(dir, p)
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("bench: %s: no files match %v", p.Spec(), p.Include)
		}
		for _, f := range files {
			src := filepath.Join(dir, filepath.FromSlash(f))
			info, err := os.Stat(src)
			if err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
			out = append(out, CorpusFile{Package: p.Name, Rel: p.Name + "/" + corpusPath(f), PkgPath: f, Src: src, Size: info.Size()})
		}
	}
	return out, nil
}

// corpusPath renames the directories of a package path that the workspace
// excludes by default (dist, build, out, ...) to _dist, _build, ...: in a
// project those hold build output, but in a package they hold the code, and
// the corpus is a project made of packages.
func corpusPath(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs[:len(segs)-1] {
		for _, ex := range workspace.DefaultExcludes {
			if s == ex {
				segs[i] = "_" + s
			}
		}
	}
	return strings.Join(segs, "/")
}

// copyFile copies src to dst (creating parents) as a regular file, never a
// link, so that the workspace indexes it as a file of its own.
func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writeFile writes data to dst, creating parents.
func writeFile(dst string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// countLines counts lines as editors do: a last line without a newline
// still counts.
func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
