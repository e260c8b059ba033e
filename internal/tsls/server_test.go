package tsls_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

func start(t *testing.T, root string, opts tsls.Options) *tsls.Server {
	t.Helper()
	opts.Root = root
	opts.TsgoPath = tslstest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := tsls.StartWithOptions(ctx, opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return srv
}

// each is f of every one of items, in order.
func each[T any](items []T, f func(T) string) []string {
	var out []string
	for _, it := range items {
		out = append(out, f(it))
	}
	return out
}

// startProj starts the server on the test project, testdata/proj, and
// returns it with the project's absolute root.
func startProj(t *testing.T, opts tsls.Options) (*tsls.Server, string) {
	t.Helper()
	root, err := filepath.Abs("testdata/proj")
	if err != nil {
		t.Fatal(err)
	}
	return start(t, root, opts), root
}

// startGreet starts TypeScript 7 on testdata/proj with opts; it returns
// the server, src/greet.ts and the position of its first call of hello.
func startGreet(t *testing.T, opts tsls.Options) (*tsls.Server, string, tsls.Position) {
	t.Helper()
	srv, root := startProj(t, opts)
	greet := filepath.Join(root, "src", "greet.ts")
	return srv, greet, at(t, greet, "hello(", 0)
}

// hierarchyItem prepares the call hierarchy at pos of file: the one item
// there, which must be the declaration named name.
func hierarchyItem(t *testing.T, srv *tsls.Server, file string, pos tsls.Position, name string) tsls.CallHierarchyItem {
	t.Helper()
	items, err := srv.PrepareCallHierarchy(context.Background(), file, pos)
	if err != nil || len(items) != 1 || items[0].Name != name {
		t.Fatalf("prepareCallHierarchy(%s) = %+v, %v", name, items, err)
	}
	return items[0]
}

// at returns the LSP position of the n-th occurrence (0-based) of needle in
// file, converting through the parser's coordinates as scry does.
func at(t *testing.T, file, needle string, n int) tsls.Position {
	t.Helper()
	txt, err := tsls.ReadText(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(txt.Bytes())
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(src[off+1:], needle)
		if j < 0 {
			t.Fatalf("%q occurrence %d not in %s", needle, n, file)
		}
		off += 1 + j
	}
	row, col := txt.RowCol(off)
	pos, err := txt.PositionOf(row, col)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func TestServerRequests(t *testing.T) {
	srv, root := startProj(t, tsls.Options{})
	ctx := context.Background()
	greet := filepath.Join(root, "src", "greet.ts")
	main := filepath.Join(root, "src", "main.ts")

	if v := srv.Version(); !strings.HasPrefix(v, "7.") {
		t.Errorf("Version = %q", v)
	}

	syms, err := srv.DocumentSymbols(ctx, greet)
	if err != nil {
		t.Fatal(err)
	}
	names := each(syms, func(s tsls.DocumentSymbol) string { return s.Name + ":" + s.Kind.String() })
	if got := strings.Join(names, " "); got != "Greeter:interface hello:function shout:function Polite:class" {
		t.Errorf("document symbols = %s", got)
	}

	// `run` sits after two astral-plane characters on its line: its UTF-16
	// column differs from its byte column, and the server must agree.
	runPos := at(t, main, "run", 0)
	h, err := srv.Hover(ctx, main, runPos)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Code(); got != "function run(): string" {
		t.Errorf("hover(run) = %q", got)
	}

	helloPos := at(t, greet, "hello(", 0)
	h, err = srv.Hover(ctx, greet, helloPos)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Code(); got != "function hello(name: string): string" {
		t.Errorf("hover(hello) = %q", got)
	}
	if !strings.Contains(h.Contents, "Says hello.") {
		t.Errorf("hover docs missing: %q", h.Contents)
	}

	refs, err := srv.References(ctx, greet, helloPos, false)
	if err != nil {
		t.Fatal(err)
	}
	// Polite.greet's call and main.ts's call; the import specifier is a
	// declaration of the local binding and is left out with the declaration.
	sites := each(refs, func(r tsls.Location) string { return filepath.Base(r.Path()) })
	if got := strings.Join(sites, " "); got != "greet.ts main.ts" {
		t.Errorf("references(hello) = %s", got)
	}
	refs, err = srv.References(ctx, greet, helloPos, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 4 {
		t.Errorf("references with declarations = %d, want 4 (decl, import, 2 calls)", len(refs))
	}

	defs, err := srv.Definition(ctx, main, at(t, main, "hello(", 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Path() != greet || defs[0].Range.Start != helloPos {
		t.Errorf("definition(hello call) = %+v", defs)
	}

	impls, err := srv.Implementation(ctx, greet, at(t, greet, "Greeter", 0))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range impls {
		if l.Path() == greet && l.Range.Start == at(t, greet, "Polite", 0) {
			found = true
		}
	}
	if !found {
		t.Errorf("implementation(Greeter) lacks Polite: %+v", impls)
	}

	item := hierarchyItem(t, srv, greet, helloPos, "hello")
	out, err := srv.OutgoingCalls(ctx, item)
	if err != nil || len(out) != 1 || out[0].To.Name != "shout" {
		t.Errorf("outgoingCalls(hello) = %+v, %v", out, err)
	}
	in, err := srv.IncomingCalls(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	callers := each(in, func(c tsls.IncomingCall) string { return c.From.Name })
	if got := strings.Join(callers, " "); !strings.Contains(got, "greet") || !strings.Contains(got, "run") {
		t.Errorf("incomingCalls(hello) = %s", got)
	}

	ws, err := srv.WorkspaceSymbol(ctx, "Polite")
	if err != nil || len(ws) == 0 || ws[0].Name != "Polite" || ws[0].Location.Path() != greet {
		t.Errorf("workspace/symbol(Polite) = %+v, %v", ws, err)
	}
}

// TestServerSeesDiskEdits: an edit on disk is reflected in the next answer —
// automatically for the request's own file, through FilesChanged for others.
func TestServerSeesDiskEdits(t *testing.T) {
	root := t.TempDir()
	testkit.CopyTree(t, "testdata/proj", root)
	srv := start(t, root, tsls.Options{WarmFile: "src/main.ts"})
	ctx := context.Background()
	greet := filepath.Join(root, "src", "greet.ts")
	main := filepath.Join(root, "src", "main.ts")

	shoutPos := at(t, greet, "shout", 1)
	h, err := srv.Hover(ctx, greet, shoutPos)
	if err != nil || h.Code() != "function shout(s: string): string" {
		t.Fatalf("hover before edit = %v, %v", h, err)
	}
	edit(t, greet, "export function shout(s: string): string", "export function shout(s: string, times = 2): string")
	h, err = srv.Hover(ctx, greet, shoutPos)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Code(); got != "function shout(s: string, times?: number): string" {
		t.Fatalf("hover after edit = %q", got)
	}

	// main.ts is open (the warm file): edits on disk reach the server as a
	// didChange; greet.ts's reference count must include the new call.
	helloPos := at(t, greet, "hello(", 0)
	refs := func() int {
		t.Helper()
		locs, err := srv.References(ctx, greet, helloPos, false)
		if err != nil {
			t.Fatal(err)
		}
		return len(locs)
	}
	wantRefs := func(after string, want int) {
		t.Helper()
		if got := refs(); got != want {
			t.Fatalf("references after %s: %d, want %d", after, got, want)
		}
	}
	before := refs()
	edit(t, main, `return hello("a")`, `return hello("a") + hello("c")`)
	if err := srv.FilesChanged(ctx, main); err != nil {
		t.Fatal(err)
	}
	wantRefs("editing main.ts", before+1)

	// A new file: created events make the project pick it up.
	extra := filepath.Join(root, "src", "extra.ts")
	if err := os.WriteFile(extra, []byte("import { hello } from './greet.js';\nexport const x = hello('z');\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := srv.NotifyFileEvents(ctx, []tsls.FileEvent{{Path: extra, Type: tsls.FileCreated}}); err != nil {
		t.Fatal(err)
	}
	wantRefs("creating extra.ts", before+2)
	if err := os.Remove(extra); err != nil {
		t.Fatal(err)
	}
	if err := srv.FilesChanged(ctx, extra); err != nil {
		t.Fatal(err)
	}
	wantRefs("deleting extra.ts", before+1)
}

// edit replaces old with new in file and makes sure the mtime moves even on
// filesystems with coarse timestamps.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	st, _ := os.Stat(file)
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	future := st.ModTime().Add(2 * time.Second)
	if err := os.Chtimes(file, future, future); err != nil {
		t.Fatal(err)
	}
}

func TestServerConcurrent(t *testing.T) {
	srv, greet, pos := startGreet(t, tsls.Options{})
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				var err error
				switch (i + j) % 3 {
				case 0:
					_, err = srv.Hover(ctx, greet, pos)
				case 1:
					_, err = srv.References(ctx, greet, pos, false)
				case 2:
					_, err = srv.DocumentSymbols(ctx, greet)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
