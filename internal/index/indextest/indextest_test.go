package indextest

import (
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// twoFiles is a tree of one TypeScript and one JavaScript file.
var twoFiles = map[string]string{
	"a.ts":     "export function alpha() { return 1 }\n",
	"lib/b.js": "module.exports = function beta() { return 2 };\n",
}

// A synced index holds every file of the tree; the store outlives an
// early close (the cleanup closes it again, harmlessly).
func TestSynced(t *testing.T) {
	st, sum := Synced(t, testkit.Tree(t, twoFiles))
	if sum.Indexed != 2 {
		t.Fatalf("indexed %d files, want 2 (%+v)", sum.Indexed, sum)
	}
	for _, p := range []string{"a.ts", "lib/b.js"} {
		if _, ok, err := st.File(p); err != nil || !ok {
			t.Errorf("%s not in the index (%v)", p, err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}
