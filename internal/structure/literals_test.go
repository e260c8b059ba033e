package structure

import "testing"

func TestWithholdLiterals(t *testing.T) {
	own := []byte(`export const a = 'kept'; const n = 42; const s = "say \"hi\"";`)
	for _, tc := range []struct{ code, want string }{
		{`const k: "sk-live-1"`, `const k: string`},
		{`const a: "kept"`, `const a: "kept"`},
		{`const n: 42`, `const n: 42`},
		{`const p: 48151`, `const p: number`},
		{`const b: 900n`, `const b: bigint`},
		{"const t: `x-${string}`", "const t: string"},
		{`const s: "say \"hi\""`, `const s: "say \"hi\""`},
		{`function f(v3: Vec3): "a" | "kept"`, `function f(v3: Vec3): string | "kept"`},
		{`const u: "unterminated`, `const u: string`},
		{`const e: ""`, `const e: ""`},
	} {
		if got := withholdLiterals(tc.code, own); got != tc.want {
			t.Errorf("withholdLiterals(%q) = %q, want %q", tc.code, got, tc.want)
		}
	}
}
