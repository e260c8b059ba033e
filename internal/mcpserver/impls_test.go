package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/testkit"
)

// TestImplementationsOfAnAmbiguousName: find_implementations answers for
// the classes and interfaces a name matches, not for every variable that
// holds one. mocha's `Runnable` matched its class, `exports.Runnable =
// require(…)` and six tests' `var Runnable = Mocha.Runnable`, each "0
// implementation(s)".
func TestImplementationsOfAnAmbiguousName(t *testing.T) {
	cs, root := inProcess(t, 0)
	testkit.WriteTree(t, root, map[string]string{
		"lib/runnable.js":   "class Runnable {\n  run() {\n    return 1;\n  }\n}\nmodule.exports = Runnable;\n",
		"lib/hook.js":       "var Runnable = require('./runnable');\nclass Hook extends Runnable {\n  run() {\n    return 2;\n  }\n}\nmodule.exports = Hook;\n",
		"lib/index.js":      "exports.Runnable = require('./runnable.js');\nexports.Hook = require('./hook.js');\n",
		"test/hook.spec.js": "var Mocha = require('../lib/index.js');\nvar Runnable = Mocha.Runnable;\ndescribe('Hook', function () {\n  it('runs', function () {\n    new Runnable().run();\n  });\n});\n",
	})
	text, _ := call(t, cs, "find_implementations", map[string]any{"symbol": "Runnable"})
	if !strings.Contains(text, "Runnable — lib/runnable.js: 1 implementation(s)") || !strings.Contains(text, "class Hook — lib/hook.js:2") {
		t.Errorf("the class's implementations are missing:\n%s", text)
	}
	for _, v := range []string{"Runnable — lib/index.js", "Runnable — test/hook.spec.js"} {
		if strings.Contains(text, v) {
			t.Errorf("a variable holding the class was answered too (%s):\n%s", v, text)
		}
	}
}
