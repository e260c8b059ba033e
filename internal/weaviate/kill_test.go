package weaviate_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

// versionedFiles are n files of five functions each, every body saying
// which version of its file it is.
func versionedFiles(dir string, n int, version string) map[string]string {
	files := map[string]string{}
	for i := range n {
		var b strings.Builder
		for j := range 5 {
			fmt.Fprintf(&b, "export function %s_%d_%d(x: number): string {\n  return '%s' + x;\n}\n\n", strings.ReplaceAll(dir, "/", "_"), i, j, version)
		}
		files[fmt.Sprintf("%s/f%03d.ts", dir, i)] = b.String()
	}
	return files
}

var versionMark = regexp.MustCompile(`'(v\d)'`)

// fileVersions reads every live chunk of the tenant and says which
// version each file answers from; a file whose chunks come from two
// versions, or that lacks some of its five functions, is an error.
func fileVersions(t *testing.T, rd *weaviate.Reader) map[string]string {
	t.Helper()
	ids, err := rd.ChunkIDsFiltered(nil, nil, []string{"function"})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := rd.ChunksByIDs(ids)
	if err != nil {
		t.Fatal(err)
	}
	marks := map[string]map[string]int{}
	for _, c := range cs {
		m := versionMark.FindStringSubmatch(c.FullSource)
		if m == nil {
			continue
		}
		if marks[c.RelativePath] == nil {
			marks[c.RelativePath] = map[string]int{}
		}
		marks[c.RelativePath][m[1]]++
	}
	out := map[string]string{}
	for path, vs := range marks {
		if len(vs) != 1 {
			t.Errorf("%s answers from several versions: %v", path, vs)
			continue
		}
		for v, n := range vs {
			if n != 5 {
				t.Errorf("%s answers %d of its 5 functions (version %s)", path, n, v)
			}
			out[path] = v
		}
	}
	return out
}

// TestKilledIndexer: `scry index --backend weaviate`, run as a process,
// is killed with SIGKILL in the middle of sending a new version of every
// file and a set of new files. Every file then answers from one whole
// version, old or new. The new files are deleted and the indexer run
// again: every file answers from its new version and the tenant holds
// exactly the local index's objects (the chunks of new files that were
// written before the kill, with no record naming them, are swept).
func TestKilledIndexer(t *testing.T) {
	cfg := weaviatetest.Config(t)
	c := connect(t)
	ctx := context.Background()
	bin := testkit.BuildScry(t)
	root := t.TempDir()
	indexPath := filepath.Join(t.TempDir(), "index.db")
	repo := weaviatetest.TenantOf(t, c, "killed")
	run := func() *exec.Cmd {
		cmd := exec.Command(bin, "index", "--root", root, "--index", indexPath, "--backend", "weaviate", "--repo", repo)
		cmd.Env = append(os.Environ(), "SCRY_WEAVIATE_URL="+cfg.URL, "SCRY_WEAVIATE_KEY="+cfg.Key)
		return cmd
	}
	testkit.WriteTree(t, root, versionedFiles("src/old", 150, "v1"))
	if out, err := run().CombinedOutput(); err != nil {
		t.Fatalf("scry index: %v\n%s", err, out)
	}
	rd := readerOf(t, c, repo)
	if vs := fileVersions(t, rd); len(vs) != 150 {
		t.Fatalf("after the first index %d files answer, want 150", len(vs))
	}
	v1Chunks, _, err := c.Counts(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}

	// Version 2 of every file, and new files (sent first: "src/a_new"
	// sorts before "src/old").
	testkit.WriteTree(t, root, versionedFiles("src/old", 150, "v2"))
	added := versionedFiles("src/a_new", 100, "v2")
	testkit.WriteTree(t, root, added)
	cmd := run()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once the push has written some objects.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n, _, err := c.Counts(ctx, repo)
		if err != nil {
			t.Fatal(err)
		}
		if n > v1Chunks+50 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the indexer wrote nothing in 2 minutes")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	vs := fileVersions(t, rd)
	count := map[string]int{}
	for _, v := range vs {
		count[v]++
	}
	t.Logf("after the kill: %d files answer from v1, %d from v2", count["v1"], count["v2"])
	if count["v1"] == 0 {
		t.Fatal("the indexer finished before it was killed; nothing was interrupted")
	}
	for path := range vs {
		if strings.HasPrefix(path, "src/a_new/") && vs[path] != "v2" {
			t.Errorf("new file %s answers %s", path, vs[path])
		}
	}

	for rel := range added {
		if err := os.Remove(filepath.Join(root, rel)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := run().CombinedOutput()
	if err != nil {
		t.Fatalf("scry index after the kill: %v\n%s", err, out)
	}
	t.Logf("re-run: %s", strings.TrimSpace(string(out)))
	vs = fileVersions(t, rd)
	for i := range 150 {
		if p := fmt.Sprintf("src/old/f%03d.ts", i); vs[p] != "v2" {
			t.Errorf("%s answers %q after the re-run, want v2", p, vs[p])
		}
	}
	if len(vs) != 150 {
		t.Errorf("%d files answer after the re-run, want the 150 left", len(vs))
	}
	chunks, files, err := c.Counts(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	if chunks != v1Chunks || files != 150 {
		t.Errorf("the tenant holds %d chunks and %d file records, want %d and 150 (no stray objects)", chunks, files, v1Chunks)
	}
}

// TestSweepLeftovers: the two ways an interrupted push leaves chunks that
// no record will name: a new file stopped after its chunks and before its
// record, then deleted; and a changed file stopped at the same point, then
// restored to the version its record names. The next push removes both
// leftovers.
func TestSweepLeftovers(t *testing.T) {
	c, w, repo := pushed(t, "sweep", fixture)
	ctx := context.Background()
	rd := readerOf(t, c, repo)
	interrupt := func(path string) {
		t.Helper()
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		opt := w.options()
		opt.AfterChunks = func(p string) {
			if p == path {
				cancel()
			}
		}
		if _, err := c.Push(cctx, repo, w.st, opt); err == nil {
			t.Fatalf("push was not interrupted at %s", path)
		}
	}
	// A new file, stopped before its record, then deleted.
	testkit.WriteTree(t, w.dir, map[string]string{"src/orphan.ts": "export function orphanOne() { return 1; }\nexport function orphanTwo() { return 2; }\n"})
	w.sync(t)
	interrupt("src/orphan.ts")
	os.Remove(filepath.Join(w.dir, "src/orphan.ts"))
	w.sync(t)
	sum := w.push(t, c, repo)
	if sum.Swept != 2 {
		t.Errorf("push after a deleted new file's interrupted push: %+v, want its 2 chunks swept", sum)
	}
	checkComplete(t, w, rd)

	// A changed file, stopped before its switch, then restored.
	orig := fixture["src/crypto.ts"]
	testkit.WriteTree(t, w.dir, map[string]string{"src/crypto.ts": strings.Replace(orig, "reverse()", "reverse().reverse()", 1)})
	w.sync(t)
	interrupt("src/crypto.ts")
	testkit.WriteTree(t, w.dir, map[string]string{"src/crypto.ts": orig})
	w.sync(t)
	sum = w.push(t, c, repo)
	if sum.Sent != 0 || sum.Swept != 1 {
		t.Errorf("push after a restored file's interrupted push: %+v, want nothing sent and its new version's chunk swept", sum)
	}
	checkComplete(t, w, rd)
	if got := liveSource(t, rd, "hmac"); len(got) != 1 || strings.Contains(got[0], "reverse().reverse()") {
		t.Errorf("hmac reads %q, want its original version", got)
	}
	// A push with nothing interrupted sweeps nothing.
	if sum := w.push(t, c, repo); sum.Swept != 0 || sum.Sent != 0 {
		t.Errorf("quiet push: %+v", sum)
	}
}
