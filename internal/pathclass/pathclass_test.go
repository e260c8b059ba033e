package pathclass

import "testing"

func TestClasses(t *testing.T) {
	tests := []struct {
		path                     string
		test, support, aux, decl bool
	}{
		{"src/auth/token.ts", false, false, false, false},
		{"src/auth/token.test.ts", true, false, false, false},
		{"packages/core/__tests__/watch.spec.ts", true, false, false, false},
		{"packages/core/__test__/watch.ts", true, false, false, false},
		{"test/helpers/server.js", true, false, false, false},
		{"Test/Helpers/Server.js", true, false, false, false}, // case does not matter
		{"specs/router.js", true, false, false, false},
		{"src/app.e2e.ts", true, false, false, false},
		{"e2e/react/app.tsx", true, false, false, false},
		{"pkg/reader_test.js", true, false, false, false},
		{"src/__mocks__/fs.ts", false, true, false, false},
		{"src/testing/render.tsx", false, true, false, false},
		{"src/components/__snapshots__/button.ts", false, true, false, false},
		{"examples/react/basic/src/main.tsx", false, false, true, false},
		{"packages/router/src/fixtures/tree.ts", false, false, true, false},
		{"docs/guide/setup.js", false, false, true, false},
		{"src/types/index.d.ts", false, false, false, true},
		{"src/types/index.d.mts", false, false, false, true},
		{"src/helpers/to-json-schema.ts", false, false, false, false},
		{"src/contest/testimony.ts", false, false, false, false},
		{"src/latest/protest.ts", false, false, false, false},
		{"public/js/chart.umd.js", false, false, true, false},
		{"static/app.bundle.js", false, false, true, false},
		{"vendor-lib/lodash.min.js", false, false, true, false},
		{"src/umd/factory.ts", false, false, false, false},
		{"lib/test.js", false, false, false, false}, // mocha's Test
		{"packages/runner/src/test.ts", false, false, false, false},
		{"test.js", true, false, false, false},
		{"config/prettier/test.ts", true, false, false, false},
		{"lib/test-utils.js", true, false, false, false},
		{"lib/test.helpers.js", true, false, false, false},
		{"src/test/index.ts", true, false, false, false},
		{"packages/core/src/link.test-d.tsx", true, false, false, false},
		{"src/api.spec-d.ts", true, false, false, false},
	}
	for _, tt := range tests {
		if got := Test(tt.path); got != tt.test {
			t.Errorf("Test(%q) = %v", tt.path, got)
		}
		if got := TestSupport(tt.path); got != tt.support {
			t.Errorf("TestSupport(%q) = %v", tt.path, got)
		}
		if got := TestCode(tt.path); got != (tt.test || tt.support) {
			t.Errorf("TestCode(%q) = %v", tt.path, got)
		}
		if got := Aux(tt.path); got != tt.aux {
			t.Errorf("Aux(%q) = %v", tt.path, got)
		}
		if got := Decl(tt.path); got != tt.decl {
			t.Errorf("Decl(%q) = %v", tt.path, got)
		}
	}
}

func TestRank(t *testing.T) {
	for p, want := range map[string]int{
		"src/cart.ts":           0,
		"src/cart.test.ts":      1,
		"src/__mocks__/cart.ts": 1,
		"examples/shop/cart.ts": 2,
		"test/fixtures/cart.ts": 2, // a fixture is auxiliary before it is a test
		"lib/test.js":           0,
	} {
		if got := Rank(p); got != want {
			t.Errorf("Rank(%q) = %d, want %d", p, got, want)
		}
		if got := Compare(p, "src/cart.ts"); (got > 0) != (want > 0) || got < 0 {
			t.Errorf("Compare(%q, code) = %d, want it after the code when Rank > 0", p, got)
		}
	}
}
