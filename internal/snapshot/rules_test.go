package snapshot

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// ruleCase pins one inclusion rule on a small file. The snapshot it
// expects is want exactly or, where that is the file's own lines, its
// header and then src: whole, or without the lines in leftOut.
type ruleCase struct {
	name, path, src string
	targets         []Target
	want            string
	whole           bool     // the snapshot is the whole file, after its header
	leftOut         [][2]int // the snapshot is the file without these lines (first, last), after its header
	level           int
}

// wantText is the snapshot the case expects.
func (tc ruleCase) wantText() string {
	if !tc.whole && tc.leftOut == nil {
		return tc.want
	}
	var b strings.Builder
	b.WriteString("// " + tc.path + "\n\n")
	for i, line := range strings.SplitAfter(tc.src, "\n") {
		if !slices.ContainsFunc(tc.leftOut, func(r [2]int) bool { return r[0] <= i+1 && i+1 <= r[1] }) {
			b.WriteString(line)
		}
	}
	return b.String()
}

var ruleCases = []ruleCase{
	{
		name: "an interface named only in overload signatures is kept (up to MaxTypeLines)",
		path: "src/retry.ts",
		src: `export interface RetryConfig {
  /** Field 0. */
  f0: number;
  /** Field 1. */
  f1: number;
  /** Field 2. */
  f2: number;
  /** Field 3. */
  f3: number;
  /** Field 4. */
  f4: number;
  /** Field 5. */
  f5: number;
  /** Field 6. */
  f6: number;
  /** Field 7. */
  f7: number;
  /** Field 8. */
  f8: number;
  /** Field 9. */
  f9: number;
}

export function retry(config: RetryConfig): number;
export function retry(count: number): number;
export function retry(x: any): number {
  return 1;
}
`,
		targets: []Target{{StartLine: 24, EndLine: 28}},
		whole:   true,
	},
	{
		name: "of an import over several lines only the specifiers used are kept",
		path: "src/many.ts",
		src: `import {
  alpha,
  beta as b,
  gamma,
  delta,
} from './letters';
import type {
  Unused,
} from './types';
import Default, {
  other,
} from './d';

export function use(): number {
  return alpha() + b() + Default;
}
`,
		targets: []Target{{StartLine: 14, EndLine: 16}},
		want: `// src/many.ts

import {
  alpha,
  beta as b,
} from './letters';

import Default, {
} from './d';

export function use(): number {
  return alpha() + b() + Default;
}
`,
	},
	{
		name: "parameters and type parameters shadow module-level names",
		path: "src/shadow.ts",
		src: `import { limit as cap } from './limits';
const limit = 10;
type T = string;
const unrelated = 1;

export function clampTo<T extends number>(value: T, limit: number): number {
  return Math.min(value, limit, cap);
}
`,
		targets: []Target{{StartLine: 6, EndLine: 8}},
		leftOut: [][2]int{{2, 4}},
	},
	{
		name: "locals, catch bindings and function expression names shadow",
		path: "src/locals.js",
		src: `const err = new Error('x');
const retry = () => 1;
const next = 2;
const total = 3;

function run(items) {
  const next = items[0];
  try {
    return (function retry(n) { return n ? retry(n - 1) : next + total; })(3);
  } catch (err) {
    return err;
  }
}
`,
		targets: []Target{{StartLine: 6, EndLine: 13}},
		leftOut: [][2]int{{1, 3}},
	},
	{
		name: "large declarations are left out, functions are not pulled in transitively",
		path: "src/sizes.ts",
		src: `function helper(n: number): number {
  return n * 2;
}
const SCALE = helper(3);
function big(a: number): number {
  let x = a;
` + strings.Repeat("  x += 1;\n", 13) + `  return x;
}

export function scaled(v: number): number {
  return big(v) * SCALE;
}
`,
		targets: []Target{{StartLine: 23, EndLine: 25}},
		leftOut: [][2]int{{1, 3}, {5, 21}},
	},
	{
		name: "a direct reference to a small function includes it",
		path: "src/direct.ts",
		src: `function helper(n: number): number {
  return n * 2;
}

export function twice(v: number): number {
  return helper(v);
}
`,
		targets: []Target{{StartLine: 5, EndLine: 7}},
		whole:   true,
	},
	{
		name: "a target inside another target and a repeated target add nothing",
		path: "src/nested.ts",
		src: `const A = 1;
export class Box {
  value = A;
  get(): number {
    return this.value;
  }
}
`,
		targets: []Target{{StartLine: 4, EndLine: 6}, {StartLine: 2, EndLine: 7}, {StartLine: 4, EndLine: 6}},
		whole:   true,
	},
	{
		name: "a method of an object literal keeps the object's opening and closing lines",
		path: "src/repo.ts",
		src: `import { db } from './db';
const TABLE = 'users';
export const repo = {
  find(id: string) {
    return db.get(TABLE, id);
  },
  remove(id: string) {
    return db.delete(TABLE, id);
  },
};
`,
		targets: []Target{{StartLine: 7, EndLine: 9}},
		leftOut: [][2]int{{4, 6}},
	},
	{
		name: "a separator on a line of its own makes the snapshot keep the list whole",
		path: "src/separator.js",
		src: `const api = {
  a() {
    return 1;
  }
  ,
  b() {
    return 2;
  }
  ,
  c() {
    return 3;
  }
};
`,
		targets: []Target{{StartLine: 2, EndLine: 4}, {StartLine: 10, EndLine: 12}},
		level:   1,
		whole:   true,
	},
	{
		name: "class decorators are not part of the header; a target's own are",
		path: "src/decorated.ts",
		src: `import { Component, Input, HostListener } from '@angular/core';

@Component({
  selector: 'app-item',
  template: '<p>{{ name }}</p>',
})
export class ItemComponent {
  @Input() name = '';

  @HostListener('click')
  onClick(): void {
    console.log(this.name);
  }
}
`,
		targets: []Target{{StartLine: 10, EndLine: 13}},
		leftOut: [][2]int{{3, 6}},
	},
	{
		name: "this inside a nested function is not the class instance",
		path: "src/legacy.js",
		src: `class Timer {
  count = 0;
  label = 'timer';

  start() {
    setInterval(function () {
      this.count++;
    }, 1000);
    return this.label;
  }
}
`,
		targets: []Target{{StartLine: 5, EndLine: 10}},
		leftOut: [][2]int{{2, 2}},
	},
	{
		name: "a function-valued field is a method, a large constructor is left out",
		path: "src/fields.ts",
		src: `export class Form {
  private value = '';
  private onChange = (v: string) => {
    this.value = v;
  };

  constructor(private readonly id: string) {
` + strings.Repeat("    this.value = id;\n", 14) + `  }

  submit(): string {
    this.onChange(this.value);
    return this.id;
  }
}
`,
		targets: []Target{{StartLine: 25, EndLine: 28}},
		leftOut: [][2]int{{3, 5}, {7, 23}},
	},
	{
		name:    "CRLF line ends are written as LF, lines otherwise exact",
		path:    "src/crlf.ts",
		src:     "const A = 1;\r\nconst B = 2;\r\n\r\nexport function f() {\r\n  return A;\r\n}\r\n",
		targets: []Target{{StartLine: 4, EndLine: 6}},
		want:    "// src/crlf.ts\n\nconst A = 1;\n\nexport function f() {\n  return A;\n}\n",
	},
	{
		name: "a hashbang is never repeated after the header",
		path: "bin/cli.js",
		src: `#!/usr/bin/env node
const args = process.argv.slice(2);
main(args);
`,
		targets: []Target{{StartLine: 1, EndLine: 3}},
		leftOut: [][2]int{{1, 1}},
	},
}

func TestRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			res := buildResult(t, tc.path, []byte(tc.src), tc.targets)
			want := tc.wantText()
			if res.text != want {
				t.Errorf("got:\n%s\nwant:\n%s", res.text, want)
			}
			if res.level != tc.level {
				t.Errorf("skeleton level %d, want %d", res.level, tc.level)
			}
			if res.snapshotErrors {
				t.Error("snapshot does not parse")
			}
			fc, err := newFacts(tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			v := fc.validate(tc.targets, res)
			v.structure()
			v.nothingUnreferenced()
			for _, p := range v.problems {
				t.Error(p)
			}
		})
	}
}

func TestBuildAPI(t *testing.T) {
	src := []byte("export const A = 1;\nexport function f() {\n  return A;\n}\n")
	got, err := Build("src/a.ts", src, []Target{{StartLine: 2, EndLine: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "// src/a.ts\n\nexport const A = 1;\nexport function f() {\n  return A;\n}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	f, err := Parse("src/a.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.Build([]Target{{StartLine: 2, EndLine: 4}})
	if err != nil || again != got {
		t.Errorf("File.Build = %q, %v; want the same as Build", again, err)
	}
	f.Close()
	f.Close() // idempotent
	if _, err := f.Build([]Target{{StartLine: 2, EndLine: 4}}); err == nil {
		t.Error("Build on a closed File succeeded")
	}

	for _, bad := range [][]Target{nil, {{StartLine: 0, EndLine: 1}}, {{StartLine: 3, EndLine: 2}}, {{StartLine: 1, EndLine: 5}}} {
		if _, err := Build("src/a.ts", src, bad); err == nil {
			t.Errorf("targets %v: no error", bad)
		}
	}
	if _, err := Build("src/a.py", src, []Target{{StartLine: 1, EndLine: 1}}); err == nil || !strings.Contains(err.Error(), "unsupported") {
		t.Errorf("unsupported language: %v", err)
	}
}

// A file that does not parse still gets a snapshot built from what
// tree-sitter recovered.
func TestBrokenFile(t *testing.T) {
	src := []byte("const A = 1;\nexport function f( {\n  return A;\n}\nconst B = ;\n")
	res := buildResult(t, "src/broken.ts", src, []Target{{StartLine: 2, EndLine: 4}})
	if !res.fileErrors {
		t.Fatal("expected the file to have syntax errors")
	}
	if !strings.HasPrefix(res.text, "// src/broken.ts\n\n") || !strings.Contains(res.text, "return A;") {
		t.Errorf("snapshot:\n%s", res.text)
	}
}

// Build parses per call and shares only the grammar's parser pool, so
// concurrent snapshots of different files are safe.
func TestBuildConcurrent(t *testing.T) {
	done := make(chan error)
	for i := 0; i < 8; i++ {
		tc := ruleCases[i%len(ruleCases)]
		go func() {
			got, err := Build(tc.path, []byte(tc.src), tc.targets)
			if err == nil && got != tc.wantText() {
				err = errors.New(tc.name + ": output differs under concurrency")
			}
			done <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
