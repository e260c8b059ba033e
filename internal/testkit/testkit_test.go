package testkit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteTree(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"a/b/c.ts": "export const c = 1;\n", "d.ts": "", "empty/": ""}
	WriteTree(t, root, files)
	checkTree(t, root, files)
}

// A tree is written into a folder of its own.
func TestTree(t *testing.T) {
	a, b := Tree(t, map[string]string{"x.ts": "1"}), Tree(t, map[string]string{"x.ts": "2"})
	if a == b {
		t.Fatalf("two trees in one folder %s", a)
	}
	if got, err := os.ReadFile(filepath.Join(a, "x.ts")); err != nil || string(got) != "1" {
		t.Errorf("x.ts: %q, %v", got, err)
	}
}

// A copy holds the same files and folders, and editing it leaves the
// original as it was.
func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	files := map[string]string{"a/b/c.ts": "c", "d.ts": "d", "empty/": ""}
	WriteTree(t, src, files)
	CopyTree(t, src, dst)
	checkTree(t, dst, files)
	WriteTree(t, dst, map[string]string{"d.ts": "edited"})
	if got, err := os.ReadFile(filepath.Join(src, "d.ts")); err != nil || string(got) != "d" {
		t.Errorf("original d.ts after editing the copy: %q, %v", got, err)
	}
}

// Each state is a whole tree: a file of the first state that the second
// leaves out is gone from the second commit.
func TestGitMirror(t *testing.T) {
	base, commits := GitMirror(t, "o+r", []map[string]string{{"a.ts": "1", "b.ts": "2"}, {"a.ts": "3"}})
	if len(commits) != 2 {
		t.Fatalf("%d commits", len(commits))
	}
	out, err := exec.Command("git", "-C", filepath.Join(base, "o+r"), "ls-tree", "--name-only", commits[1]).CombinedOutput()
	if err != nil {
		t.Fatalf("ls-tree: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 1 || got[0] != "a.ts" {
		t.Errorf("second commit holds %v, want [a.ts]", got)
	}
}

func TestLedger(t *testing.T) {
	files := Ledger(3)
	if len(files) != 3 || !strings.Contains(files["m002.ts"], "export function ledgerChecksum2(") {
		t.Errorf("ledger: %v", files)
	}
}

// A request sent as the model APIs' clients send it is recorded without a
// complaint, in order.
func TestJSONPosts(t *testing.T) {
	p := &JSONPosts{Path: "/v1/embeddings", Key: "k"}
	for i := range 2 {
		r := httptest.NewRequest(http.MethodPost, "/v1/embeddings", strings.NewReader(fmt.Sprintf(`{"n":%d}`, i)))
		r.Header.Set("Authorization", "Bearer k")
		r.Header.Set("Content-Type", "application/json")
		body, n := p.Record(t, r)
		if n != i || body["n"] != float64(i) {
			t.Errorf("request %d: body %v, n %d", i, body, n)
		}
	}
	if b := p.Bodies(); len(b) != 2 || b[1]["n"] != float64(1) {
		t.Errorf("bodies %v", b)
	}
}

// A path in the corpus is inside its node_modules (or the test is skipped
// without a corpus).
func TestCorpus(t *testing.T) {
	dir := Corpus(t)
	if got, want := Corpus(t, "rxjs", "src"), filepath.Join(dir, "node_modules", "rxjs", "src"); got != want {
		t.Errorf("Corpus(rxjs, src) = %s, want %s", got, want)
	}
}
