package textsearch_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/textsearch"
	"github.com/scry-dev/scry/internal/workspace"
)

func workspaceRoot(t *testing.T) *workspace.Root {
	t.Helper()
	dir := testkit.Tree(t, map[string]string{
		"src/auth/token.ts":     "export const JWT_SECRET = 'x';\nexport function validateToken(t: string) {\n  return t === JWT_SECRET;\n}\n",
		"src/auth/crypto.ts":    "export function hmac(k: string) { return k; }\n",
		"src/app.test.ts":       "import { validateToken } from './auth/token';\n// Validatetoken in a comment\n",
		"node_modules/x/x.ts":   "export const JWT_SECRET = 'not ours';\n",
		"dist/bundle.js":        "const JWT_SECRET = 1;\n",
		"notes/big.md":          strings.Repeat("JWT_SECRET\n", 10),
		"bin/blob.bin":          "JWT_SECRET\x00\x01",
		".gitignore":            "ignored/\n",
		"ignored/secret.ts":     "export const JWT_SECRET = 'ignored';\n",
		"src/long/line.ts":      "const s = '" + strings.Repeat("é", 400) + "JWT_SECRET';\n",
		"src/auth/README.notes": "validateToken checks tokens\n",
		"src/old/mac.ts":        "// classic Mac line endings\rexport const A = 1;\r\rexport const JWT_SECRET = A;\r",
		"src/old/mixed.ts":      "const a = 1;\r\nconst b = 2;\rconst JWT_SECRET = a + b;\n",
	})
	root, err := workspace.NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestGrep(t *testing.T) {
	root := workspaceRoot(t)
	tests := []struct {
		name      string
		opt       textsearch.GrepOptions
		want      []string // file:line of every match, in order
		truncated bool
		err       string
	}{
		{name: "literal, ignore rules and binaries apply", opt: textsearch.GrepOptions{Pattern: "JWT_SECRET", Paths: []string{"src"}},
			want: []string{"src/auth/token.ts:1", "src/auth/token.ts:3", "src/long/line.ts:1", "src/old/mac.ts:4", "src/old/mixed.ts:3"}},
		{name: "case-insensitive by default", opt: textsearch.GrepOptions{Pattern: "validatetoken", Paths: []string{"src/app.test.ts"}},
			want: []string{"src/app.test.ts:1", "src/app.test.ts:2"}},
		{name: "case-sensitive", opt: textsearch.GrepOptions{Pattern: "validateToken", CaseSensitive: true, Paths: []string{"src/app.test.ts"}},
			want: []string{"src/app.test.ts:1"}},
		{name: "regex", opt: textsearch.GrepOptions{Pattern: `function \w+\(k`, Regex: true},
			want: []string{"src/auth/crypto.ts:1"}},
		{name: "literal text is not a regex", opt: textsearch.GrepOptions{Pattern: "t === JWT_SECRET;", Paths: []string{"src/**/*.ts"}},
			want: []string{"src/auth/token.ts:3"}},
		{name: "truncated", opt: textsearch.GrepOptions{Pattern: "JWT_SECRET", Paths: []string{"notes"}, MaxMatches: 3},
			want: []string{"notes/big.md:1", "notes/big.md:2", "notes/big.md:3"}, truncated: true},
		{name: "excluded", opt: textsearch.GrepOptions{Pattern: "JWT_SECRET", Paths: []string{"src"}, Exclude: []string{"src/auth/**", "src/old"}},
			want: []string{"src/long/line.ts:1"}},
		{name: "bad regex", opt: textsearch.GrepOptions{Pattern: "(unclosed", Regex: true}, err: "RE2"},
		{name: "empty", opt: textsearch.GrepOptions{}, err: "empty pattern"},
		{name: "outside the root", opt: textsearch.GrepOptions{Pattern: "x", Paths: []string{"../elsewhere"}}, err: "outside"},
		{name: "glob outside the root", opt: textsearch.GrepOptions{Pattern: "x", Paths: []string{"../**/*.ts"}}, err: "outside"},
	}
	for _, tt := range tests {
		res, err := textsearch.Grep(root, tt.opt)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want one mentioning %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []string
		for _, m := range res.Matches {
			got = append(got, m.File+":"+strconv.Itoa(m.Line))
			if len(m.Text) > 310 {
				t.Errorf("%s: a match line of %d bytes was not clipped", tt.name, len(m.Text))
			}
		}
		for _, m := range res.Matches {
			if strings.ContainsAny(m.Text, "\r\n") {
				t.Errorf("%s: %s:%d: match text %q holds a line break", tt.name, m.File, m.Line, m.Text)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") || res.Truncated != tt.truncated {
			t.Errorf("%s: matches %v truncated %v, want %v truncated %v", tt.name, got, res.Truncated, tt.want, tt.truncated)
		}
	}
}

func TestFindFiles(t *testing.T) {
	root := workspaceRoot(t)
	tests := []struct {
		name, pattern, under string
		exclude              []string
		limit                int
		want                 []string
		more                 bool
		outside              bool
	}{
		{name: "name at any depth", pattern: "*.ts", under: "src/auth", want: []string{"src/auth/crypto.ts", "src/auth/token.ts"}},
		{name: "path glob", pattern: "src/**/*.test.ts", want: []string{"src/app.test.ts"}},
		{name: "excluded", pattern: "*.ts", under: "src/auth", exclude: []string{"**/token.ts"}, want: []string{"src/auth/crypto.ts"}},
		{name: "limit", pattern: "*.ts", under: "src", limit: 2, want: []string{"src/app.test.ts", "src/auth/crypto.ts"}, more: true},
		{name: "excluded directories stay out", pattern: "*.js", want: nil},
		{name: "pattern outside", pattern: "../**/*.ts", outside: true},
		{name: "absolute pattern", pattern: "/etc/*", outside: true},
		{name: "directory outside", pattern: "*.ts", under: "..", outside: true},
	}
	for _, tt := range tests {
		files, more, err := textsearch.FindFiles(root, tt.pattern, tt.under, tt.exclude, tt.limit)
		if tt.outside {
			if !errors.Is(err, workspace.ErrOutsideRoot) {
				t.Errorf("%s: error %v, want ErrOutsideRoot", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if strings.Join(files, " ") != strings.Join(tt.want, " ") || more != tt.more {
			t.Errorf("%s: %v more %v, want %v more %v", tt.name, files, more, tt.want, tt.more)
		}
	}
}
