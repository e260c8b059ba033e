package weaviate_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

// clusterDir is the directory of the 3-node cluster scripts/weaviate.sh
// started (scripts/test.sh names it in SCRY_WEAVIATE_CLUSTER), with the
// settings it wrote there.
func clusterDir(t *testing.T) (string, map[string]string) {
	t.Helper()
	dir := os.Getenv("SCRY_WEAVIATE_CLUSTER")
	if dir == "" {
		if os.Getenv("SCRY_REQUIRE_WEAVIATE") != "" {
			t.Fatal("SCRY_WEAVIATE_CLUSTER is not set: start a 3-node cluster with scripts/weaviate.sh start DIR 3")
		}
		t.Skip("SCRY_WEAVIATE_CLUSTER is not set (the directory of scripts/weaviate.sh start DIR 3)")
	}
	f, err := os.Open(filepath.Join(dir, "env"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "="); ok {
			env[k] = v
		}
	}
	if env["SCRY_WEAVIATE_NODES"] != "3" {
		t.Fatalf("%s: a cluster of %q nodes, want 3", dir, env["SCRY_WEAVIATE_NODES"])
	}
	return dir, env
}

// weaviateScript runs scripts/weaviate.sh (kill, restart) on the cluster.
func weaviateScript(t *testing.T, args ...string) {
	t.Helper()
	out, err := exec.Command("bash", append([]string{"../../scripts/weaviate.sh"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("weaviate.sh %v: %v\n%s", args, err, out)
	}
}

// TestReplicaFailover: a 3-node cluster, replication factor 3. Four
// clients query without pause (each knows every node and starts at a
// different one) while node 1 is killed with SIGKILL, an indexer writes
// new files while it is down, and the node is started again. No query
// fails or answers wrong, every write is acknowledged, and the restarted
// node catches up: every node ends with every object.
func TestReplicaFailover(t *testing.T) {
	dir, env := clusterDir(t)
	urls := strings.Split(env["SCRY_WEAVIATE_URLS"], ",")
	ctx := context.Background()
	// connect gives a client that tries the nodes from node `first`.
	// The timeouts bound a hang, not speed: on a loaded machine a quorum
	// write while a node is down once took longer than 20 s in all.
	connect := func(first int) *weaviate.Client {
		order := append(append([]string{}, urls[first:]...), urls[:first]...)
		c, err := weaviate.Connect(ctx, weaviate.Config{URL: strings.Join(order, ","), Key: env["SCRY_WEAVIATE_KEY"], Replicas: 3, Timeout: 60 * time.Second, AttemptTimeout: 25 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	indexer := connect(0)
	w := newWorkspace(t, corpusFiles(t))
	repo := weaviatetest.TenantOf(t, indexer, "failover")
	w.push(t, indexer, repo)

	// The answers every query must keep giving: the best result of
	// ranked queries, and the definitions of named symbols.
	queries := []string{"where are tokens validated", "freeze deeply", "apply patches to a base state", "auto freeze setting", "issue a token for a user"}
	names := []string{"validateToken", "produce", "AuthMiddleware", "freeze"}
	want := map[string]string{}
	{
		rd, err := indexer.Reader(ctx, []string{repo})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			rs, err := (&search.Pipeline{Store: rd}).Rank(ctx, search.Request{Query: q, Params: search.DefaultParams()})
			if err != nil || len(rs) == 0 {
				t.Fatalf("%q before the kill: %d results, %v", q, len(rs), err)
			}
			want[q] = rs[0].Chunk.ID
		}
		for _, n := range names {
			cs, err := rd.ChunksByName(n)
			if err != nil || len(cs) == 0 {
				t.Fatalf("%s before the kill: %d chunks, %v", n, len(cs), err)
			}
			want["name:"+n] = strings.Join(chunkIDs(cs), ",")
		}
	}

	var (
		stop             atomic.Bool
		answered, failed atomic.Int64
		mu               sync.Mutex
		failures         []string
		wg               sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		failed.Add(1)
		mu.Lock()
		if len(failures) < 10 {
			failures = append(failures, time.Now().Format("15:04:05.000")+" "+fmt.Sprintf(format, args...))
		}
		mu.Unlock()
	}
	for i := range 4 {
		c := connect(i % len(urls))
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd, err := c.Reader(ctx, []string{repo})
			if err != nil {
				fail("client %d: %v", i, err)
				return
			}
			for k := i; !stop.Load(); k++ {
				if k%2 == 0 {
					q := queries[k/2%len(queries)]
					rs, err := (&search.Pipeline{Store: rd}).Rank(ctx, search.Request{Query: q, Params: search.DefaultParams()})
					switch {
					case err != nil:
						fail("client %d, %q: %v", i, q, err)
					case len(rs) == 0 || rs[0].Chunk.ID != want[q]:
						fail("client %d, %q: best result changed (%d results)", i, q, len(rs))
					default:
						answered.Add(1)
					}
					continue
				}
				n := names[k/2%len(names)]
				cs, err := rd.ChunksByName(n)
				switch {
				case err != nil:
					fail("client %d, %s: %v", i, n, err)
				case strings.Join(chunkIDs(cs), ",") != want["name:"+n]:
					fail("client %d, %s: %v, want %s", i, n, chunkIDs(cs), want["name:"+n])
				default:
					answered.Add(1)
				}
			}
		}()
	}
	stopClients := func() {
		stop.Store(true)
		wg.Wait()
	}
	defer stopClients()

	time.Sleep(2 * time.Second)
	before := answered.Load()
	weaviateScript(t, "kill", dir, "1")
	killed := time.Now()
	t.Cleanup(func() {
		// Leave the cluster whole for later tests even when this one
		// fails before the restart.
		if b, err := os.ReadFile(filepath.Join(dir, "node1.pid")); err == nil {
			if exec.Command("kill", "-0", strings.TrimSpace(string(b))).Run() != nil {
				exec.Command("bash", "../../scripts/weaviate.sh", "restart", dir, "1").Run()
			}
		}
	})
	// Writes while node 1 is down: three new files, each pushed (quorum
	// writes: two of three replicas acknowledge).
	var added []string
	for k := range 3 {
		time.Sleep(time.Second)
		name := fmt.Sprintf("whileDown%d", k)
		testkit.WriteTree(t, w.dir, map[string]string{fmt.Sprintf("src/down%d.ts", k): fmt.Sprintf("export function %s() { return %d; }\n", name, k)})
		w.sync(t)
		if sum := w.push(t, indexer, repo); sum.Sent != 1 {
			t.Errorf("push while a node is down: %+v, want one file sent", sum)
		}
		added = append(added, name)
	}
	during := answered.Load() - before
	weaviateScript(t, "restart", dir, "1")
	t.Logf("node 1 down for %.1f s; %d queries answered meanwhile", time.Since(killed).Seconds(), during)
	time.Sleep(2 * time.Second)
	stopClients()

	t.Logf("%d queries answered, %d failed", answered.Load(), failed.Load())
	for _, f := range failures {
		t.Error(f)
	}
	if during < 10 {
		t.Errorf("only %d queries answered while node 1 was down", during)
	}

	// Each node counts its own replica: asked one by one, every node,
	// the restarted one included, must come to the local index's counts.
	files, chunks, _ := w.st.Stats()
	// catchUp waits until every node holds the local index's chunks and
	// files. A push's marker left behind on the replicas (seen once, on a
	// loaded machine, after pushes during a long outage) is reported by
	// the caller, not counted as a file.
	catchUp := func(allowMarker bool) (markerLeft bool) {
		deadline := time.Now().Add(90 * time.Second)
		for {
			var behind []string
			markerLeft = false
			for k, u := range urls {
				one, err := weaviate.Connect(ctx, weaviate.Config{URL: u, Key: env["SCRY_WEAVIATE_KEY"]})
				if err != nil {
					t.Fatal(err)
				}
				ch, fi, err := one.Counts(ctx, repo)
				if err != nil {
					t.Fatal(err)
				}
				marker, err := one.PushMarkerLeft(ctx, repo)
				if err != nil {
					t.Fatal(err)
				}
				if marker && allowMarker {
					fi--
					markerLeft = true
				}
				if ch != chunks || fi != files {
					behind = append(behind, fmt.Sprintf("node%d has %d of %d chunks, %d of %d files (push marker: %v)", k+1, ch, chunks, fi, files, marker))
				}
			}
			if len(behind) == 0 {
				t.Logf("every node holds %d chunks and %d files %.1f s after the kill", chunks, files, time.Since(killed).Seconds())
				return markerLeft
			}
			if time.Now().After(deadline) {
				t.Fatalf("replicas did not catch up: %s", strings.Join(behind, "; "))
			}
			time.Sleep(time.Second)
		}
	}
	if catchUp(true) {
		// The next push finds the marker, sweeps and removes it: after it
		// the tenant holds exactly the files again, on every node.
		t.Logf("a push marker was left on the replicas; pushing again")
		if sum := w.push(t, indexer, repo); sum.Sent != 0 {
			t.Errorf("push after the outage: %+v, want nothing sent", sum)
		}
		catchUp(false)
	}
	// No lost object: the writes made while the node was down read back
	// through every node. (Not before the catch-up: a search runs on one
	// replica, and a node just restarted searches its own, stale one; the
	// quorum applies to reading the objects found.)
	var rd *weaviate.Reader
	for k := range urls {
		var err error
		if rd, err = connect(k).Reader(ctx, []string{repo}); err != nil {
			t.Fatal(err)
		}
		for _, n := range added {
			if got := liveSource(t, rd, n); len(got) != 1 {
				t.Errorf("%s, written while node 1 was down, read through node %d: %q", n, k+1, got)
			}
		}
	}
	checkComplete(t, w, rd)
}
