package structure_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// query is one golden case: the declaration named Symbol, found inside the
// first occurrence of Decl in File (the parser would give its position).
type query struct {
	Case     string            `json:"case"`
	File     string            `json:"file"`
	Decl     string            `json:"decl"`
	Symbol   string            `json:"symbol"`
	Kind     string            `json:"kind,omitempty"`
	Depth    int               `json:"callDepth,omitempty"`
	Sections structure.Section `json:"-"`
	Only     string            `json:"sections,omitempty"`
}

const (
	secCalls     = structure.SecSignature | structure.SecOutgoing | structure.SecIncoming
	secHierarchy = structure.SecSignature | structure.SecHierarchy
)

func sectionNames(s structure.Section) string {
	if s == 0 || s == structure.SecAll {
		return ""
	}
	var parts []string
	for _, n := range []struct {
		s    structure.Section
		name string
	}{
		{structure.SecSignature, "signature"}, {structure.SecHierarchy, "hierarchy"},
		{structure.SecOutgoing, "outgoing"}, {structure.SecIncoming, "incoming"},
		{structure.SecReferences, "references"}, {structure.SecTypeFlows, "typeFlows"},
		{structure.SecMembers, "members"},
	} {
		if s&n.s != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, ",")
}

// fixtures maps each project under testdata/ to its questions; the answers
// are in testdata/<project>.expected.txtar, paths relative to the project.
// testdata/type-flows/node_modules/fake-money is part of the fixture (an
// external package with a .d.ts): it must be committed even where
// node_modules is ignored.
var fixtures = map[string][]query{
	"call-chain": {
		{Case: "processRequest", File: "service.ts", Decl: "function processRequest", Symbol: "processRequest"},
		{Case: "validate", File: "validator.ts", Decl: "function validate", Symbol: "validate", Sections: secCalls},
		{Case: "format", File: "formatter.ts", Decl: "function format", Symbol: "format", Sections: secCalls},
		{Case: "sanitize", File: "helper.ts", Decl: "function sanitize", Symbol: "sanitize", Sections: secCalls},
	},
	"multi-hop": append(atDepths("entry.ts", "handle", 1, 2, 3, -1),
		query{Case: "compute callers depth 2", File: "helper.ts", Decl: "function compute", Symbol: "compute", Depth: 2, Sections: secCalls},
		query{Case: "compute callers transitive", File: "helper.ts", Decl: "function compute", Symbol: "compute", Depth: -1, Sections: secCalls},
	),
	"cycle": append(atDepths("alpha.ts", "alpha", 1, 2, 3, -1), atDepths("math.ts", "factorial", 1, -1)...),
	"constructor": append(atDepths("factory.ts", "createWidget", 1, 2),
		query{Case: "createPlain", File: "factory.ts", Decl: "function createPlain", Symbol: "createPlain", Depth: 2, Sections: secCalls},
		query{Case: "Widget", File: "widget.ts", Decl: "class Widget", Symbol: "Widget"},
		query{Case: "initialize callers depth 2", File: "helper.ts", Decl: "function initialize", Symbol: "initialize", Depth: 2, Sections: secCalls},
	),
	"type-hierarchy": {
		{Case: "Entity", File: "interfaces.ts", Decl: "interface Entity", Symbol: "Entity", Sections: secHierarchy},
		{Case: "Serializable", File: "interfaces.ts", Decl: "interface Serializable", Symbol: "Serializable", Sections: secHierarchy},
		{Case: "Auditable", File: "interfaces.ts", Decl: "interface Auditable", Symbol: "Auditable", Sections: secHierarchy},
		{Case: "BaseModel", File: "models.ts", Decl: "class BaseModel", Symbol: "BaseModel"},
		{Case: "User", File: "models.ts", Decl: "class User", Symbol: "User", Sections: secHierarchy},
		{Case: "AdminUser", File: "models.ts", Decl: "class AdminUser", Symbol: "AdminUser", Sections: secHierarchy},
		{Case: "AuditedModel", File: "diamond.ts", Decl: "class AuditedModel", Symbol: "AuditedModel", Sections: secHierarchy},
		{Case: "Standalone", File: "standalone.ts", Decl: "class Standalone", Symbol: "Standalone", Sections: secHierarchy},
		{Case: "Repository", File: "generics.ts", Decl: "interface Repository", Symbol: "Repository", Sections: secHierarchy},
		{Case: "Queryable", File: "generics.ts", Decl: "interface Queryable", Symbol: "Queryable", Sections: secHierarchy},
		{Case: "Container", File: "generics.ts", Decl: "class Container", Symbol: "Container", Sections: secHierarchy},
		{Case: "UserRepository", File: "generics.ts", Decl: "class UserRepository", Symbol: "UserRepository"},
	},
	"references": {
		{Case: "formatCurrency", File: "currency.ts", Decl: "function formatCurrency", Symbol: "formatCurrency",
			Sections: structure.SecSignature | structure.SecReferences | structure.SecIncoming},
	},
	"type-flows": {
		{Case: "checkout", File: "checkout.ts", Decl: "function checkout", Symbol: "checkout"},
		{Case: "quickCheckout", File: "checkout.ts", Decl: "const quickCheckout", Symbol: "quickCheckout",
			Sections: structure.SecSignature | structure.SecTypeFlows | structure.SecOutgoing},
		{Case: "Receipt", File: "models/receipt.ts", Decl: "class Receipt", Symbol: "Receipt",
			Sections: structure.SecSignature | structure.SecTypeFlows | structure.SecReferences},
		{Case: "buy", File: "store.ts", Decl: "function buy", Symbol: "buy", Sections: structure.SecSignature | structure.SecTypeFlows},
	},
	"members": {
		{Case: "Account", File: "account.ts", Decl: "class Account", Symbol: "Account"},
		{Case: "AccountOptions", File: "account.ts", Decl: "interface AccountOptions", Symbol: "AccountOptions",
			Sections: structure.SecSignature | structure.SecMembers | structure.SecReferences},
		{Case: "Account.withdraw", File: "account.ts", Decl: "async withdraw", Symbol: "withdraw", Kind: "method"},
	},
	"cross-module": {
		{Case: "hmac", File: "lib/crypto.ts", Decl: "function hmac", Symbol: "hmac",
			Sections: structure.SecSignature | structure.SecIncoming | structure.SecReferences},
		{Case: "Logger", File: "lib/logger.ts", Decl: "class Logger", Symbol: "Logger"},
		{Case: "Settings", File: "lib/settings.ts", Decl: "interface Settings", Symbol: "Settings",
			Sections: structure.SecSignature | structure.SecMembers | structure.SecReferences},
		{Case: "defaults", File: "lib/settings.ts", Decl: "function defaults", Symbol: "defaults"},
		{Case: "signRequest", File: "app.ts", Decl: "function signRequest", Symbol: "signRequest", Depth: 2, Sections: secCalls},
		// Calls resolve to overload signatures; trees walk the implementation.
		{Case: "parseBody", File: "app.ts", Decl: "function parseBody", Symbol: "parseBody", Depth: 3, Sections: secCalls},
		{Case: "parse (first overload)", File: "lib/parse.ts", Decl: "function parse", Symbol: "parse", Sections: secCalls},
	},
	"same-name": {
		{Case: "runAll depth 2", File: "runner.ts", Decl: "function runAll", Symbol: "runAll", Depth: 2, Sections: secCalls},
	},
	"fallback": {
		{Case: "normalize depth 1", File: "compose.ts", Decl: "const normalize", Symbol: "normalize"},
		{Case: "normalize depth 2", File: "compose.ts", Decl: "const normalize", Symbol: "normalize", Depth: 2, Sections: secCalls},
		{Case: "userKey", File: "users.ts", Decl: "function userKey", Symbol: "userKey", Sections: secCalls},
	},
}

// atDepths is the call-tree questions about the function name of file at
// each of depths (-1: transitive), named "name depth N" or "name
// transitive".
func atDepths(file, name string, depths ...int) []query {
	var qs []query
	for _, d := range depths {
		c := fmt.Sprintf("%s depth %d", name, d)
		if d < 0 {
			c = name + " transitive"
		}
		qs = append(qs, query{Case: c, File: file, Decl: "function " + name, Symbol: name, Depth: d, Sections: secCalls})
	}
	return qs
}

// targetOf converts a query to the parser-style target (1-based line, byte
// column of the name).
func targetOf(t testing.TB, root string, q query) structure.Target {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(q.File))
	txt, err := tsls.ReadText(path)
	if err != nil {
		t.Fatal(err)
	}
	src := string(txt.Bytes())
	i := strings.Index(src, q.Decl)
	if i < 0 {
		t.Fatalf("%s: %q not found", q.File, q.Decl)
	}
	j := strings.Index(q.Decl, q.Symbol)
	if j < 0 {
		t.Fatalf("%q does not contain %q", q.Decl, q.Symbol)
	}
	line, col := txt.RowCol(i + j)
	return structure.Target{Position: structure.Position{File: path, Line: line, Column: col}, Name: q.Symbol, Kind: q.Kind}
}

func tslstestBinary(t *testing.T) { tslstest.Binary(t) }

// servers shares one server per fixture root across tests of a run.
var servers = struct {
	sync.Mutex
	m map[string]*tsls.Server
}{m: map[string]*tsls.Server{}}

// serverFor returns a shared server for a read-only fixture (closed by
// TestMain).
func serverFor(t *testing.T, root string) *tsls.Server {
	t.Helper()
	servers.Lock()
	defer servers.Unlock()
	if srv := servers.m[root]; srv != nil {
		return srv
	}
	srv := newServer(t, root)
	servers.m[root] = srv
	return srv
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, srv := range servers.m {
		_ = srv.Close()
	}
	os.Exit(code)
}

// fixtureDir is the absolute path of the project testdata/name: the
// language server takes its root, and answers with paths, absolute.
func fixtureDir(t *testing.T, name string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// startServer starts a server of the test's own on root, closed when the
// test ends.
func startServer(t *testing.T, root string) *tsls.Server {
	t.Helper()
	srv := newServer(t, root)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// newServer starts TypeScript 7 on root, allowing it a minute to load.
func newServer(t *testing.T, root string) *tsls.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := tsls.Start(ctx, root, tslstest.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// answer is one question and its answer, as a fixture's golden file
// (testdata/NAME.expected.txtar, one file per case; go test -update
// rewrites it) holds them.
type answer struct {
	Query  query                     `json:"query"`
	Result *structure.SymbolMetadata `json:"result"`
}

func TestFixtures(t *testing.T) {
	tslstest.Binary(t) // skip early, once
	for name, queries := range fixtures {
		t.Run(name, func(t *testing.T) {
			root := fixtureDir(t, name)
			res := structure.NewCompiler(serverFor(t, root))
			var got []golden.File
			for _, q := range queries {
				q.Only = sectionNames(q.Sections)
				md, err := res.Metadata(context.Background(), targetOf(t, root, q), structure.Options{CallDepth: q.Depth, Sections: q.Sections})
				if err != nil {
					t.Fatalf("%s: %v", q.Case, err)
				}
				if md.Approximate {
					t.Errorf("%s: compiler answer marked approximate", q.Case)
				}
				got = append(got, golden.File{Name: q.Case, Data: encode(t, answer{Query: q, Result: md})})
			}
			golden.Check(t, filepath.Join("testdata", name+".expected.txtar"), got)
		})
	}
}

func encode(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
