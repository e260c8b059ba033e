package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The command is a front end: parts are wired in internal/engine, so it
// may import only the engine, the renderer, the MCP server and the
// benchmarks' command. A new import here is a sign that wiring leaked out.
func TestCommandImportsOnlyFrontEndPackages(t *testing.T) {
	allowed := map[string]bool{"engine": true, "render": true, "mcpserver": true, "benchcmd": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range parsed.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(p, "github.com/scry-dev/scry/internal/"); ok {
				seen[rest] = true
				if !allowed[rest] {
					t.Errorf("%s imports internal/%s; front ends go through the engine", f, rest)
				}
			}
		}
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > 4 {
		t.Errorf("cmd/scry imports %d internal packages (%v), at most 4", len(names), names)
	}
}
