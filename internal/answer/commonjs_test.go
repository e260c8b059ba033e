package answer_test

import (
	"context"
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestCommonJSImporters: find_importers sees CommonJS's re-exports and
// the requires that read a member or call what they require. mocha's
// lib/mocha.cjs, `exports.Runnable = require("./runnable.js").Runnable`,
// was missing from the importers of lib/runnable.js.
func TestCommonJSImporters(t *testing.T) {
	root := testkit.Tree(t, map[string]string{
		"lib/runnable.js": "class Runnable {\n  run() {\n    return 1;\n  }\n}\nexports.Runnable = Runnable;\n",
		"lib/mocha.cjs":   "exports.Runnable = require('./runnable.js').Runnable;\n",
		"lib/hook.js":     "var Runnable = require('./runnable.js').Runnable;\nclass Hook extends Runnable {}\nmodule.exports = Hook;\n",
		"lib/runner.cjs":  "var { Runnable } = require('./runnable.js');\nmodule.exports = function run() {\n  return new Runnable();\n};\n",
		"lib/setup.js":    "require('./runnable.js');\n",
		"lib/other.js":    "module.exports = require('./hook.js');\n",
	})
	e := openIndexed(t, root, engine.Options{})
	imps, err := reads(e).Importers(context.Background(), "lib/runnable.js")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, im := range imps {
		files = append(files, im.File)
	}
	slices.Sort(files)
	if want := []string{"lib/hook.js", "lib/mocha.cjs", "lib/runner.cjs", "lib/setup.js"}; !slices.Equal(files, want) {
		t.Errorf("importers of lib/runnable.js: %q, want %q", files, want)
	}
}
