package workspace

import (
	"fmt"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// BenchmarkDiscover walks a generated monorepo of 3,000 source files with the
// usual clutter: a realistic .gitignore, package-level ignore files,
// node_modules, build output and non-source files.
func BenchmarkDiscover(b *testing.B) {
	files := map[string]string{
		".gitignore": "# deps\nnode_modules/\n/dist\n*.log\n.env\n.env.*\n!.env.example\ncoverage/\n" +
			"*.tsbuildinfo\n.DS_Store\n/tmp/\n**/generated/**\n!**/generated/keep.ts\n*.gen.ts\n" +
			"packages/*/lib/\n.idea/\n.vscode/*\n!.vscode/settings.json\n",
	}
	const pkgs, dirs, perDir = 30, 10, 10
	for p := range pkgs {
		files[fmt.Sprintf("packages/p%02d/.gitignore", p)] = "lib/\n*.snap\n!keep.snap\n"
		files[fmt.Sprintf("packages/p%02d/package.json", p)] = "{}"
		files[fmt.Sprintf("packages/p%02d/README.md", p)] = ""
		for d := range dirs {
			for f := range perDir {
				ext := [...]string{".ts", ".tsx", ".js", ".d.ts", ".mts"}[f%5]
				files[fmt.Sprintf("packages/p%02d/src/m%d/file%d%s", p, d, f, ext)] = "export const x = 1;\n"
			}
		}
		for f := range 10 {
			files[fmt.Sprintf("packages/p%02d/node_modules/dep/f%d.js", p, f)] = ""
			files[fmt.Sprintf("packages/p%02d/dist/f%d.js", p, f)] = ""
		}
	}
	root := testkit.Tree(b, files)
	res, err := Discover(root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Files) != pkgs*dirs*perDir {
		b.Fatalf("found %d files, want %d", len(res.Files), pkgs*dirs*perDir)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Discover(root, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
