package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/workspace"
)

// Tree materialises states of a repository from a bare git mirror into one
// directory, incrementally: moving to another commit writes only the files
// whose blob changed and removes the ones that are gone, so the index of
// the directory re-syncs only what changed (the same index a cold build
// would give, at a fraction of the cost).
//
// Only the files scry reads are written — the source extensions it indexes
// and .gitignore files, which decide what it skips — because nothing else
// can change an answer. Blobs absent from a partial mirror are skipped and
// reported, as the reference scorer does.
type Tree struct {
	GitDir string
	Dir    string
	cur    map[string]treeEntry
}

type treeEntry struct {
	mode, sha string
}

// NewTree prepares dir (emptied) for states of the mirror at gitDir.
func NewTree(gitDir, dir string) (*Tree, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("bench: tree: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: tree: %w", err)
	}
	return &Tree{GitDir: gitDir, Dir: dir, cur: map[string]treeEntry{}}, nil
}

// wanted reports whether scry could read a path of the tree.
func wanted(p string) bool {
	return workspace.IsSupported(p) || filepath.Base(p) == ".gitignore"
}

// Checkout moves the directory to commit. It returns the paths whose blobs
// the mirror lacks.
func (t *Tree) Checkout(ctx context.Context, commit string) (missing []string, err error) {
	if err := exec.CommandContext(ctx, "git", "--git-dir", t.GitDir, "cat-file", "-e", commit+"^{commit}").Run(); err != nil {
		return nil, fmt.Errorf("bench: %s has no commit %s", t.GitDir, commit)
	}
	out, err := exec.CommandContext(ctx, "git", "--git-dir", t.GitDir, "ls-tree", "-r", "-z", "--full-tree", commit).Output()
	if err != nil {
		return nil, fmt.Errorf("bench: ls-tree %s: %w", commit, err)
	}
	next := map[string]treeEntry{}
	var todo []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, p, ok := strings.Cut(string(rec), "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) != 3 || f[1] != "blob" || !wanted(p) {
			continue // submodules and files scry never reads
		}
		e := treeEntry{mode: f[0], sha: f[2]}
		next[p] = e
		if t.cur[p] != e {
			todo = append(todo, p)
		}
	}
	for p := range t.cur {
		if _, ok := next[p]; !ok {
			if err := os.Remove(filepath.Join(t.Dir, filepath.FromSlash(p))); err != nil && !os.IsNotExist(err) {
				return nil, fmt.Errorf("bench: %w", err)
			}
		}
	}
	missing, err = t.write(ctx, todo, next)
	if err != nil {
		return nil, err
	}
	for _, p := range missing {
		delete(next, p)
	}
	t.cur = next
	return missing, nil
}

// write fetches blobs through one `git cat-file --batch` and writes them.
func (t *Tree) write(ctx context.Context, paths []string, entries map[string]treeEntry) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir", t.GitDir, "cat-file", "--batch")
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString(entries[p].sha + "\n")
	}
	cmd.Stdin = &in
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("bench: cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: cat-file: %w", err)
	}
	r := bufio.NewReaderSize(stdout, 1<<20)
	var missing []string
	for _, p := range paths {
		header, err := r.ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("bench: cat-file: %w", err)
		}
		f := strings.Fields(header)
		if len(f) == 2 && f[1] == "missing" {
			missing = append(missing, p)
			continue
		}
		if len(f) != 3 {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("bench: cat-file: unexpected header %q", header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("bench: cat-file: %w", err)
		}
		data := make([]byte, size+1) // the blob and its trailing newline
		if _, err := io.ReadFull(r, data); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("bench: cat-file: %w", err)
		}
		if err := t.place(p, entries[p].mode, data[:size]); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, err
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("bench: cat-file: %w", err)
	}
	return missing, nil
}

// place writes one tree entry: a symlink as a symlink, the executable bit
// kept.
func (t *Tree) place(p, mode string, data []byte) error {
	dst := filepath.Join(t.Dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := os.Remove(dst); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("bench: %w", err)
	}
	if mode == "120000" {
		if err := os.Symlink(string(data), dst); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		return nil
	}
	perm := os.FileMode(0o644)
	if mode == "100755" {
		perm = 0o755
	}
	if err := os.WriteFile(dst, data, perm); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// Files lists the tree's regular files (relative, slash-separated) that the
// file-level baselines read, as the reference scorer's BM25 baseline does:
// .ts/.tsx/.js/.jsx/.mts/.cts outside node_modules, dist and build, no
// symlinks, none over 1 MB.
func (t *Tree) Files() ([]string, [][]byte, error) {
	var paths []string
	for p, e := range t.cur {
		if e.mode == "120000" || baselineSkip(p) {
			continue
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var keep []string
	var contents [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(t.Dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, fmt.Errorf("bench: %w", err)
		}
		if len(b) > 1<<20 {
			continue
		}
		keep = append(keep, p)
		contents = append(contents, b)
	}
	return keep, contents, nil
}

func baselineSkip(p string) bool {
	switch filepath.Ext(p) {
	case ".ts", ".tsx", ".js", ".jsx", ".mts", ".cts":
	default:
		return true
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "node_modules" || seg == "dist" || seg == "build" || seg == ".git" {
			return true
		}
	}
	return false
}
