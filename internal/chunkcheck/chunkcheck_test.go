package chunkcheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
)

const tokenPath = "src/auth/token.ts"

const tokenSrc = `// Token helpers.
import jwt from 'jsonwebtoken';
import { readFileSync } from 'node:fs'; import cors from 'cors';
export { helper } from './helper';

/** Expiry in seconds. */
export const TOKEN_EXPIRY = 3600;

/**
 * Issues and checks tokens.
 */
export class TokenService {
  private secret: string;

  constructor(secret: string) {
    this.secret = secret;
  }

  /** Checks a token. */
  async validateToken(token: string): Promise<object | null> {
    try {
      return jwt.verify(token, this.secret) as object;
    } catch {
      return null;
    }
  }

  static fromFile(path: string): TokenService {
    function read(p: string): string {
      return readFileSync(p, 'utf8');
    }
    return new TokenService(read(path));
  }
}

app.use(cors());
`

const (
	impJWT  = "import jwt from 'jsonwebtoken';"
	impFS   = "import { readFileSync } from 'node:fs';"
	impCORS = "import cors from 'cors';"
)

func tokenSpecs() []spec {
	return []spec{
		{id: "c1", kind: "comment", name: "comment", start: 1, end: 1},
		{id: "c2", kind: "import", name: "import:jsonwebtoken", start: 2, end: 2},
		{id: "c3", kind: "import", name: "import:node:fs,cors", start: 3, end: 3},
		{id: "c4", kind: "re-export", name: "re-export:./helper", start: 4, end: 4},
		{id: "c5", kind: "const", name: "TOKEN_EXPIRY", start: 6, end: 7},
		{id: "c6", kind: "class", name: "TokenService", start: 9, end: 34, imports: []string{impJWT, impFS}},
		{id: "c7", parent: "c6", kind: "property", name: "secret", start: 13, end: 13},
		{id: "c8", parent: "c6", kind: "constructor", name: "constructor", start: 15, end: 17},
		{id: "c9", parent: "c6", kind: "method", name: "validateToken", start: 19, end: 26, imports: []string{impJWT}},
		{id: "c10", parent: "c6", kind: "method", name: "fromFile", start: 28, end: 33, imports: []string{impFS}},
		{id: "c11", parent: "c10", kind: "function", name: "read", start: 29, end: 31, imports: []string{impFS}},
		{id: "c12", kind: "expression", name: "app.use(cors())", start: 36, end: 36},
	}
}

func tokenChunks() []chunk.Chunk { return build(tokenPath, tokenSrc, tokenSpecs()...) }

// respec rebuilds the token chunk set after edit changes the specs.
func respec(edit func(s []spec) []spec) []chunk.Chunk {
	return build(tokenPath, tokenSrc, edit(tokenSpecs())...)
}

func setSpec(s []spec, id string, f func(*spec)) []spec {
	for i := range s {
		if s[i].id == id {
			f(&s[i])
		}
	}
	return s
}

func TestTokenFixtureShape(t *testing.T) {
	cs := tokenChunks()
	if got := find(cs, "c6").EmbeddingText; !strings.Contains(got, "  async validateToken(token: string): Promise<object | null>;\n") ||
		strings.Contains(got, "jwt.verify") {
		t.Fatalf("class embedding not collapsed:\n%s", got)
	}
	if got := find(cs, "c11").Breadcrumb; got != "src/auth/token.ts > TokenService > fromFile > read" {
		t.Fatalf("breadcrumb %q", got)
	}
	if d := find(cs, "c11").Depth; d != 2 {
		t.Fatalf("depth %d", d)
	}
}

type ruleCase struct {
	name   string
	rule   int
	path   string // default tokenPath
	src    string // default tokenSrc
	chunks func() []chunk.Chunk
}

func ruleCases() []ruleCase {
	mut := func(f func(cs []chunk.Chunk) []chunk.Chunk) func() []chunk.Chunk {
		return func() []chunk.Chunk { return f(tokenChunks()) }
	}
	// respecOne is the token chunk set built with the spec of chunk id
	// changed by f.
	respecOne := func(id string, f func(x *spec)) func() []chunk.Chunk {
		return func() []chunk.Chunk {
			return respec(func(s []spec) []spec { return setSpec(s, id, f) })
		}
	}
	// edit is the token chunk set with chunk id changed by f.
	edit := func(id string, f func(c *chunk.Chunk)) func() []chunk.Chunk {
		return mut(func(cs []chunk.Chunk) []chunk.Chunk {
			f(find(cs, id))
			return cs
		})
	}
	return []ruleCase{
		// Rule 1: full coverage.
		{name: "coverage/ok", rule: 0, chunks: tokenChunks},
		{name: "coverage/blank lines need no chunk", rule: 0, src: "a();\n\n   \n\t\nb();\n", chunks: func() []chunk.Chunk {
			return build(tokenPath, "a();\n\n   \n\t\nb();\n",
				spec{id: "a", kind: "expression", name: "a()", start: 1, end: 1},
				spec{id: "b", kind: "expression", name: "b()", start: 5, end: 5})
		}},
		{name: "coverage/root statement dropped", rule: RuleCoverage, chunks: mut(func(cs []chunk.Chunk) []chunk.Chunk { return without(cs, "c12") })},
		{name: "coverage/jsdoc left outside its declaration", rule: RuleCoverage, chunks: respecOne("c5", func(x *spec) { x.start = 7 })},
		{name: "coverage/class range cut short", rule: RuleCoverage, chunks: func() []chunk.Chunk {
			return respec(func(s []spec) []spec {
				s = setSpec(s, "c6", func(x *spec) { x.end = 12 })
				return slices.DeleteFunc(s, func(x spec) bool { return x.parent != "" })
			})
		}},

		// Rule 2: no sibling overlap.
		{name: "overlap/ok parent and child share lines", rule: 0, chunks: tokenChunks},
		{name: "overlap/root siblings share a line", rule: RuleOverlap, chunks: respecOne("c5", func(x *spec) { x.start = 4 })},
		{name: "overlap/method siblings share a line", rule: RuleOverlap, chunks: respecOne("c8", func(x *spec) { x.end = 19 })},

		// Rule 3: source fidelity.
		{name: "fidelity/ok", rule: 0, chunks: tokenChunks},
		{name: "fidelity/off by one", rule: RuleFidelity, chunks: edit("c5", func(c *chunk.Chunk) {
			c.FullSource = sliceSource(tokenSrc, 7, 7)
			c.EmbeddingText = c.FullSource
		})},
		{name: "fidelity/trailing newline kept", rule: RuleFidelity, chunks: edit("c12", func(c *chunk.Chunk) {
			c.FullSource += "\n"
			c.EmbeddingText = c.FullSource
		})},
		{name: "fidelity/range past end of file", rule: RuleFidelity, chunks: edit("c12", func(c *chunk.Chunk) { c.EndLine = 37 })},

		// Rule 4: hierarchy consistency.
		{name: "hierarchy/ok", rule: 0, chunks: tokenChunks},
		{name: "hierarchy/parent does not list child", rule: RuleHierarchy, chunks: edit("c6", func(c *chunk.Chunk) {
			c.ChildChunkIDs = slices.DeleteFunc(slices.Clone(c.ChildChunkIDs), func(id string) bool { return id == "c8" })
		})},
		{name: "hierarchy/child list names a stranger", rule: RuleHierarchy, chunks: edit("c10", func(c *chunk.Chunk) { c.ChildChunkIDs = append(slices.Clone(c.ChildChunkIDs), "c5") })},
		{name: "hierarchy/wrong depth", rule: RuleHierarchy, chunks: edit("c11", func(c *chunk.Chunk) { c.Depth = 1 })},
		{name: "hierarchy/root with depth", rule: RuleHierarchy, chunks: edit("c5", func(c *chunk.Chunk) { c.Depth = 1 })},
		{name: "hierarchy/child outside parent", rule: RuleHierarchy, chunks: respecOne("c11", func(x *spec) { x.parent = "c9" })},
		{name: "hierarchy/dangling parent", rule: RuleHierarchy, chunks: mut(func(cs []chunk.Chunk) []chunk.Chunk { return without(cs, "c10") })},
		{name: "hierarchy/duplicate id", rule: RuleHierarchy, chunks: edit("c4", func(c *chunk.Chunk) { c.ID = "c3" })},

		// Rule 5: token limit.
		{name: "tokens/ok at the limit", rule: 0, src: "x = '" + strings.Repeat("a", 4*MaxTokens-7) + "';\n", chunks: func() []chunk.Chunk {
			return build(tokenPath, "x = '"+strings.Repeat("a", 4*MaxTokens-7)+"';\n", spec{id: "x", kind: "expression", name: "x", start: 1, end: 1})
		}},
		{name: "tokens/over the limit", rule: RuleTokenLimit, src: "x = '" + strings.Repeat("a", 4*MaxTokens) + "';\n", chunks: func() []chunk.Chunk {
			return build(tokenPath, "x = '"+strings.Repeat("a", 4*MaxTokens)+"';\n", spec{id: "x", kind: "expression", name: "x", start: 1, end: 1})
		}},

		// Rule 6: collapsed children.
		{name: "collapsed/ok", rule: 0, chunks: tokenChunks},
		{name: "collapsed/child body inlined", rule: RuleCollapsed, chunks: edit("c6", func(c *chunk.Chunk) { c.EmbeddingText = c.FullSource })},
		{name: "collapsed/stub missing", rule: RuleCollapsed, chunks: edit("c6", func(c *chunk.Chunk) {
			c.EmbeddingText = strings.Replace(c.EmbeddingText, "  static fromFile(path: string): TokenService;\n", "", 1)
		})},
		{name: "collapsed/stub keeps the brace", rule: RuleCollapsed, chunks: edit("c6", func(c *chunk.Chunk) {
			c.EmbeddingText = strings.Replace(c.EmbeddingText, "constructor(secret: string);", "constructor(secret: string) {}", 1)
		})},
		{name: "collapsed/single-line child missing", rule: RuleCollapsed, chunks: edit("c6", func(c *chunk.Chunk) {
			c.EmbeddingText = strings.Replace(c.EmbeddingText, "  private secret: string;\n", "", 1)
		})},
		{name: "collapsed/leaf embedding differs", rule: RuleCollapsed, chunks: edit("c9", func(c *chunk.Chunk) { c.EmbeddingText = "// token.ts > TokenService\n" + c.EmbeddingText })},

		// Rule 7: breadcrumbs.
		{name: "breadcrumb/ok", rule: 0, chunks: tokenChunks},
		{name: "breadcrumb/missing ancestor", rule: RuleBreadcrumb, chunks: edit("c11", func(c *chunk.Chunk) { c.Breadcrumb = "src/auth/token.ts > TokenService > read" })},
		{name: "breadcrumb/missing file", rule: RuleBreadcrumb, chunks: edit("c9", func(c *chunk.Chunk) { c.Breadcrumb = "TokenService > validateToken" })},

		// Rule 9: root isolation.
		{name: "isolation/ok imports sharing a line", rule: 0, chunks: tokenChunks},
		{name: "isolation/two imports merged", rule: RuleRootIsolation, chunks: func() []chunk.Chunk {
			return respec(func(s []spec) []spec {
				s = setSpec(s, "c2", func(x *spec) { x.end = 3 })
				return slices.DeleteFunc(s, func(x spec) bool { return x.id == "c3" })
			})
		}},
		{name: "isolation/import and re-export merged", rule: RuleRootIsolation, chunks: func() []chunk.Chunk {
			return respec(func(s []spec) []spec {
				s = setSpec(s, "c3", func(x *spec) { x.end = 4 })
				return slices.DeleteFunc(s, func(x spec) bool { return x.id == "c4" })
			})
		}},
		{name: "isolation/expressions merged", rule: RuleRootIsolation, src: exprSrc, chunks: func() []chunk.Chunk {
			return build(tokenPath, exprSrc,
				spec{id: "e1", kind: "expression", name: "app.use(cors())", start: 1, end: 2},
				spec{id: "e2", kind: "expression", name: "app.listen(3000)", start: 3, end: 6})
		}},
		{name: "isolation/ok multi-line expressions", rule: 0, src: exprSrc, chunks: func() []chunk.Chunk {
			return build(tokenPath, exprSrc,
				spec{id: "e1", kind: "expression", name: "app.use(cors())", start: 1, end: 1},
				spec{id: "e2", kind: "expression", name: "app.use(json())", start: 2, end: 2},
				spec{id: "e3", kind: "expression", name: "app.listen(3000)", start: 3, end: 6})
		}},

		// Rule 10: relevantImports.
		{name: "imports/ok", rule: 0, chunks: tokenChunks},
		{name: "imports/unused import listed", rule: RuleImports, chunks: respecOne("c9", func(x *spec) { x.imports = append(x.imports, impCORS) })},
		{name: "imports/used import missing", rule: RuleImports, chunks: respecOne("c10", func(x *spec) { x.imports = nil })},
		{name: "imports/comment lists imports", rule: RuleImports, chunks: respecOne("c1", func(x *spec) { x.imports = []string{impJWT} })},
		{name: "imports/entry is not an import", rule: RuleImports, chunks: respecOne("c9", func(x *spec) { x.imports = append(x.imports, "const token = 1;") })},
		{name: "imports/entry not from this file", rule: RuleImports, chunks: respecOne("c9", func(x *spec) { x.imports = []string{"import jwt from 'jose';"} })},
	}
}

const exprSrc = `app.use(cors());
app.use(json());
app.listen(3000, () => {
  console.log('up');
  console.log('ready');
});
`

func TestRules(t *testing.T) {
	for _, tc := range ruleCases() {
		t.Run(tc.name, func(t *testing.T) {
			path, src := tc.path, tc.src
			if path == "" {
				path = tokenPath
			}
			if src == "" {
				src = tokenSrc
			}
			vs := Check(path, []byte(src), tc.chunks())
			if tc.rule == 0 {
				for _, v := range vs {
					t.Errorf("unexpected %s", v)
				}
				return
			}
			if rules(vs)[tc.rule] == 0 {
				t.Errorf("rule %d (%s) not reported; got %v", tc.rule, RuleName(tc.rule), vs)
			}
			for _, v := range vs {
				if v.RuleName != RuleName(v.Rule) {
					t.Errorf("rule name %q for rule %d", v.RuleName, v.Rule)
				}
			}
		})
	}
}

// TestEveryRuleCaught makes sure the table has a passing and a failing case
// for each rule checked by Check.
func TestEveryRuleCaught(t *testing.T) {
	fail := map[int]bool{}
	for _, tc := range ruleCases() {
		fail[tc.rule] = true
	}
	for _, r := range []int{1, 2, 3, 4, 5, 6, 7, 9, 10} {
		if !fail[r] {
			t.Errorf("no failing case for rule %d", r)
		}
	}
	if !fail[0] {
		t.Error("no passing case")
	}
}

func TestDeterministic(t *testing.T) {
	a, b := tokenChunks(), tokenChunks()
	if vs := CheckDeterministic(a, b); len(vs) != 0 {
		t.Fatalf("identical runs: %v", vs)
	}
	if vs := CheckDeterministic(nil, nil); len(vs) != 0 {
		t.Fatalf("empty runs: %v", vs)
	}

	changed := tokenChunks()
	changed[4].ID = "c5-v2"
	swapped := tokenChunks()
	swapped[1], swapped[2] = swapped[2], swapped[1]
	for name, b := range map[string][]chunk.Chunk{
		"id changed":  changed,
		"order":       swapped,
		"chunk lost":  tokenChunks()[:11],
		"chunk extra": append(tokenChunks(), chunk.Chunk{ID: "c13"}),
	} {
		vs := CheckDeterministic(a, b)
		if len(vs) == 0 {
			t.Errorf("%s: not reported", name)
		}
		for _, v := range vs {
			if v.Rule != RuleDeterminism || v.RuleName != "deterministic-ids" {
				t.Errorf("%s: %v", name, v)
			}
		}
	}
}

func TestLineEndings(t *testing.T) {
	crlf := "/** Doc. */\r\nexport function f(): number {\r\n  return 1;\r\n}\r\n\r\nf();"
	specs := []spec{
		{id: "f", kind: "function", name: "f", start: 1, end: 4},
		{id: "x", kind: "expression", name: "f()", start: 6, end: 6},
	}
	cs := build("crlf.ts", crlf, specs...)
	if got, want := cs[0].FullSource, "/** Doc. */\r\nexport function f(): number {\r\n  return 1;\r\n}"; got != want {
		t.Fatalf("helper source %q", got)
	}
	if vs := Check("crlf.ts", []byte(crlf), cs); len(vs) != 0 {
		t.Fatalf("CRLF without final newline: %v", vs)
	}
	// The same file with a final CRLF: still six lines.
	if vs := Check("crlf.ts", []byte(crlf+"\r\n"), cs); len(vs) != 0 {
		t.Fatalf("CRLF with final newline: %v", vs)
	}
	// LF-normalised source no longer matches the file.
	bad := build("crlf.ts", crlf, specs...)
	bad[0].FullSource = strings.ReplaceAll(bad[0].FullSource, "\r\n", "\n")
	bad[0].EmbeddingText = bad[0].FullSource
	if rules(Check("crlf.ts", []byte(crlf), bad))[RuleFidelity] == 0 {
		t.Fatal("LF source for CRLF file not reported")
	}
	// A trailing "\r" on the last line is part of the terminator, not the source.
	bad = build("crlf.ts", crlf, specs...)
	bad[0].FullSource += "\r"
	bad[0].EmbeddingText = bad[0].FullSource
	if rules(Check("crlf.ts", []byte(crlf), bad))[RuleFidelity] == 0 {
		t.Fatal("trailing CR not reported")
	}
}

func TestEmptyFile(t *testing.T) {
	if vs := Check("empty.ts", nil, nil); len(vs) != 0 {
		t.Fatal(vs)
	}
	if vs := Check("blank.ts", []byte("\n\n  \n"), nil); len(vs) != 0 {
		t.Fatal(vs)
	}
	if vs := Check("c.ts", []byte("// only a comment\n"), nil); rules(vs)[RuleCoverage] != 1 {
		t.Fatal(vs)
	}
}

func TestCoverageRuns(t *testing.T) {
	src := "a();\nb();\n\nc();\nd();\n"
	cs := build("r.ts", src, spec{id: "a", kind: "expression", name: "a()", start: 1, end: 1})
	vs := Check("r.ts", []byte(src), cs)
	// One report per uncovered stretch; blank lines inside it do not split it.
	if len(vs) != 1 || vs[0].Line != 2 || !strings.Contains(vs[0].Detail, "lines 2-5") {
		t.Fatalf("want uncovered lines 2-5, got %v", vs)
	}
	cs = append(cs, build("r.ts", src, spec{id: "c", kind: "expression", name: "c()", start: 4, end: 4})...)
	vs = Check("r.ts", []byte(src), cs)
	if len(vs) != 2 || vs[0].Line != 2 || !strings.Contains(vs[0].Detail, "line 2 ") || vs[1].Line != 5 {
		t.Fatalf("want uncovered line 2 and line 5, got %v", vs)
	}
	nonBlank, covered := Coverage([]byte(src), cs)
	if nonBlank != 4 || covered != 2 {
		t.Fatalf("Coverage = %d, %d", nonBlank, covered)
	}
}
