package index_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/index/indextest"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/testkit"
	"github.com/scry-dev/scry/internal/workspace"
)

// TestMain lets the test binary act as the indexer child that the crash
// test kills: with SCRY_CRASH_CHILD set it syncs and reports progress.
func TestMain(m *testing.M) {
	if os.Getenv("SCRY_CRASH_CHILD") == "1" {
		crashChild()
		return
	}
	os.Exit(m.Run())
}

func crashChild() {
	if lim, err := strconv.ParseUint(os.Getenv("SCRY_CRASH_FSIZE"), 10, 64); err == nil {
		// A disk that fills up: writes past the limit fail with EFBIG
		// (the signal that would otherwise kill the process is ignored).
		signal.Ignore(syscall.SIGXFSZ)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	root, err := workspace.NewRoot(os.Getenv("SCRY_CRASH_ROOT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	st, err := store.Open(os.Getenv("SCRY_CRASH_INDEX"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	ix := index.New(root, st, index.Options{Workers: 1, Progress: func(done, total int) {
		fmt.Fprintf(out, "%d %d\n", done, total)
		out.Flush()
	}})
	if _, err := ix.Sync(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// crashCorpus is the real code the crash tests index: rxjs's sources.
func crashCorpus(t *testing.T) string {
	t.Helper()
	return testkit.Corpus(t, "rxjs", "src")
}

// snapshotOf describes an index by its files' hashes and chunk ids.
func snapshotOf(t *testing.T, st *store.Store) string {
	t.Helper()
	files, err := st.Files()
	if err != nil {
		t.Fatal(err)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		cs, err := st.ChunksByFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(cs))
		for i, c := range cs {
			ids[i] = c.ID
		}
		sort.Strings(ids)
		fmt.Fprintf(&b, "%s %s %s\n", p, files[p].ContentHash, strings.Join(ids, ","))
	}
	return b.String()
}

func integrity(t *testing.T, path string) {
	t.Helper()
	db, err := sqlitedb.Open(path, sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil {
		t.Fatalf("integrity check: %v", err)
	}
	if res != "ok" {
		t.Fatalf("integrity check: %s", res)
	}
}

// TestCrashRecovery kills a real indexer process with SIGKILL at seeded
// points while it indexes a real corpus. After each kill the index opens,
// passes SQLite's integrity check, and one more sync makes it equal to a
// clean index of the same files.
func TestCrashRecovery(t *testing.T) {
	src := crashCorpus(t)
	runs := 12
	if n, err := strconv.Atoi(os.Getenv("SCRY_CRASH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	root := newRoot(t, src)
	cleanStore, sum := indextest.Synced(t, src)
	want := snapshotOf(t, cleanStore)
	rng := rand.New(rand.NewSource(20261122))
	killedMidway := 0
	for run := 0; run < runs; run++ {
		idx := filepath.Join(t.TempDir(), "index.db")
		// Half the runs crash a first build, half crash a re-sync of an
		// index that already holds part of the corpus.
		kills := 1 + run%2
		for k := 0; k < kills; k++ {
			at := 1 + rng.Intn(sum.Indexed)
			if crashAt(t, src, idx, at) {
				killedMidway++
			}
		}
		integrity(t, idx)
		st, err := store.Open(idx)
		if err != nil {
			t.Fatalf("run %d: index does not open after kill: %v", run, err)
		}
		if _, err := index.New(root, st, index.Options{}).Sync(context.Background()); err != nil {
			t.Fatalf("run %d: sync after kill: %v", run, err)
		}
		if got := snapshotOf(t, st); got != want {
			t.Fatalf("run %d: index after recovery differs from a clean index", run)
		}
		st.Close()
		integrity(t, idx)
	}
	if killedMidway < runs/2 {
		t.Fatalf("only %d kills landed while indexing; the test is not exercising crashes", killedMidway)
	}
	t.Logf("%d runs, %d kills mid-index, all recovered to the clean index (%d files)", runs, killedMidway, sum.Indexed)
}

// crashAt starts the indexer child and kills it with SIGKILL once it has
// processed `at` files. It reports whether the kill landed before the child
// finished.
func crashAt(t *testing.T, root, idx string, at int) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SCRY_CRASH_CHILD=1", "SCRY_CRASH_ROOT="+root, "SCRY_CRASH_INDEX="+idx)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		var done, total int
		fmt.Sscanf(sc.Text(), "%d %d", &done, &total)
		if done >= at && done < total {
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	cmd.Wait()
	return killed
}

// TestTwoProcessesShareAnIndex runs two indexer processes on one index at
// once: the lock beside the index makes the second wait, then find
// everything up to date; both succeed and the index equals a clean one.
func TestTwoProcessesShareAnIndex(t *testing.T) {
	src := crashCorpus(t)
	cleanStore, _ := indextest.Synced(t, src)
	idx := filepath.Join(t.TempDir(), "index.db")
	var cmds []*exec.Cmd
	for i := 0; i < 2; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SCRY_CRASH_CHILD=1", "SCRY_CRASH_ROOT="+src, "SCRY_CRASH_INDEX="+idx)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("indexer %d: %v", i, err)
		}
	}
	integrity(t, idx)
	if snapshotOfPath(t, idx) != snapshotOf(t, cleanStore) {
		t.Fatal("index written by two processes differs from a clean index")
	}
}

// TestDiskFull indexes with a file-size limit far below what the index
// needs: the sync fails with a clear error, the index stays consistent, and
// a sync without the limit completes it.
func TestDiskFull(t *testing.T) {
	src := crashCorpus(t)
	idx := filepath.Join(t.TempDir(), "index.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SCRY_CRASH_CHILD=1", "SCRY_CRASH_ROOT="+src, "SCRY_CRASH_INDEX="+idx, "SCRY_CRASH_FSIZE=262144")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("indexing into a 256 KB limit succeeded:\n%s", out)
	}
	msg := string(out)
	if !strings.Contains(msg, "full") && !strings.Contains(msg, "large") && !strings.Contains(msg, "space") {
		t.Errorf("error does not say the disk is full: %s", msg)
	}
	integrity(t, idx)
	root, _ := workspace.NewRoot(src)
	st, err := store.Open(idx)
	if err != nil {
		t.Fatalf("index does not open after a full disk: %v", err)
	}
	defer st.Close()
	sum, err := index.New(root, st, index.Options{}).Sync(context.Background())
	if err != nil {
		t.Fatalf("sync after the disk frees up: %v", err)
	}
	if sum.Files == 0 || sum.Indexed == 0 {
		t.Fatalf("nothing indexed after recovery: %+v", sum)
	}
	integrity(t, idx)
}

// TestReadOnlyIndex points a sync at an index its process may not write
// (run as an unprivileged user, since root ignores file modes): the sync
// fails with a clear error and the index is left as it was.
func TestReadOnlyIndex(t *testing.T) {
	src := crashCorpus(t)
	if os.Geteuid() == 0 {
		if _, err := exec.LookPath("setpriv"); err != nil {
			t.Skip("running as root without setpriv: file modes cannot be enforced")
		}
	}
	// A directory the unprivileged user can reach (t.TempDir's parent is
	// private to root).
	dir, err := os.MkdirTemp("", "scry-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	idx := filepath.Join(dir, "ro", "index.db")
	root, _ := workspace.NewRoot(src)
	st, err := store.Open(idx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.New(root, st, index.Options{}).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	before := snapshotOfPath(t, idx)
	// The test binary must be reachable by the unprivileged user.
	bin := filepath.Join(dir, "index.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(dir, "ro"), 0o555)
	os.Chmod(idx, 0o444)
	defer os.Chmod(filepath.Join(dir, "ro"), 0o755)
	args := []string{bin, "-test.run=^$"}
	if os.Geteuid() == 0 {
		args = append([]string{"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "SCRY_CRASH_CHILD=1", "SCRY_CRASH_ROOT="+src, "SCRY_CRASH_INDEX="+idx, "HOME="+dir, "XDG_CACHE_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("sync into a read-only index succeeded:\n%s", out)
	}
	t.Logf("refused: %s", strings.TrimSpace(string(out)))
	msg := strings.ToLower(string(out))
	if !strings.Contains(msg, "readonly") && !strings.Contains(msg, "read-only") && !strings.Contains(msg, "permission") && !strings.Contains(msg, "not writable") {
		t.Errorf("error does not say the index is not writable: %s", out)
	}
	os.Chmod(filepath.Join(dir, "ro"), 0o755)
	os.Chmod(idx, 0o644)
	if after := snapshotOfPath(t, idx); after != before {
		t.Error("a failed read-only sync changed the index")
	}
	st, err = store.Open(idx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := index.New(root, st, index.Options{}).Sync(context.Background()); err != nil {
		t.Fatalf("sync once writable again: %v", err)
	}
}

// snapshotOfPath describes the index at path (see snapshotOf), closing it
// after.
func snapshotOfPath(t *testing.T, path string) string {
	t.Helper()
	st := openStore(t, path)
	defer st.Close()
	return snapshotOf(t, st)
}
