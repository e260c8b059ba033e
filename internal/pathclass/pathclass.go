// Package pathclass says which part of a repository a workspace path
// belongs to — its tests, the code that supports them, auxiliary code
// (examples, fixtures, docs, scripts, bundles) or declaration files — by
// its directory and file names alone. Search ranks by these classes and
// the answers order and collect by them; one set of rules keeps a file
// that ranks as a test from being listed as code elsewhere.
package pathclass

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// Test reports whether p is a test file: named as one (`x.test.ts`,
// `x.spec.js`, `x_test.js`, `x.e2e.ts`, the type tests `x.test-d.ts` and
// `x.spec-d.ts`, `test-x.js`, `test.js` outside the sources) or kept in a
// tests directory (`test/`, `tests/`, `__tests__/`, `spec/`, `e2e/` …).
func Test(p string) bool {
	l := strings.ToLower(path.Clean(p))
	base := path.Base(l)
	dirs := strings.Split(path.Dir(l), "/")
	for _, mark := range []string{".test.", ".spec.", "_test.", ".e2e.", ".test-d.", ".spec-d."} {
		if strings.Contains(base, mark) {
			return true
		}
	}
	if strings.HasPrefix(base, "test.") && !sourceOfTest(base, dirs) || strings.HasPrefix(base, "test-") || strings.HasPrefix(base, "test_") {
		return true
	}
	for _, seg := range dirs {
		switch seg {
		case "test", "tests", "__tests__", "__test__", "spec", "specs", "e2e":
			return true
		}
	}
	return false
}

// TestSupport reports whether p is code that tests use without being a
// test: mocks, test utilities, snapshots.
func TestSupport(p string) bool {
	for _, seg := range strings.Split(path.Dir(strings.ToLower(path.Clean(p))), "/") {
		switch seg {
		case "__mocks__", "mocks", "test-utils", "testing", "__snapshots__":
			return true
		}
	}
	return false
}

// TestCode reports whether p is a test or supports tests: what search
// ranks below the code unless a query asks for tests, and what a symbol's
// callers list after the code's.
func TestCode(p string) bool { return Test(p) || TestSupport(p) }

// Rank orders paths for lists an agent reads from the top: the code 0,
// tests and their support 1, auxiliary code 2.
func Rank(p string) int {
	switch {
	case Aux(p):
		return 2
	case TestCode(p):
		return 1
	}
	return 0
}

// Compare orders two paths by Rank, for sorts that list the code first.
func Compare(a, b string) int { return cmp.Compare(Rank(a), Rank(b)) }

// sourceOfTest: a file named test.js among the sources (under lib/ or src/)
// is the code of a thing called test, as mocha's lib/test.js defines its
// Test; elsewhere (a package's root, config/) it is a test file.
func sourceOfTest(base string, dirs []string) bool {
	if strings.TrimSuffix(base, path.Ext(base)) != "test" {
		return false
	}
	return slices.Contains(dirs, "lib") || slices.Contains(dirs, "src")
}

// Aux reports whether p is auxiliary code: examples, fixtures, docs,
// playgrounds, benchmarks, scripts, generated and vendored code, and
// minified, UMD and bundled builds.
func Aux(p string) bool {
	l := strings.ToLower(path.Clean(p))
	for _, seg := range strings.Split(path.Dir(l), "/") {
		switch seg {
		case "example", "examples", "fixture", "fixtures", "__fixtures__", "samples", "sample", "docs", "doc",
			"documentation", "playground", "playgrounds", "bench", "benchmark", "benchmarks", "scripts", "script",
			"demo", "demos", "sandbox", "sandboxes", "generated", "__generated__", "vendor", "third_party",
			"site", "sites", "website", "www", "storybook", ".storybook", "stories":
			return true
		}
	}
	// Minified, UMD and bundled builds hold a whole library's code again,
	// compiled: a copy of the source, not the place to read or edit it.
	base := path.Base(l)
	for _, mark := range []string{".generated.", ".stories.", ".min.", ".umd.", ".bundle."} {
		if strings.Contains(base, mark) {
			return true
		}
	}
	return false
}

// Decl reports whether p is a TypeScript declaration file.
func Decl(p string) bool {
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}
