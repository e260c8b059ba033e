package weaviate_test

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/index/indextest"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

func connect(t testing.TB) *weaviate.Client {
	t.Helper()
	c, err := weaviate.Connect(context.Background(), weaviatetest.Config(t))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// workspaceIndex is a workspace on disk with its local index, synced.
type workspaceIndex struct {
	dir string
	st  *store.Store
	ix  *index.Indexer
}

func newWorkspace(t testing.TB, files map[string]string) *workspaceIndex {
	t.Helper()
	dir := testkit.Tree(t, files)
	ix, st := indextest.Open(t, dir, index.Options{})
	w := &workspaceIndex{dir: dir, st: st, ix: ix}
	w.sync(t)
	return w
}

func (w *workspaceIndex) sync(t testing.TB) {
	t.Helper()
	if _, err := w.ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (w *workspaceIndex) options() weaviate.PushOptions {
	return weaviate.PushOptions{ReadFile: func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(rel)))
	}}
}

// vectorOptions are options that push the vectors of model the local
// index holds as well.
func (w *workspaceIndex) vectorOptions(model string) weaviate.PushOptions {
	opt := w.options()
	opt.VectorModel = model
	opt.Vectors = func(ids []string) (map[string][]float32, error) {
		out := map[string][]float32{}
		for _, id := range ids {
			if v, err := w.st.GetVector(id, model); err == nil {
				out[id] = v
			}
		}
		return out, nil
	}
	return opt
}

// readerOf is a reader of c's repositories repos.
func readerOf(t *testing.T, c *weaviate.Client, repos ...string) *weaviate.Reader {
	t.Helper()
	rd, err := c.Reader(context.Background(), repos)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// pushed pushes a new workspace of files to a new repository (named
// after name) of the test cluster.
func pushed(t *testing.T, name string, files map[string]string) (*weaviate.Client, *workspaceIndex, string) {
	t.Helper()
	c := connect(t)
	w := newWorkspace(t, files)
	repo := weaviatetest.TenantOf(t, c, name)
	w.push(t, c, repo)
	return c, w, repo
}

func (w *workspaceIndex) push(t testing.TB, c *weaviate.Client, repo string) weaviate.PushSummary {
	t.Helper()
	sum, err := c.Push(context.Background(), repo, w.st, w.options())
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// fixture is testkit.AuthApp with a second function in token.ts and both
// constants declared in one statement.
var fixture = func() map[string]string {
	files := testkit.AuthApp()
	files["src/auth/token.ts"] += `
/** Issues a token for a user. */
export function issueToken(user: string): string {
  return hmac(user + ':' + Date.now());
}
`
	files["src/config.ts"] = "export const TOKEN_EXPIRY = 3600, ISSUER = 'scry';\n"
	files["src/legacy/session.js"] = `function Session() {}
/** Renews the session's expiry. */
Session.prototype.renew = function (ttl) {
  this.expires = Date.now() + ttl;
};
`
	return files
}()

// corpusFiles adds immer's sources from the npm test corpus, when present,
// so parity is checked on real code too.
func corpusFiles(t *testing.T) map[string]string {
	files := map[string]string{}
	for k, v := range fixture {
		files[k] = v
	}
	dir := os.Getenv("SCRY_CORPUS")
	if dir == "" {
		return files
	}
	src := filepath.Join(dir, "node_modules", "immer", "src")
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil {
			rel, _ := filepath.Rel(src, p)
			files["immer/"+filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return files
}

// runnerUp is the ID of the result with the highest ranker score after the
// first (Rerank, the score before the list spreads its first places over
// files).
func runnerUp(rs []search.Result) string {
	best := 1
	for i := 2; i < len(rs); i++ {
		if rs[i].Rerank > rs[best].Rerank {
			best = i
		}
	}
	return rs[best].Chunk.ID
}

func resultIDs(rs []search.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Chunk.ID
	}
	return out
}

// TestParity: the pipeline answers the same from the shared index as from
// the local one. Both hold the same chunks; the first stage differs only
// in BM25 arithmetic (SQLite normalises by the whole row's length,
// Weaviate per field), so the test asks for the same best result and a
// large overlap of the ranked top ten.
func TestParity(t *testing.T) {
	c := connect(t)
	w := newWorkspace(t, corpusFiles(t))
	repo := weaviatetest.TenantOf(t, c, "parity")
	sum := w.push(t, c, repo)
	files, chunks, _ := w.st.Stats()
	if sum.Sent != files || sum.Chunks != chunks {
		t.Fatalf("push sent %d files / %d chunks, local index has %d / %d", sum.Sent, sum.Chunks, files, chunks)
	}
	ctx := context.Background()
	rd := readerOf(t, c, repo)
	st, err := rd.TermStats([]string{"token", "validat"})
	if err != nil {
		t.Fatal(err)
	}
	local, _ := w.st.TermStats([]string{"token", "validat"})
	if st.Chunks != local.Chunks {
		t.Errorf("chunks: weaviate %d, sqlite %d", st.Chunks, local.Chunks)
	}
	for term, n := range local.DocFreq {
		if st.DocFreq[term] != n {
			t.Errorf("doc freq of %q: weaviate %d, sqlite %d", term, st.DocFreq[term], n)
		}
	}
	queries := []string{
		"where are tokens validated",
		"issue a token for a user",
		"hmac",
		"produce the next immutable state from a draft",
		"freeze deeply",
		"apply patches to a base state",
		"current value of a draft",
		"auto freeze setting",
	}
	prm := search.DefaultParams()
	prm.Threshold = 0
	same, overlap, total := 0, 0, 0
	for _, q := range queries {
		req := search.Request{Query: q, Params: prm}
		lp := search.Pipeline{Store: w.st}
		rp := search.Pipeline{Store: rd}
		lr, err := lp.Rank(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := rp.Rank(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(lr) == 0 || len(rr) == 0 {
			t.Errorf("%q: sqlite %d candidates, weaviate %d", q, len(lr), len(rr))
			continue
		}
		if lr[0].Chunk.ID == rr[0].Chunk.ID {
			same++
		} else {
			t.Logf("%q: best differs: sqlite %s, weaviate %s", q, lr[0].Chunk.Breadcrumb, rr[0].Chunk.Breadcrumb)
			// A swap of the first two is the most a backend's own BM25 may
			// change: each best is the other's runner-up by the ranker's
			// score (the list's second place may be further down, since
			// the first places go to different files).
			if len(lr) < 2 || len(rr) < 2 || lr[0].Chunk.ID != runnerUp(rr) || rr[0].Chunk.ID != runnerUp(lr) {
				t.Errorf("%q: more than a swap of the first two: sqlite %v, weaviate %v", q, resultIDs(lr[:min(3, len(lr))]), resultIDs(rr[:min(3, len(rr))]))
			}
		}
		top := map[string]bool{}
		for _, id := range resultIDs(lr[:min(10, len(lr))]) {
			top[id] = true
		}
		for _, id := range resultIDs(rr[:min(10, len(rr))]) {
			if top[id] {
				overlap++
			}
		}
		total += min(10, len(lr))
	}
	t.Logf("parity: same best result %d/%d, top-10 overlap %d/%d", same, len(queries), overlap, total)
	// Weaviate's BM25 is not FTS5's bm25(): the first-stage scores differ
	// (castImmutable has 0.92 of the best score there, 0.62 in SQLite, for
	// "produce the next immutable state from a draft"), and the ranker's
	// trees read them, so two near-equal neighbours can trade places. Six
	// of eight must agree outright, the others only by such a swap.
	if same < len(queries)-2 {
		t.Errorf("same best result for only %d of %d queries", same, len(queries))
	}
	if float64(overlap) < 0.8*float64(total) {
		t.Errorf("top-10 overlap %d of %d, want at least 80%%", overlap, total)
	}
	// Both backends know the same names: a compound name whose words are
	// indexed but whose whole identifier is not is unknown to both, and a
	// name the code defines or only mentions is known to both.
	for _, tt := range []struct{ query, unknown string }{
		{"validateToken", ""}, {"AuthMiddleware", ""}, {"Date.now", ""}, {"validateSession", "validateSession"},
	} {
		for name, pl := range map[string]search.Pipeline{"sqlite": {Store: w.st}, "weaviate": {Store: rd}} {
			cs, err := pl.Gather(ctx, search.Request{Query: tt.query, Params: prm})
			if err != nil {
				t.Fatal(err)
			}
			if cs.Unknown != tt.unknown {
				t.Errorf("%s: %q unknown %q, want %q", name, tt.query, cs.Unknown, tt.unknown)
			}
		}
	}
	// Both find definitions by name alike, a method assigned to a
	// prototype by the name it defines, after the exact names.
	named := [2][]chunk.Chunk{}
	for i, st := range []search.Reader{w.st, rd} {
		if named[i], err = st.ChunksNamed([]string{"renew", "issueToken", "Session"}, 10); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := strings.Join(chunkIDs(named[0]), ","), strings.Join(chunkIDs(named[1]), ","); a != b || !strings.HasSuffix(a, "=Session.prototype.renew") {
		t.Errorf("ChunksNamed: sqlite %s, weaviate %s; want the assigned method last", a, b)
	}
	// Exact symbol lookups are the same.
	for _, name := range []string{"validateToken", "ISSUER", "AuthMiddleware > verify", "produce"} {
		sp, _, _ := search.ParseSymbolPath(name)
		a, err := search.LookupSymbol(w.st, sp, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := search.LookupSymbol(rd, sp, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(chunkIDs(a), ",") != strings.Join(chunkIDs(b), ",") {
			t.Errorf("symbol %s: sqlite %v, weaviate %v", name, chunkIDs(a), chunkIDs(b))
		}
	}
}

func chunkIDs(cs []chunk.Chunk) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID + "=" + c.Name
	}
	return out
}

// TestIsolation: two repositories define the same names; a reader of one
// never sees the other's chunks, and a reader of both tells them apart.
func TestIsolation(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	a := newWorkspace(t, map[string]string{"src/auth.ts": "/** alpha */\nexport function validateToken(t: string) { return t === 'alpha-secret'; }\n"})
	b := newWorkspace(t, map[string]string{"src/auth.ts": "/** beta */\nexport function validateToken(t: string) { return t === 'beta-secret'; }\n"})
	ra, rb := weaviatetest.TenantOf(t, c, "iso_a"), weaviatetest.TenantOf(t, c, "iso_b")
	a.push(t, c, ra)
	b.push(t, c, rb)
	for _, tc := range []struct {
		repo, want, leak string
	}{{ra, "alpha", "beta"}, {rb, "beta", "alpha"}} {
		rd, err := c.Reader(ctx, []string{tc.repo})
		if err != nil {
			t.Fatal(err)
		}
		res, err := (&search.Pipeline{Store: rd}).Search(ctx, search.Request{Query: "validate token secret", Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		named, err := rd.ChunksByName("validateToken")
		if err != nil {
			t.Fatal(err)
		}
		if len(named) != 1 || !strings.Contains(named[0].FullSource, tc.want) {
			t.Errorf("%s: symbol lookup gave %d chunks, want its own one", tc.repo, len(named))
		}
		var all []chunk.Chunk
		for _, r := range res.Results {
			all = append(all, r.Chunk)
		}
		for _, l := range res.Leads {
			all = append(all, l.Chunk)
		}
		if len(all) == 0 {
			t.Errorf("%s: no answer", tc.repo)
		}
		for _, ch := range append(all, named...) {
			if strings.Contains(ch.FullSource+ch.JSDoc+ch.EmbeddingText, tc.leak) {
				t.Errorf("%s: answer holds the other repository's chunk %s", tc.repo, ch.Breadcrumb)
			}
		}
	}
	both, err := c.Reader(ctx, []string{ra, rb})
	if err != nil {
		t.Fatal(err)
	}
	named, err := both.ChunksByName("validateToken")
	if err != nil {
		t.Fatal(err)
	}
	if len(named) != 2 || named[0].ID == named[1].ID {
		t.Fatalf("both repositories: %v, want two chunks with distinct ids", chunkIDs(named))
	}
	for _, ch := range named {
		repo, _, _ := strings.Cut(ch.RelativePath, "/")
		text, err := both.FileText(ch.RelativePath)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{ra: "alpha", rb: "beta"}[repo]
		if want == "" || !strings.Contains(ch.FullSource, want) || !strings.Contains(text, want) {
			t.Errorf("chunk %s (path %s) does not come from its repository", ch.ID, ch.RelativePath)
		}
	}
}

// TestBadConfig: a wrong URL, a wrong key and a stopped server each fail
// at connection with an error that says which.
func TestBadConfig(t *testing.T) {
	cfg := weaviatetest.Config(t)
	ctx := context.Background()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	for _, tc := range []struct {
		name string
		cfg  weaviate.Config
		want error
	}{
		{"nothing listening", weaviate.Config{URL: closed, Key: cfg.Key}, weaviate.ErrUnreachable},
		{"wrong key", weaviate.Config{URL: cfg.URL, Key: "not-the-key"}, weaviate.ErrUnauthorized},
		{"no key", weaviate.Config{URL: cfg.URL}, weaviate.ErrUnauthorized},
	} {
		_, err := weaviate.Connect(ctx, tc.cfg)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, bad := range []string{"localhost:8080", "http://a:1,https://b:2", "http://a:1/v1", " , "} {
		if _, err := weaviate.Connect(ctx, weaviate.Config{URL: bad}); err == nil || !strings.Contains(err.Error(), "http(s)://") && !strings.Contains(err.Error(), "one scheme") {
			t.Errorf("url %q: got %v", bad, err)
		}
	}
	// With several endpoints, a node that is down is passed over.
	c, err := weaviate.Connect(ctx, weaviate.Config{URL: closed + "," + cfg.URL, Key: cfg.Key})
	if err != nil {
		t.Fatalf("first endpoint down, second up: %v", err)
	}
	if _, err := c.Tenants(ctx); err != nil {
		t.Errorf("first endpoint down, second up: %v", err)
	}
}

// liveSource is what one symbol reads as from the shared index.
func liveSource(t *testing.T, rd *weaviate.Reader, name string) []string {
	t.Helper()
	cs, err := rd.ChunksByName(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		out = append(out, c.RelativePath+": "+strings.TrimSpace(c.FullSource))
	}
	return out
}

// TestSync: edits, additions, deletions and renames reach the tenant and
// nothing else is re-sent; a push interrupted between a file's new chunks
// and its switch leaves the file answering from its old version, and the
// next push finishes the job and leaves no stray objects.
func TestSync(t *testing.T) {
	c, w, repo := pushed(t, "sync", fixture)
	ctx := context.Background()
	rd := readerOf(t, c, repo)
	if sum := w.push(t, c, repo); sum.Sent != 0 || sum.Unchanged != len(fixture) {
		t.Fatalf("second push: %+v, want nothing sent", sum)
	}

	testkit.WriteTree(t, w.dir, map[string]string{
		"src/auth/token.ts": strings.Replace(fixture["src/auth/token.ts"], "length > 0", "length > 1 /* v2 */", 1),
		"src/session.ts":    "export function openSession(id: string) { return id; }\n",
		"src/hash.ts":       fixture["src/crypto.ts"],
	})
	os.Remove(filepath.Join(w.dir, "src/crypto.ts")) // renamed to hash.ts
	os.Remove(filepath.Join(w.dir, "src/app.js"))
	w.sync(t)
	sum := w.push(t, c, repo)
	// One file edited and two gone (one renamed) of the fixture's: the
	// rest are unchanged.
	if unchanged := len(fixture) - 3; sum.Sent != 3 || sum.Deleted != 2 || sum.Unchanged != unchanged {
		t.Errorf("push after edit/add/rename/delete: %+v, want 3 sent, 2 deleted, %d unchanged", sum, unchanged)
	}
	for name, want := range map[string]string{
		"validateToken": "src/auth/token.ts: /** Validates a signed token. */\nexport function validateToken(token: string): boolean {\n  return hmac(token).length > 1 /* v2 */;\n}",
		"openSession":   "src/session.ts: export function openSession(id: string) { return id; }",
		"start":         "",
	} {
		got := strings.Join(liveSource(t, rd, name), "\n")
		if got != want {
			t.Errorf("%s reads\n%s\nwant\n%s", name, got, want)
		}
	}
	if got := liveSource(t, rd, "hmac"); len(got) != 1 || !strings.HasPrefix(got[0], "src/hash.ts: ") {
		t.Errorf("renamed file: hmac reads %q, want it in src/hash.ts only", got)
	}
	checkComplete(t, w, rd)

	// Interrupted: cancel the push after the first changed file's new
	// chunks are written, before its switch.
	testkit.WriteTree(t, w.dir, map[string]string{
		"src/auth/token.ts": strings.Replace(fixture["src/auth/token.ts"], "length > 0", "length > 2 /* v3 */", 1),
	})
	w.sync(t)
	cctx, cancel := context.WithCancel(ctx)
	opt := w.options()
	opt.AfterChunks = func(string) { cancel() }
	if _, err := c.Push(cctx, repo, w.st, opt); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted push: %v, want context.Canceled", err)
	}
	got := liveSource(t, rd, "validateToken")
	if len(got) != 1 || !strings.Contains(got[0], "/* v2 */") {
		t.Errorf("after an interrupted push validateToken reads %q, want only its old version", got)
	}
	st, err := rd.TermStats(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, local, _ := w.st.Stats()
	if st.Chunks <= local {
		t.Errorf("the interrupted push left %d objects for %d chunks; it should have written the new version's chunks", st.Chunks, local)
	}
	if sum := w.push(t, c, repo); sum.Sent != 1 {
		t.Errorf("re-sync: %+v, want the interrupted file sent", sum)
	}
	if got := liveSource(t, rd, "validateToken"); len(got) != 1 || !strings.Contains(got[0], "/* v3 */") {
		t.Errorf("after the re-sync validateToken reads %q, want its new version", got)
	}
	checkComplete(t, w, rd)
}

// checkComplete: the tenant holds exactly the local index's chunks (no
// stray versions) and every file's text.
func checkComplete(t *testing.T, w *workspaceIndex, rd *weaviate.Reader) {
	t.Helper()
	st, err := rd.TermStats(nil)
	if err != nil {
		t.Fatal(err)
	}
	files, chunks, _ := w.st.Stats()
	if st.Chunks != chunks {
		t.Errorf("tenant holds %d chunk objects, local index %d chunks", st.Chunks, chunks)
	}
	ids, err := rd.ChunkIDsFiltered(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != chunks {
		t.Errorf("tenant has %d live chunks, local index %d", len(ids), chunks)
	}
	recs, _ := w.st.AllFiles()
	if len(recs) != files {
		t.Fatalf("local files: %d records, stats %d", len(recs), files)
	}
	for _, r := range recs {
		text, err := rd.FileText(r.Path)
		if err != nil {
			t.Fatal(err)
		}
		disk, _ := os.ReadFile(filepath.Join(w.dir, r.Path))
		if text != string(disk) {
			t.Errorf("%s: stored text differs from the file", r.Path)
		}
	}
}

// TestPagedReads: listing reads every chunk however many pages it takes
// (here pages of 7), path filters are evaluated by the server, and a
// result never strays outside the patterns asked for.
func TestPagedReads(t *testing.T) {
	c, w, repo := pushed(t, "paged", corpusFiles(t))
	rd := readerOf(t, c, repo)
	defer weaviate.SetListPage(7)()
	for _, tc := range []struct{ paths, langs []string }{
		{nil, nil},
		{[]string{"src/**"}, nil},
		{[]string{"src/*.ts"}, nil},
		{[]string{"*.js"}, nil},
		{[]string{"immer/{core,utils}/*.ts", "src/auth"}, nil},
		{nil, []string{"javascript"}},
		{[]string{"nothing/here"}, nil},
	} {
		want, err := w.st.ChunkIDsFiltered(tc.paths, tc.langs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.paths == nil && tc.langs == nil {
			// The local index answers "no restriction" with no ids; the
			// shared index lists them all.
			want, _ = w.st.ChunkIDsFiltered([]string{"**"}, nil, nil)
		}
		got, err := rd.ChunkIDsFiltered(tc.paths, tc.langs, nil)
		if err != nil {
			t.Fatal(err)
		}
		sortStrings(want)
		sortStrings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("paths %v languages %v: %d ids, local index %d", tc.paths, tc.langs, len(got), len(want))
		}
		hits, err := rd.Search(chunkindex.Query{Terms: []string{"draft", "state", "token"}, Paths: tc.paths, Languages: tc.langs, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			ok := len(tc.paths) == 0
			for _, p := range tc.paths {
				ok = ok || chunkindex.PathMatch(p, h.Chunk.RelativePath)
			}
			if !ok {
				t.Errorf("paths %v: search returned %s", tc.paths, h.Chunk.RelativePath)
			}
		}
	}
}

func sortStrings(xs []string) { sort.Strings(xs) }

// The shared index implements the pipeline's reads.
var _ search.Reader = (*weaviate.Reader)(nil)
