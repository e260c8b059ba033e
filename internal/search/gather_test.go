package search_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/testkit"
)

// Gather adds to BM25F's candidates the chunks the query names and the
// top-level symbols of the files the first stage favours, flagged as such.
func TestGatherNamedAndExpanded(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// The file the query is about: one function matches its words,
		// its sibling (where a fix might go) shares none of them.
		"src/state.ts": `export function refreshSessionCookie(session: string): string {
  return session + ';refresh';
}

export function persist(value: number): number {
  return value * 2;
}
`,
		"src/other.ts": `export function unrelatedHelper(x: number) { return x; }
`,
	}
	testkit.WriteTree(t, dir, files)
	st := indexDir(t, dir)
	pl := search.Pipeline{Store: st}
	cs, err := pl.Gather(context.Background(), search.Request{Query: "refresh session cookie, see unrelatedHelper", Params: search.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]search.Features{}
	for i, r := range cs.Results {
		byName[r.Chunk.Name] = cs.Features[i]
		if r.Chunk.FullSource != "" {
			t.Errorf("%s read in full during ranking", r.Chunk.Name)
		}
	}
	f, ok := byName["persist"]
	if !ok {
		t.Fatalf("the sibling of the best match was not added: %v", keys(byName))
	}
	if f[search.FExpanded] != 1 || f[search.FCovAll] != 0 {
		t.Errorf("persist: expanded %v, coverage %v", f[search.FExpanded], f[search.FCovAll])
	}
	if f := byName["unrelatedHelper"]; f[search.FDefines] != 1 || f[search.FDefinesCode] != 1 {
		t.Errorf("a chunk the query names is not marked: %v", f)
	}
	if f := byName["refreshSessionCookie"]; f[search.FExpanded] != 0 || f[search.FCovName] < 0.3 {
		t.Errorf("the first-stage match: %v", f)
	}
	// The pipeline reads in full what it shows.
	resp, err := pl.Search(context.Background(), search.Request{Query: "refresh session cookie", Params: search.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resp.Results {
		if r.Chunk.FullSource == "" || r.Tokens == 0 {
			t.Errorf("result %s shown without its source", r.Chunk.Name)
		}
	}
}

func keys(m map[string]search.Features) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A withdrawn question (its context cancelled) stops ranking with the
// context's error instead of an answer.
func TestGatherHonoursCancellation(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.ts"), []byte("export function refreshSessionCookie(s: string) { return s }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pl := search.Pipeline{Store: indexDir(t, dir)}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cs, err := pl.Gather(ctx, search.Request{Query: "refresh session cookie", Params: search.DefaultParams()})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Gather: %d candidates, error %v; want context.Canceled", len(cs.Results), err)
	}
	if _, err := pl.Gather(context.Background(), search.Request{Query: "refresh session cookie", Params: search.DefaultParams()}); err != nil {
		t.Fatalf("the same question, not cancelled: %v", err)
	}
}

// Task words ("fix", "bug") are left out of a query's terms, so a comment
// saying "fix" does not outrank the subject; when the subject alone matches
// nothing ("fix 2540"), the whole query is searched instead of answering
// with nothing.
func TestGatherTaskWords(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/parser.ts":   "export function parseHeader(line: string) {\n  return line.split(':');\n}\n",
		"src/polyfill.ts": "// fix for old engines: fix the missing method, fix it again\nexport function fixMissingMethod(o: object) {\n  return o;\n}\n",
	}
	testkit.WriteTree(t, dir, files)
	pl := search.Pipeline{Store: indexDir(t, dir)}
	names := func(q string) map[string]bool {
		t.Helper()
		cs, err := pl.Gather(context.Background(), search.Request{Query: q, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for i, r := range cs.Results {
			if r.FirstStage > 0 || cs.Features[i][search.FCovAll] > 0 {
				out[r.Chunk.Name] = true
			}
		}
		return out
	}
	if got := names("fix parse header"); !got["parseHeader"] || got["fixMissingMethod"] {
		t.Errorf("fix parse header: matched %v, want parseHeader and not the chunk that says fix", got)
	}
	if got := names("fix 2540"); !got["fixMissingMethod"] {
		t.Errorf("fix 2540: matched %v, want the whole query searched when its subject matches nothing", got)
	}
}

// A question ("how …") is ranked spread over files: every file that has a
// candidate appears once before any file appears twice, however strong the
// best file's other chunks are. A description keeps the fitted order.
func TestRankSpreadsAQuestionOverFiles(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"src/session.ts": `export function refreshSession(session: string) { return session + ';refresh'; }
export function refreshSessionToken(session: string) { return refreshSession(session) + ';token'; }
export function refreshSessionCookie(session: string) { return refreshSession(session) + ';cookie'; }
`,
		"src/store.ts": `export function saveSession(session: string) { return session; }
`,
		"src/log.ts": `export function logRefresh(what: string) { console.log('refresh', what); }
`,
	})
	pl := search.Pipeline{Store: indexDir(t, dir)}
	for _, tt := range []struct {
		q        string
		question bool
	}{
		{"how does a session refresh", true},
		{"refresh a session", false},
	} {
		cs, err := pl.Gather(context.Background(), search.Request{Query: tt.q, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		if cs.Question != tt.question {
			t.Errorf("%q: Question = %v, want %v", tt.q, cs.Question, tt.question)
		}
		if !tt.question {
			continue
		}
		ranked := search.ApplyModel(search.DefaultModel, cs)
		distinct := map[string]bool{}
		for _, r := range ranked {
			distinct[r.Chunk.RelativePath] = true
		}
		seen := map[string]bool{}
		for k, r := range ranked {
			f := r.Chunk.RelativePath
			if seen[f] && len(seen) < len(distinct) {
				t.Fatalf("%q: %s repeats at rank %d before every file was listed (%d of %d)", tt.q, f, k+1, len(seen), len(distinct))
			}
			seen[f] = true
		}
		if len(distinct) < 3 {
			t.Errorf("%q: candidates from %d files, want all 3", tt.q, len(distinct))
		}
	}
}

// A question about how something works matches its entry point; the code
// the entry point calls is marked, and so is that code's file, while a bare
// name asks only for its definition and marks nothing.
func TestGatherMarksWhatTheBestMatchesCall(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"src/repository.ts": `export class Repository {
  // save persists an entity graph in one transaction.
  save(entity: object) {
    return new PersistExecutor(entity).execute();
  }
}
`,
		"src/persist.ts": `export class PersistExecutor {
  constructor(private entity: object) {}
  execute() { return writeRows(this.entity); }
}

export function writeRows(rows: object) { return rows; }
`,
		"src/other.ts": `export function unrelatedHelper(x: number) { return x; }
`,
	})
	st := indexDir(t, dir)
	pl := search.Pipeline{Store: st}
	marks := func(query string) map[string][2]float64 {
		t.Helper()
		cs, err := pl.Gather(context.Background(), search.Request{Query: query, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][2]float64{}
		for i, r := range cs.Results {
			out[r.Chunk.Name] = [2]float64{cs.Features[i][search.FCallee], cs.Features[i][search.FFileCallee]}
		}
		return out
	}
	got := marks("how does save persist an entity graph in one transaction")
	if m, ok := got["PersistExecutor"]; !ok || m[0] == 0 || m[1] == 0 {
		t.Errorf("the class save constructs is not marked (callee, file): %v in %v", m, got)
	}
	if m := got["unrelatedHelper"]; m != [2]float64{} {
		t.Errorf("a chunk nothing calls is marked: %v", m)
	}
	for name, m := range marks("PersistExecutor") {
		if m != [2]float64{} {
			t.Errorf("a bare name marked %s: %v", name, m)
		}
	}
}

// A question's strong candidate that calls other strong candidates is
// marked a hub; a description of the same behaviour marks nothing.
func TestGatherMarksHubsOfQuestionsOnly(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"src/router.ts": `export function matchRoute(path: string): string[] {
  return path.split('/').filter((route) => route !== '');
}
`,
		"src/compose.ts": `export function composeMiddleware(handlers: string[]): (request: string) => string {
  return (request) => handlers.reduce((acc, middleware) => acc + middleware, request);
}
`,
		"src/dispatch.ts": `import { matchRoute } from './router';
import { composeMiddleware } from './compose';

export function dispatch(request: string): string {
  return composeMiddleware(matchRoute(request))(request);
}
`,
	})
	pl := search.Pipeline{Store: indexDir(t, dir)}
	hubs := func(query string) map[string]float64 {
		cs, err := pl.Gather(context.Background(), search.Request{Query: query, Params: search.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for i, r := range cs.Results {
			out[r.Chunk.Name] = cs.Features[i][search.FHub]
		}
		return out
	}
	q := hubs("how does a request go through route matching and middleware")
	if q["dispatch"] != 1 {
		t.Errorf("question: dispatch, which calls matchRoute and composeMiddleware, has hub %v, want 1 (%v)", q["dispatch"], q)
	}
	if q["matchRoute"] != 0 || q["composeMiddleware"] != 0 {
		t.Errorf("question: a candidate that calls no strong one is marked: %v", q)
	}
	for name, h := range hubs("request goes through route matching and middleware") {
		if h != 0 {
			t.Errorf("description: %s marked a hub (%v)", name, h)
		}
	}
}

// A candidate whose directory holds other strong files is marked by their
// strength; a file alone in its directory, however strong, is not.
func TestGatherMarksDirectoryPeers(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"src/persistence/executor.ts": `export function executeInserts(entities: string[]): number {
  return entities.length;
}
`,
		"src/persistence/subjects.ts": `export function buildInsertSubjects(entities: string[]): string[] {
  return entities.map((entity) => entity + ' insert');
}
`,
		"src/logger/format.ts": `export function formatInsertLog(entities: string[]): string {
  return 'insert ' + entities.join(',');
}
`,
		"src/persistence/unrelated.ts": `export function closeConnection(): void {}
`,
	})
	peers := featureByFile(t, dir, "how are entities turned into inserts", search.FDirPeers)
	for _, p := range []string{"src/persistence/executor.ts", "src/persistence/subjects.ts"} {
		if v, ok := peers[p]; !ok || v <= 0 || v > 1 {
			t.Errorf("%s, beside another strong file, has peers %v (found %v), want in (0,1]: %v", p, v, ok, peers)
		}
	}
	if v, ok := peers["src/logger/format.ts"]; !ok || v != 0 {
		t.Errorf("format.ts, alone in its directory, has peers %v (found %v), want 0: %v", v, ok, peers)
	}
}

// A strong file and the file it imports are linked, both ways, whatever
// their directories; a file that matches as well but imports nothing of
// theirs is not. The imports are the statements the candidates use:
// ESM with a .js extension for a .ts file, and CommonJS require.
func TestGatherMarksImportLinks(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"src/helper/streaming/sse.ts": `import { StreamingApi } from '../../utils/stream.js'

export function writeServerSentEvents(stream: StreamingApi, event: string): void {
  stream.write('event: ' + event)
}
`,
		"src/utils/stream.ts": `export class StreamingApi {
  write(chunk: string): void {}
}
`,
		"src/jsx/events.ts": `export function serverSentEventNames(event: string): string[] {
  return [event]
}
`,
		"lib/reply.js": `const wrapEvents = require('./wrap-events')

function sendServerSentEvents (reply, event) {
  return wrapEvents(reply, event)
}
module.exports = { sendServerSentEvents }
`,
		"lib/wrap-events.js": `module.exports = function wrapEvents (reply, payload) {
  return reply.send(payload)
}
`,
	})
	links := featureByFile(t, dir, "write server-sent events to the stream", search.FImportLinks)
	for _, p := range []string{"src/helper/streaming/sse.ts", "src/utils/stream.ts", "lib/reply.js", "lib/wrap-events.js"} {
		if v, ok := links[p]; !ok || v <= 0 || v > 1 {
			t.Errorf("%s, linked by an import to a strong file, has links %v (found %v), want in (0,1]: %v", p, v, ok, links)
		}
	}
	if v, ok := links["src/jsx/events.ts"]; !ok || v != 0 {
		t.Errorf("events.ts, linked to nothing, has links %v (found %v), want 0: %v", v, ok, links)
	}
}

// featureByFile indexes dir, gathers the candidates of query and returns
// the highest value of feature f among each file's candidates.
func featureByFile(t *testing.T, dir, query string, f int) map[string]float64 {
	t.Helper()
	pl := search.Pipeline{Store: indexDir(t, dir)}
	cs, err := pl.Gather(context.Background(), search.Request{Query: query, Params: search.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for i, r := range cs.Results {
		out[r.Chunk.RelativePath] = max(out[r.Chunk.RelativePath], cs.Features[i][f])
	}
	return out
}
