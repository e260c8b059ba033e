package answer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// scry runs git on the user's repository to read a change. It runs only
// the git found on PATH, with fixed arguments (a revision the user names is
// checked to be a revision, and passed after --end-of-options), and with the
// settings that would run a program the repository chooses turned off: no
// external diff driver or textconv filter, no fsmonitor hook, no pager, no
// credential prompt, no system-wide configuration. (A clean filter that
// the repository's own .git/config defines still runs when git compares
// working-tree files, as it does for any git diff there.)

// ChangedFile is one file a change touches.
type ChangedFile struct {
	Path   string `json:"path"`
	Status string `json:"status"` // added, modified, deleted
	// Lines are the changed line ranges on the new side (for a deleted
	// file, none).
	Lines [][2]int `json:"lines,omitempty"`
}

// revPattern is what a revision or range may be: names, hashes, ~ ^ @ { }
// and .., never an option.
var revPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./~^@{}:+-]*$`)

// gitTimeout bounds one git run.
const gitTimeout = 30 * time.Second

// runGit runs git in dir with args after the safety settings.
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("git not found on PATH: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	full := append([]string{"-c", "core.fsmonitor=false", "-c", "core.pager=cat", "-c", "diff.external=",
		"-c", "core.hooksPath=/dev/null", "--no-pager"}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_CONFIG_NOSYSTEM=1", "GIT_EXTERNAL_DIFF=", "GIT_PAGER=cat")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, msg)
	}
	return out, nil
}

// ErrNotGit says the workspace is not in a git work tree.
var ErrNotGit = errors.New("not a git work tree")

// gitChanges lists the files a change touches, relative to the git work
// tree's top, which must be the workspace root. rev is "" for the working
// tree (and untracked files) against HEAD, "A" for the working tree
// against A, or "A..B" for the commits between.
func gitChanges(ctx context.Context, root, rev string) ([]ChangedFile, error) {
	top, err := runGit(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%w: %s (%v)", ErrNotGit, root, err)
	}
	topDir := strings.TrimSpace(string(top))
	if real, err := realDir(topDir); err == nil && real != root {
		return nil, fmt.Errorf("the git work tree is %s, not the workspace root %s: run scry from the repository's top (--root)", topDir, root)
	}
	args := []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--unified=0", "--diff-filter=ADM"}
	switch {
	case rev == "":
		args = append(args, "HEAD")
	case revPattern.MatchString(rev) && !strings.Contains(rev, "..."):
		args = append(args, "--end-of-options", rev)
	default:
		return nil, fmt.Errorf("%q is not a revision or a range A..B", rev)
	}
	out, err := runGit(ctx, root, append(args, "--")...)
	if err != nil {
		return nil, err
	}
	files := parseUnifiedDiff(out)
	if rev == "" || !strings.Contains(rev, "..") {
		// New files the working tree holds and git does not track yet.
		out, err := runGit(ctx, root, "ls-files", "--others", "--exclude-standard", "-z")
		if err != nil {
			return nil, err
		}
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" {
				files = append(files, ChangedFile{Path: p, Status: "added", Lines: [][2]int{{1, 1 << 30}}})
			}
		}
	}
	return files, nil
}

func realDir(p string) (string, error) { return filepath.EvalSymlinks(p) }

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseUnifiedDiff reads git's unified diff (-U0): each file's status
// and the new side's changed line ranges (a pure deletion marks the line
// after it).
func parseUnifiedDiff(out []byte) []ChangedFile {
	var files []ChangedFile
	var cur *ChangedFile
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "diff --git "):
			files = append(files, ChangedFile{Status: "modified"})
			cur = &files[len(files)-1]
		case cur == nil:
		case strings.HasPrefix(l, "new file mode"):
			cur.Status = "added"
		case strings.HasPrefix(l, "deleted file mode"):
			cur.Status = "deleted"
		case strings.HasPrefix(l, "--- "):
			if p := l[4:]; p != "/dev/null" && cur.Path == "" {
				cur.Path = unquoteGitPath(p, "a/")
			}
		case strings.HasPrefix(l, "+++ "):
			if p := l[4:]; p != "/dev/null" {
				cur.Path = unquoteGitPath(p, "b/")
			}
		case strings.HasPrefix(l, "@@ "):
			m := hunkHeader.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			start, _ := strconv.Atoi(m[3])
			n := 1
			if m[4] != "" {
				n, _ = strconv.Atoi(m[4])
			}
			if n == 0 {
				// Lines removed after line start: the declaration around
				// that spot changed.
				cur.Lines = append(cur.Lines, [2]int{max(start, 1), start + 1})
			} else {
				cur.Lines = append(cur.Lines, [2]int{start, start + n - 1})
			}
		}
	}
	out2 := files[:0]
	for _, f := range files {
		if f.Path != "" {
			out2 = append(out2, f)
		}
	}
	return out2
}

// unquoteGitPath undoes git's quoting of unusual file names and drops the
// a/ or b/ prefix.
func unquoteGitPath(p, prefix string) string {
	if strings.HasPrefix(p, `"`) {
		if s, err := strconv.Unquote(p); err == nil {
			p = s
		}
	}
	return strings.TrimPrefix(p, prefix)
}
