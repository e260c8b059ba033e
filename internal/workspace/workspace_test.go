package workspace

import (
	"errors"
	"fmt"
	"github.com/scry-dev/scry/internal/testkit"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// symlink creates link (relative to root) pointing at target, verbatim.
func symlink(t *testing.T, root, target, link string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(link))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func mustDiscover(t *testing.T, root string, opt Options) Result {
	t.Helper()
	res, err := Discover(root, opt)
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return res
}

func rels(r Result) []string {
	out := []string{}
	for _, f := range r.Files {
		out = append(out, f.Rel)
	}
	return out
}

func skips(r Result) []string {
	out := []string{}
	for _, s := range r.Skipped {
		out = append(out, s.Rel+" "+s.Reason)
	}
	return out
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// emptyFiles is a tree of empty files at paths, for testkit.Tree.
func emptyFiles(paths ...string) map[string]string {
	files := make(map[string]string, len(paths))
	for _, p := range paths {
		files[p] = ""
	}
	return files
}

// TestDiscoverGitignore: each case is a tree of ignore files (with their
// rules) and empty source files (paths), and the files Discover keeps.
func TestDiscoverGitignore(t *testing.T) {
	tests := []struct {
		name   string
		ignore map[string]string
		paths  []string
		want   []string
	}{
		{
			name:   "nested files, negation and precedence",
			ignore: map[string]string{".gitignore": "# generated code\n*.gen.ts\n!keep.gen.ts\n\ntmp/\n", "pkg/.gitignore": "!b.gen.ts\nlocal.ts\n"},
			paths:  []string{"a.ts", "a.gen.ts", "keep.gen.ts", "tmp/x.ts", "pkg/b.gen.ts", "pkg/c.gen.ts", "pkg/local.ts", "pkg/sub/local.ts", "other/local.ts", "other/sub/keep.gen.ts"},
			want:   []string{"a.ts", "keep.gen.ts", "other/local.ts", "other/sub/keep.gen.ts", "pkg/b.gen.ts"},
		},
		{
			name:   "a slash in the middle anchors to the ignore file's directory",
			ignore: map[string]string{".gitignore": "src/gen\n", "lib/.gitignore": "/top.ts\n", "lib/x/.gitignore": "y/*.ts\n"},
			paths:  []string{"src/gen/a.ts", "lib/src/gen/a.ts", "lib/top.ts", "lib/deeper/top.ts", "lib/x/y/a.ts", "lib/x/z/y/a.ts", "lib/x/y/deeper/a.ts"},
			want:   []string{"lib/deeper/top.ts", "lib/src/gen/a.ts", "lib/x/y/deeper/a.ts", "lib/x/z/y/a.ts"},
		},
		{
			name:   "dir/** keeps dir itself so a file can be re-included",
			ignore: map[string]string{".gitignore": "vendor/**\n!vendor/keep.ts\n"},
			paths:  []string{"vendor/keep.ts", "vendor/drop.ts", "vendor/sub/sub.ts"},
			want:   []string{"vendor/keep.ts"},
		},
		{
			name:   "a file inside an ignored directory cannot be re-included",
			ignore: map[string]string{".gitignore": "gen/\n!gen/keep.ts\n"},
			paths:  []string{"gen/keep.ts", "other/gen.ts", "other/gen2.ts"},
			want:   []string{"other/gen.ts", "other/gen2.ts"},
		},
		{
			name:   "a trailing slash matches directories only",
			ignore: map[string]string{".gitignore": "api.ts/\n"},
			paths:  []string{"api.ts", "x/api.ts/in.ts"},
			want:   []string{"api.ts"},
		},
		{
			name:   "glob syntax: ?, classes, **, literal braces, trailing spaces, escapes",
			ignore: map[string]string{".gitignore": "a?.ts\n[!x]b.ts\n**/deep/**/z.ts\n{c}.ts\nspace.ts   \n\\#hash.ts\nc++/\n"},
			paths:  []string{"a1.ts", "abc.ts", "cb.ts", "xb.ts", "q/deep/r/z.ts", "deep/z.ts", "c.ts", "{c}.ts", "space.ts", "#hash.ts", "c++/a.ts"},
			want:   []string{"abc.ts", "c.ts", "xb.ts"},
		},
		{
			name:   ".git/info/exclude applies, below the ignore files",
			ignore: map[string]string{".git/info/exclude": "*.local.ts\nmine.ts\n", ".gitignore": "!mine.ts\n"},
			paths:  []string{"a.local.ts", "sub/b.local.ts", "mine.ts"},
			want:   []string{"mine.ts"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := emptyFiles(tt.paths...)
			maps.Copy(files, tt.ignore)
			res := mustDiscover(t, testkit.Tree(t, files), Options{})
			equal(t, "files", rels(res), tt.want)
			equal(t, "skipped", skips(res), nil)
		})
	}
}

func TestDiscoverDefaultExcludesAndExtensions(t *testing.T) {
	root := t.TempDir()
	files := emptyFiles(
		"src/a.ts", "src/b.tsx", "src/c.js", "src/d.jsx", "src/e.mts", "src/f.mjs", "src/g.cts", "src/h.cjs", "src/i.d.ts",
		// Not candidates, and not counted either.
		"README.md", "src/j.json", "src/k.TS", "src/l.ts.md",
		// Bundles are counted: someone may wonder where they went.
		"src/vendor.min.js", "src/vendor.min.mjs", "src/app.bundle.js", "src/ok.minimal.js",
		"packages/p/index.ts", ".github/scripts/ci.js",
	)
	for _, d := range DefaultExcludes {
		files[d+"/x.ts"] = ""
		files["packages/p/"+d+"/x.ts"] = ""
	}
	testkit.WriteTree(t, root, files)
	res := mustDiscover(t, root, Options{})
	equal(t, "files", rels(res), []string{
		".github/scripts/ci.js", "packages/p/index.ts",
		"src/a.ts", "src/b.tsx", "src/c.js", "src/d.jsx", "src/e.mts", "src/f.mjs", "src/g.cts",
		"src/h.cjs", "src/i.d.ts", "src/ok.minimal.js",
	})
	equal(t, "skipped", skips(res), []string{
		"src/app.bundle.js minified", "src/vendor.min.js minified", "src/vendor.min.mjs minified",
	})
	if got := res.SkipCounts(); !reflect.DeepEqual(got, map[string]int{SkipMinified: 3}) {
		t.Errorf("SkipCounts = %v", got)
	}

	f := res.Files[slices.IndexFunc(res.Files, func(f File) bool { return f.Rel == "src/a.ts" })]
	real, _ := filepath.EvalSymlinks(root)
	if f.Path != filepath.Join(real, "src", "a.ts") {
		t.Errorf("Path = %q", f.Path)
	}
	fi, err := os.Stat(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if f.ModTime != fi.ModTime().UnixNano() || f.Size != 0 {
		t.Errorf("ModTime/Size = %d/%d, want %d/0", f.ModTime, f.Size, fi.ModTime().UnixNano())
	}
}

func TestDiscoverIncludeExclude(t *testing.T) {
	root := testkit.Tree(t, emptyFiles(
		"index.ts", "src/auth/login.ts", "src/auth/login.test.ts", "src/auth/deep/token.ts", "src/authz/policy.ts",
		"src/ui/button.tsx", "src/ui/button.test.tsx", "test/e2e.test.ts", "scripts/build.js",
	))
	abs, _ := filepath.EvalSymlinks(root)
	tests := []struct {
		name string
		opt  Options
		want []string
	}{
		{"all", Options{}, []string{
			"index.ts", "scripts/build.js", "src/auth/deep/token.ts", "src/auth/login.test.ts",
			"src/auth/login.ts", "src/authz/policy.ts", "src/ui/button.test.tsx", "src/ui/button.tsx",
			"test/e2e.test.ts",
		}},
		{"directory means everything below", Options{Include: []string{"src/auth"}}, []string{
			"src/auth/deep/token.ts", "src/auth/login.test.ts", "src/auth/login.ts",
		}},
		{"directory with trailing slash and ./", Options{Include: []string{"./src/auth/"}}, []string{
			"src/auth/deep/token.ts", "src/auth/login.test.ts", "src/auth/login.ts",
		}},
		{"pattern without slash matches at any depth", Options{Include: []string{"*.test.ts"}}, []string{
			"src/auth/login.test.ts", "test/e2e.test.ts",
		}},
		{"braces", Options{Include: []string{"*.test.{ts,tsx}"}}, []string{
			"src/auth/login.test.ts", "src/ui/button.test.tsx", "test/e2e.test.ts",
		}},
		{"anchored glob", Options{Include: []string{"src/*/*.ts"}}, []string{
			"src/auth/login.test.ts", "src/auth/login.ts", "src/authz/policy.ts",
		}},
		{"exclude wins over include", Options{Include: []string{"src/**"}, Exclude: []string{"*.test.*", "src/ui"}}, []string{
			"src/auth/deep/token.ts", "src/auth/login.ts", "src/authz/policy.ts",
		}},
		{"exclude a directory", Options{Exclude: []string{"src", "scripts/"}}, []string{
			"index.ts", "test/e2e.test.ts",
		}},
		{"absolute pattern inside the root", Options{Include: []string{filepath.Join(abs, "src", "ui")}}, []string{
			"src/ui/button.test.tsx", "src/ui/button.tsx",
		}},
		{"dot means the root", Options{Include: []string{"."}, Exclude: []string{"src/**/*.ts*"}}, []string{
			"index.ts", "scripts/build.js", "test/e2e.test.ts",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustDiscover(t, root, tt.opt)
			equal(t, "files", rels(res), tt.want)
		})
	}
}

func TestDiscoverBadGlobs(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	tests := []struct {
		name    string
		opt     Options
		outside bool
	}{
		{"include escapes", Options{Include: []string{"../x/**"}}, true},
		{"exclude escapes after cleaning", Options{Exclude: []string{"src/../../x"}}, true},
		{"absolute outside", Options{Include: []string{filepath.Join(outside, "**")}}, true},
		{"invalid glob", Options{Include: []string{"src/[a"}}, false},
		{"empty", Options{Exclude: []string{""}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Discover(root, tt.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrOutsideRoot) != tt.outside {
				t.Errorf("errors.Is(%v, ErrOutsideRoot) = %v", err, !tt.outside)
			}
			if !strings.HasPrefix(err.Error(), "discover "+root+": ") {
				t.Errorf("error lacks context: %v", err)
			}
		})
	}
}

func TestDiscoverRootErrors(t *testing.T) {
	dir := testkit.Tree(t, emptyFiles("file.ts"))
	for _, root := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "file.ts"), ""} {
		if _, err := Discover(root, Options{}); err == nil {
			t.Errorf("Discover(%q): no error", root)
		}
	}
}

func TestDiscoverSizeCap(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"small.ts": strings.Repeat("x", 100),
		"edge.ts":  strings.Repeat("x", 101),
		"big.ts":   strings.Repeat("x", 102),
		"huge.js":  strings.Repeat("x\n", int(DefaultMaxFileSize/2+1)),
		"huge.md":  strings.Repeat("x\n", int(DefaultMaxFileSize/2+1)),
	})
	tests := []struct {
		max   int64
		files []string
		skips []string
	}{
		{0, []string{"big.ts", "edge.ts", "small.ts"}, []string{"huge.js too-large"}},
		{101, []string{"edge.ts", "small.ts"}, []string{"big.ts too-large", "huge.js too-large"}},
		{-1, []string{"big.ts", "edge.ts", "huge.js", "small.ts"}, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.max), func(t *testing.T) {
			res := mustDiscover(t, root, Options{MaxFileSize: tt.max})
			equal(t, "files", rels(res), tt.files)
			equal(t, "skipped", skips(res), tt.skips)
		})
	}
}

func TestCheckContent(t *testing.T) {
	longLine := strings.Repeat("a", 1100)
	tests := []struct {
		name    string
		path    string
		content string
		want    string
	}{
		{"plain", "a.ts", "export const a = 1;\n", ""},
		{"empty", "a.ts", "", ""},
		{"BOM", "a.ts", "\xEF\xBB\xBFexport const a = 'é';\n", ""},
		{"NUL early", "a.ts", "export\x00", SkipBinary},
		{"NUL after 8 KB", "a.ts", strings.Repeat("a\n", 5000) + "\x00", ""},
		{"Latin-1", "a.ts", "const s = '\xe9';\n", SkipNotUTF8},
		{"truncated UTF-8", "a.ts", "const s = '\xc3", SkipNotUTF8},
		{"UTF-16 with BOM", "a.ts", "\xFF\xFEa\x00", SkipBinary},
		{"minified by content", "app.js", strings.Repeat(longLine+"\n", 3), SkipMinified},
		{"minified without final newline", "app.js", strings.Repeat(longLine, 3), SkipMinified},
		{"long line but small file", "app.js", longLine + "\n", ""},
		{"long lines mixed with short ones", "app.js", strings.Repeat(longLine+"\n\n", 3), ""},
		{"short lines ending in a lone CR", "app.js", strings.Repeat("const a = 1;\r", len(longLine)/4), ""},
		{"minified by name", "dir/x.min.js", "a\n", SkipMinified},
		{"bundle by name", "x.bundle.js", "a\n", SkipMinified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CheckContent(tt.path, []byte(tt.content)); got != tt.want {
				t.Errorf("CheckContent = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDiscoverSymlinks(t *testing.T) {
	outside := testkit.Tree(t, emptyFiles("o.ts", "dir/p.ts"))
	root := testkit.Tree(t, map[string]string{
		".gitignore":            "generated/\nignored-link.ts\n",
		"src/a.ts":              "",
		"src/deep/b.ts":         "",
		"generated/schema.ts":   "",
		"generated/more/m.ts":   "",
		"assets/logo.svg":       "",
		"node_modules/dep/x.ts": "",
	})
	links := [][2]string{
		// target, link
		{"../generated/schema.ts", "src/schema.ts"}, // file inside the root, not otherwise listed: followed
		{"a.ts", "src/alias.ts"},                    // file already listed under its real path
		{"../generated/more", "src/more"},           // directory inside the root, not otherwise walked
		{"deep", "src/deep2"},                       // directory already walked
		{"..", "src/up"},                            // loop to the parent
		{".", "src/self"},                           // loop to itself
		{"../src", "src/more2"},                     // loop to an ancestor through another name
		{filepath.Join(outside, "o.ts"), "src/out.ts"},
		{filepath.Join(outside, "dir"), "src/outdir"},
		{filepath.Join(outside, "o.ts"), "src/out.md"}, // not a candidate: silent
		{"../assets/logo.svg", "src/logo.svg"},         // not a candidate: silent
		{"missing.ts", "src/dangling.ts"},
		{"missing", "src/danglingdir"}, // not a candidate: silent
		{"ping.ts", "src/pong.ts"},
		{"pong.ts", "src/ping.ts"}, // a cycle of links
		{"src/a.ts", "ignored-link.ts"},
		{outside, "node_modules/linked"},
		{"../generated/more", "src/more3"}, // the same directory as src/more, found second
	}
	for _, l := range links {
		symlink(t, root, l[0], l[1])
	}
	// Inside a followed directory, a link back up the path that led there.
	symlink(t, root, "../../src", "generated/more/src")

	res := mustDiscover(t, root, Options{})
	equal(t, "files", rels(res), []string{
		"src/a.ts", "src/deep/b.ts", "src/more/m.ts", "src/schema.ts",
	})
	equal(t, "skipped", skips(res), []string{
		"src/alias.ts symlink-duplicate",
		"src/dangling.ts unreadable",
		"src/deep2 symlink-duplicate",
		"src/more/src symlink-loop",
		"src/more2 symlink-loop",
		"src/more3 symlink-duplicate",
		"src/out.ts symlink-outside-root",
		"src/outdir symlink-outside-root",
		"src/ping.ts symlink-loop",
		"src/pong.ts symlink-loop",
		"src/self symlink-loop",
		"src/up symlink-loop",
	})
	for _, f := range res.Files {
		if f.Rel == "src/schema.ts" && f.Path != filepath.Join(mustReal(t, root), "src", "schema.ts") {
			t.Errorf("a followed file keeps its link path, got %q", f.Path)
		}
	}
}

// TestDiscoverSymlinkLoopAcrossLinks checks a loop that only closes through two
// links, each pointing into a directory the plain walk never enters.
func TestDiscoverSymlinkLoopAcrossLinks(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		".gitignore": "x/\ny/\n",
		"x/a.ts":     "",
		"y/b.ts":     "",
	})
	symlink(t, root, "../y", "x/toy")
	symlink(t, root, "../x", "y/tox")
	symlink(t, root, "x", "entry")
	res := mustDiscover(t, root, Options{})
	equal(t, "files", rels(res), []string{"entry/a.ts", "entry/toy/b.ts"})
	equal(t, "skipped", skips(res), []string{"entry/toy/tox symlink-loop"})
}

func TestDiscoverSymlinkedRoot(t *testing.T) {
	real := testkit.Tree(t, emptyFiles("a.ts"))
	link := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	res := mustDiscover(t, link, Options{Include: []string{filepath.Join(link, "a.ts")}})
	equal(t, "files", rels(res), []string{"a.ts"})
	if want := filepath.Join(mustReal(t, real), "a.ts"); res.Files[0].Path != want {
		t.Errorf("Path = %q, want %q", res.Files[0].Path, want)
	}
}

func TestDiscoverUnreadableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("permissions do not apply to root")
	}
	root := testkit.Tree(t, emptyFiles("a.ts", "locked/b.ts"))
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	res := mustDiscover(t, root, Options{})
	equal(t, "files", rels(res), []string{"a.ts"})
	equal(t, "skipped", skips(res), []string{"locked unreadable"})
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLanguage(t *testing.T) {
	tests := []struct{ path, want string }{
		{"a.ts", "typescript"},
		{"a.d.ts", "typescript"},
		{"dir.js/a.mts", "typescript"},
		{"a.cts", "typescript"},
		{"a.tsx", "tsx"},
		{"a.js", "javascript"},
		{"a.jsx", "javascript"},
		{"a.mjs", "javascript"},
		{"a.cjs", "javascript"},
		{"a.json", ""},
		{"a.TS", ""},
		{"ts", ""},
		{"a.ts.map", ""},
	}
	for _, tt := range tests {
		if got := Language(tt.path); got != tt.want {
			t.Errorf("Language(%q) = %q, want %q", tt.path, got, tt.want)
		}
		if got := IsSupported(tt.path); got != (tt.want != "") {
			t.Errorf("IsSupported(%q) = %v", tt.path, got)
		}
	}
}

// A large workspace's files are stat'ed on every core after the walk; the
// result is the same as one core's, too-large files and ignored ones
// included.
func TestDiscoverManyFilesSameOnOneCore(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{".gitignore": "gen/\n", "gen/x.ts": "x", "big/huge.ts": strings.Repeat("x", 2048)}
	for i := range 1500 {
		files[fmt.Sprintf("pkg%d/src/f%d.ts", i%7, i)] = "export const a = 1\n"
	}
	testkit.WriteTree(t, root, files)
	opt := Options{MaxFileSize: 1024}
	many, err := Discover(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	one, err := Discover(root, opt)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if len(many.Files) != 1500 || !slices.ContainsFunc(many.Skipped, func(s Skip) bool { return s.Rel == "big/huge.ts" && s.Reason == SkipTooLarge }) {
		t.Fatalf("%d files, skipped %v", len(many.Files), many.Skipped)
	}
	if !reflect.DeepEqual(many, one) {
		t.Errorf("the parallel stats changed the result: %d files / %v against %d / %v", len(many.Files), many.Skipped, len(one.Files), one.Skipped)
	}
}
