package chunkcheck

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
)

func TestHasStub(t *testing.T) {
	method := "  /**\n   * Saves.\n   */\n  @Log('debug')\n  async save(\n    record: T,\n    opts?: SaveOptions,\n  ): Promise<T> {\n    return record;\n  }"
	cases := []struct {
		name   string
		parent string
		child  string
		want   bool
	}{
		{"plain", "class A {\n  run(): void;\n}", "  run(): void {\n    go();\n  }", true},
		{"space before semicolon", "class A {\n  run(): void ;\n}", "  run(): void {\n    go();\n  }", true},
		{"with jsdoc and decorator", "class A {\n  /**\n   * Saves.\n   */\n  @Log('debug')\n  async save(record: T, opts?: SaveOptions,): Promise<T>;\n}", method, true},
		{"signature only, on one line", "class A {\n  async save(record: T, opts?: SaveOptions,): Promise<T>;\n}", method, true},
		{"multi-line stub", "class A {\n  async save(\n    record: T,\n    opts?: SaveOptions,\n  ): Promise<T>;\n}", method, true},
		{"cut inside the parameters", "class A {\n  async save(\n    record: T,;\n}", method, true},
		{"name only", "class A {\n  async;\n}", method, false},
		{"no semicolon", "class A {\n  async save(record: T, opts?: SaveOptions,): Promise<T>\n}", method, false},
		{"stub of another method", "class A {\n  run(): void;\n}", method, false},
		{"arrow property", "class A {\n  handle = (e: Event): void =>;\n}", "  handle = (e: Event): void => {\n    this.x(e);\n  };", true},
		{"callback", "function f() {\n  useEffect(() =>;\n}", "  useEffect(() => {\n    load();\n  }, []);", true},
		// An arrow whose expression holds a callback collapses after its
		// own "=>", the line's first (effect's makeTagProxy).
		{"arrow around a callback", "function f() {\n  const save = (...args) =>;\n}", "  const save = (...args) => call(t, s => {\n    return s(args);\n  });", true},
		// A body opened before a comment on its line (three's Renderer).
		{"comment after the brace", "class A {\n  save();\n}", "  save() { // @deprecated\n    go();\n  }", true},
		{"functions on one line", "export function bindTo(F) {\n    return function (name);\n}", "    return function (name) { return function (fa) { return F.map(fa, function (a) {\n        return a;\n    }); }; };", true},
		{"comment after the brace, no stub", "class A {\n  save() { // @deprecated\n}", "  save() { // @deprecated\n    go();\n  }", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			child := &chunk.Chunk{Name: "save", FullSource: tc.child}
			if got := hasStub(tc.parent, child); got != tc.want {
				t.Errorf("hasStub = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestIsBodyBearing(t *testing.T) {
	cases := []struct {
		kind, src string
		kids      bool
		want      bool
	}{
		{"method", "  run(): void {\n    go();\n  }", false, true},
		{"method", "  /** Finds one. */\n  abstract find(id: Id): Promise<T>;", false, false},
		{"method", "  register(\n    name: string,\n  ): () => void;", false, false},
		{"function", "export function noop(): void {}", false, true},
		{"function", "export function f(a: string): string;", false, false},
		{"property", "  static defaultProps = {\n    compact: false,\n  };", false, false},
		{"property", "  handle = () => {\n    go();\n  };", true, true},
		{"callback", "  useEffect(() => {\n    go();\n  }, [dep]);", false, true},
		{"callback", "  items.map((p) => (\n    <li>{p}</li>\n  ))", false, false},
		{"interface", "interface A {\n  a: string;\n} // trailing", false, true},
		{"type", "type A = {\n  a: string;\n};", false, false},
		{"function", "function readConfig(p: string): {\n  config?: any;\n}", false, false},
		{"function", "export function hydrate(options: {\n  target: Element;\n}): Exports;", false, false},
		{"method", "  encrypt(o: {\n  key: string;\n}): Promise<{\n  id: string;\n}>;", false, false},
		{"function", "export function crossfade(p: P): [(node: any, params: {\n  key: any;\n}) => () => Config];", false, false},
		{"method", "  run(o: O): Promise<O extends {\n  raw: true;\n} ? Response : Output>;", false, false},
		{"callback", "  it('runs', () => {\n    go();\n  });", false, true},
		{"callback", "  setTimeout(function () {\n    go();\n  }.bind(this));", false, true},
		{"callback", "  items.forEach((p) => {\n    go(p);\n  }))", false, true},
	}
	for _, tc := range cases {
		c := chunk.Chunk{NodeKind: tc.kind, FullSource: tc.src}
		if strings.HasPrefix(tc.src, "function readConfig") {
			c.Signature = strings.Join(strings.Fields(tc.src), " ")
		}
		if tc.kids {
			c.ChildChunkIDs = []string{"k"}
		}
		if got := IsBodyBearing(c); got != tc.want {
			t.Errorf("IsBodyBearing(%s %q) = %v, want %v", tc.kind, tc.src, got, tc.want)
		}
	}
}

// A multi-line member that is not body-bearing may stay verbatim in its
// parent; a multi-line abstract method with JSDoc is such a member.
func TestCollapsedNonBodyMembers(t *testing.T) {
	src := `export abstract class Repo<T> {
  /** Default page size. */
  static readonly PAGE = 50;

  static defaults = {
    retries: 3,
  };

  /** Finds a record. */
  abstract find(id: string): Promise<T>;

  /** Saves a record. */
  async save(record: T): Promise<T> {
    return record;
  }
}
`
	cs := build("repo.ts", src,
		spec{id: "r", kind: "class", name: "Repo", start: 1, end: 16},
		spec{id: "p", parent: "r", kind: "property", name: "PAGE", start: 2, end: 3},
		spec{id: "d", parent: "r", kind: "property", name: "defaults", start: 5, end: 7},
		spec{id: "f", parent: "r", kind: "method", name: "find", start: 9, end: 10},
		spec{id: "s", parent: "r", kind: "method", name: "save", start: 12, end: 15},
	)
	if vs := Check("repo.ts", []byte(src), cs); len(vs) != 0 {
		t.Fatalf("%v\nembedding:\n%s", vs, cs[0].EmbeddingText)
	}
	if !strings.Contains(cs[0].EmbeddingText, "  /** Saves a record. */\n  async save(record: T): Promise<T>;\n}") {
		t.Fatalf("unexpected embedding:\n%s", cs[0].EmbeddingText)
	}
}

func TestParseImports(t *testing.T) {
	src := `import 'reflect-metadata';
import express from 'express';
import { Router, json as jsonBody } from 'express';
import * as path from 'node:path';
import type { Request, Response } from 'express';
import dayjs, { type Dayjs } from 'dayjs';
import React, * as ReactAll from 'react';
import {
  createReport,
  type ReportFormat as Format, // trailing comment
} from './report';
import fs = require('node:fs');
import chalk from 'chalk'; import ora from 'ora';
import pkg from '../package.json' with { type: 'json' };
import Polygons = Geometry.Shapes.Polygons;
const { promisify, inspect: show } = require('util');
const debug = require('debug')('worker'), schema = require('./schema');
const { configs: { "flat/recommended": recommended, base = {} }, rules: [first] } = require('plugin');
const lazy = await import('./lazy');
export { x } from './x';
`
	got := map[string][]string{}
	var order []string
	for _, s := range parseImports(src) {
		order = append(order, s.Module)
		got[s.Module] = append(got[s.Module], s.Names...)
	}
	want := map[string][]string{
		"reflect-metadata":         nil,
		"express":                  {"express", "Router", "jsonBody", "Request", "Response"},
		"node:path":                {"path"},
		"dayjs":                    {"Dayjs", "dayjs"},
		"react":                    {"React", "ReactAll"},
		"./report":                 {"createReport", "Format"},
		"node:fs":                  {"fs"},
		"chalk":                    {"chalk"},
		"ora":                      {"ora"},
		"../package.json":          {"pkg"},
		"Geometry.Shapes.Polygons": {"Polygons"},
		"util":                     {"promisify", "show"},
		"debug":                    {"debug"},
		"./schema":                 {"schema"},
		"plugin":                   {"recommended", "base", "first"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseImports:\n got %v\nwant %v", got, want)
	}
	if len(order) != 17 {
		t.Errorf("statements: %v", order)
	}
}

func TestStartsStatementLexing(t *testing.T) {
	src := "console.log(`\nfoo;\nbar\n`);"
	cs := build("t.ts", src+"\n", spec{id: "e", kind: "expression", name: "console.log", start: 1, end: 4})
	if vs := Check("t.ts", []byte(src+"\n"), cs); len(vs) != 0 {
		t.Fatalf("template literal lines taken for statements: %v", vs)
	}
	// A backslash at a line's end continues a quoted string onto the next.
	src = "describe(\"one long title \\\nusing two lines\", () => {\n  go();\n});"
	cs = build("t.ts", src+"\n", spec{id: "d", kind: "expression", name: "describe", start: 1, end: 4})
	if vs := Check("t.ts", []byte(src+"\n"), cs); len(vs) != 0 {
		t.Fatalf("a continued string's second line taken for a statement: %v", vs)
	}
	// A callback's body written at column 0 (eslint's indent fixtures do it
	// on purpose) is inside the call's brackets, not a second statement.
	src = "a( \"long\" +\n    \"title\", function() {\n  b();\na(); // ->\n    c();\n    });\n"
	cs = build("t.ts", src, spec{id: "a", kind: "expression", name: "a", start: 1, end: 6})
	if vs := Check("t.ts", []byte(src), cs); len(vs) != 0 {
		t.Fatalf("a statement inside a callback's brackets taken for a second root statement: %v", vs)
	}
	// Closing those brackets ends the nesting: the next line is a statement.
	src = "a(function() {\nb();\n})\nc()\n"
	cs = build("t.ts", src, spec{id: "a", kind: "expression", name: "a", start: 1, end: 4})
	if rules(Check("t.ts", []byte(src), cs))[RuleRootIsolation] != 1 {
		t.Fatal("a statement after a closed callback merged without report")
	}
	src = "/* one\nimport x from 'x';\n*/ import y from 'y';\n"
	cs = build("t.ts", src, spec{id: "i", kind: "import", name: "import:y", start: 1, end: 3})
	if vs := Check("t.ts", []byte(src), cs); len(vs) != 0 {
		t.Fatalf("commented-out import taken for a statement: %v", vs)
	}
	src = "import a from 'a'\nimport b from 'b'\n"
	cs = build("t.ts", src, spec{id: "i", kind: "import", name: "import:a", start: 1, end: 2})
	if rules(Check("t.ts", []byte(src), cs))[RuleRootIsolation] != 1 {
		t.Fatal("semicolon-free imports merged without report")
	}
	src = "app.get('/', handler)\napp.listen(3000)\n"
	cs = build("t.ts", src, spec{id: "e", kind: "expression", name: "app.get", start: 1, end: 2})
	if rules(Check("t.ts", []byte(src), cs))[RuleRootIsolation] != 1 {
		t.Fatal("semicolon-free expressions merged without report")
	}
}

func TestContainsWord(t *testing.T) {
	for _, tc := range []struct {
		s, w string
		want bool
	}{
		{"jwt.verify(x)", "jwt", true},
		{"const jwtToken = 1", "jwt", false},
		{"this.$jwt", "jwt", false},
		{"a(jwt)", "jwt", true},
		{"jwt", "jwt", true},
		{"xjwt jwt", "jwt", true},
	} {
		if got := containsWord(tc.s, tc.w); got != tc.want {
			t.Errorf("containsWord(%q, %q) = %v", tc.s, tc.w, got)
		}
	}
}

func TestSummarize(t *testing.T) {
	src := []byte(tokenSrc)
	good := Evaluate("token.ts", src, 11, tokenChunks(), tokenChunks())
	if !good.Passed() || good.Runs != 2 || good.Lines != 30 || good.Covered != 30 {
		t.Fatalf("good result: %+v", good)
	}
	moved := tokenChunks()
	moved[3].ID = "other"
	bad := Evaluate("bad.ts", src, 11, without(tokenChunks(), "c12"), moved)

	s := Summarize(good)
	s.Label = "Fixtures"
	want := `Parser Validation Summary
═══════════════════════════════════
Fixtures: 1 passed, 0 failed
Total symbols extracted: 11
Total chunks produced: 12
Coverage: 100% (no uncovered lines)
Max chunk token count: 65 (src/auth/token.ts > TokenService)
Max depth observed: 2 (token.ts)
Determinism: ✓ (all IDs stable across 2 runs)
`
	if got := s.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}

	s = Summarize(good, bad)
	got := s.String()
	for _, line := range []string{
		"Files: 1 passed, 1 failed\n",
		"Total symbols extracted: 22\n",
		"Total chunks produced: 23\n",
		"Coverage: 98.33% (1 uncovered lines in 1 files)\n",
		"Determinism: ✗ (IDs changed in 1 of 2 files)\n",
		"Violations: 1 full-coverage ×1, 8 deterministic-ids ×",
		"Failed: bad.ts\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("summary lacks %q:\n%s", line, got)
		}
	}
	if s.OK() {
		t.Error("OK with a failure")
	}

	if got := Summarize(Evaluate("x.ts", nil, 0)).String(); !strings.Contains(got, "Determinism: – (not checked)") {
		t.Errorf("single run:\n%s", got)
	}
}

// TestFixturesWholeFile runs every fixture through the checker with one
// root chunk spanning the whole file: line handling must accept each of them.
func TestFixturesWholeFile(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "fixtures")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skip(err)
	}
	var results []FileResult
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var cs []chunk.Chunk
		if n := len(fileLines(src)); n > 0 {
			cs = build(e.Name(), string(src), spec{id: "file", kind: "module", name: e.Name(), start: 1, end: n})
		}
		r := Evaluate(e.Name(), src, len(cs), cs, cs)
		for _, v := range r.Violations {
			t.Errorf("%s: %s", e.Name(), v)
		}
		results = append(results, r)
	}
	s := Summarize(results...)
	s.Label = "Fixtures"
	t.Log("\n" + s.String())
}

// TestCapped: an embedding text that is a strict prefix of the source was
// cut, however short: a line of 170 KB of data (three's
// RectAreaLightTexturesLib) ends it after a few lines, and the stubs past
// the cut cannot be checked.
func TestCapped(t *testing.T) {
	long := strings.Repeat("1, ", chunk.MaxEmbeddingBytes)
	cases := []struct {
		name      string
		emb, full string
		want      bool
	}{
		{"short prefix before a huge line", "static init() {\n", "static init() {\n  const d = [" + long + "];\n  d.forEach(function (x) {\n    go(x);\n  });\n}", true},
		{"whole", "run() {\n  go();\n}", "run() {\n  go();\n}", false},
		{"collapsed, not cut", "class A {\n  run();\n}", "class A {\n  run() {\n    go();\n  }\n}", false},
	}
	for _, tc := range cases {
		if got := capped(&chunk.Chunk{EmbeddingText: tc.emb, FullSource: tc.full}); got != tc.want {
			t.Errorf("%s: capped = %v, want %v", tc.name, got, tc.want)
		}
	}
}
