package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/workspace"
)

// The user's own configuration lives outside every workspace, so a
// repository cannot write it: UserDir()/config.toml holds settings of the
// same shape as .scry.toml, and UserDir()/trusted.json the workspaces the
// user has trusted with `scry trust`.
const (
	UserFileName  = "config.toml"
	TrustFileName = "trusted.json"
)

// UserDir is scry's directory in the user's configuration:
// $XDG_CONFIG_HOME/scry, else $HOME/.config/scry (%APPDATA%\scry on
// Windows). It is "" when none of those variables is set; then there is no
// user configuration and no workspace is trusted.
func UserDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "scry")
	}
	if runtime.GOOS == "windows" {
		if d := getenv("APPDATA"); d != "" {
			return filepath.Join(d, "scry")
		}
	}
	if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "scry")
	}
	return ""
}

// TrustRecord is one trust decision. ConfigSHA256 is the hash of the
// workspace's .scry.toml when it was trusted ("" when it had none): a file
// changed since (a pull, a branch switch) needs trusting again, because the
// user trusted what they saw, not whatever the repository says next.
type TrustRecord struct {
	Root         string    `json:"root"`
	ConfigSHA256 string    `json:"config_sha256"`
	TrustedAt    time.Time `json:"trusted_at"`
	// Programs pins the files inside the workspace that its .scry.toml
	// names as a program or library (tsgo = "tools/tsc"): their path
	// relative to the root, slash-separated, and the SHA-256 of their
	// content ("" when absent). A pull can change such a file without
	// touching .scry.toml; trust covers the program the user saw.
	Programs map[string]string `json:"programs,omitempty"`
}

// Trust is a workspace's trust state.
type Trust struct {
	// Root is the canonical root the decision is keyed by.
	Root string
	// Trusted: a record exists and the .scry.toml is the one trusted.
	Trusted bool
	// Stale: a record exists but .scry.toml, or a program inside the
	// workspace that it names, changed since.
	Stale bool
	// Changed lists the named programs (paths relative to the root) whose
	// content changed since the decision; empty when .scry.toml itself
	// changed.
	Changed []string
	// Record is the decision found (zero when none).
	Record TrustRecord
}

// String says the state in words, for doctor and notes.
func (t Trust) String() string {
	switch {
	case t.Trusted:
		return "trusted (scry trust, " + t.Record.TrustedAt.Format(time.DateOnly) + ")"
	case t.Stale && len(t.Changed) > 0:
		return "not trusted: " + strings.Join(t.Changed, ", ") + ", named by .scry.toml, changed since `scry trust` on " + t.Record.TrustedAt.Format(time.DateOnly) + "; review it and run `scry trust` again"
	case t.Stale:
		return "not trusted: .scry.toml changed since `scry trust` on " + t.Record.TrustedAt.Format(time.DateOnly) + "; review it and run `scry trust` again"
	default:
		return "not trusted (run `scry trust` to let its .scry.toml name programs, URLs, models and shared-index repositories, raise limits, and use its own TypeScript)"
	}
}

// CanonicalRoot is the absolute, symlink-free path trust is keyed by, so
// that the same directory reached another way is the same decision.
func CanonicalRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("workspace root %q: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("workspace root %q: %w", root, err)
	}
	return real, nil
}

// WorkspaceFileHash is the SHA-256 of root's .scry.toml, "" when there is
// none: a long-running server compares it to see the file changed.
func WorkspaceFileHash(root string) (string, error) { return configHash(root) }

// configHash is the SHA-256 of root's .scry.toml, "" when there is none.
func configHash(root string) (string, error) {
	data, err := workspace.ReadRegular(filepath.Join(root, FileName), maxConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", filepath.Join(root, FileName), err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// maxProgram bounds the read of a program pinned by trust (a TypeScript 7
// binary is tens of megabytes).
const maxProgram = 1 << 30

// namedPrograms hashes the files inside the workspace that its .scry.toml
// names in a path setting (tsgo, onnxRuntimeLib; model directories are
// not pinned). A path outside the workspace is the user's machine, not the
// repository's to change, and is not pinned — unless a symlink in the
// workspace leads there, since the repository can re-point the link.
func namedPrograms(root string) (map[string]string, error) {
	var c Config
	set, err := layFile(filepath.Join(root, FileName), &c, nil)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range set {
		if !s.IsPath || s.get(&c) == "" {
			continue
		}
		p := s.get(&c)
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		sum, err := hashProgram(p)
		if err != nil {
			return nil, err
		}
		if sum != "dir" {
			out[filepath.ToSlash(rel)] = sum
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// hashProgram is the SHA-256 of the file at p, "" when there is none, and
// "dir" for a directory (a model directory: not pinned).
func hashProgram(p string) (string, error) {
	if fi, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err == nil && fi.IsDir() {
		return "dir", nil
	}
	f, _, err := workspace.OpenRegular(p, maxProgram)
	if err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("trust: read %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func readTrust(userDir string) ([]TrustRecord, error) {
	if userDir == "" {
		return nil, nil
	}
	path := filepath.Join(userDir, TrustFileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust store %s: %w", path, err)
	}
	var recs []TrustRecord
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, fmt.Errorf("trust store %s: %w", path, err)
	}
	return recs, nil
}

// writeTrust replaces the store atomically (a crash leaves the old or the
// new file, never half of one), readable by the user only.
func writeTrust(userDir string, recs []TrustRecord) error {
	if userDir == "" {
		return errors.New("no user config directory: set XDG_CONFIG_HOME or HOME")
	}
	if err := os.MkdirAll(userDir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", userDir, err)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Root < recs[j].Root })
	data, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return fmt.Errorf("encode trust store: %w", err)
	}
	tmp, err := os.CreateTemp(userDir, TrustFileName+".*")
	if err != nil {
		return fmt.Errorf("write trust store: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write trust store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write trust store: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(userDir, TrustFileName)); err != nil {
		return fmt.Errorf("write trust store: %w", err)
	}
	return nil
}

// CheckTrust reports whether the user trusts the workspace at root (and
// its current .scry.toml).
func CheckTrust(userDir, root string) (Trust, error) {
	canon, recs, err := decisions(userDir, root)
	t := Trust{Root: canon}
	if err != nil {
		return t, err
	}
	for _, r := range recs {
		if r.Root != canon {
			continue
		}
		t.Record = r
		h, err := configHash(canon)
		if err != nil {
			return t, err
		}
		if h != r.ConfigSHA256 {
			t.Stale = true
			return t, nil
		}
		progs, err := namedPrograms(canon)
		if err != nil {
			return t, err
		}
		for rel, sum := range progs {
			if pinned, ok := r.Programs[rel]; !ok || pinned != sum {
				t.Changed = append(t.Changed, rel)
			}
		}
		sort.Strings(t.Changed)
		t.Stale = len(t.Changed) > 0
		t.Trusted = !t.Stale
		return t, nil
	}
	return t, nil
}

// TrustWorkspace records that the user trusts root with its current
// .scry.toml, replacing an earlier decision for the same root.
func TrustWorkspace(userDir, root string, now time.Time) (TrustRecord, error) {
	canon, recs, err := decisions(userDir, root)
	if err != nil {
		return TrustRecord{}, err
	}
	h, err := configHash(canon)
	if err != nil {
		return TrustRecord{}, err
	}
	progs, err := namedPrograms(canon)
	if err != nil {
		return TrustRecord{}, err
	}
	rec := TrustRecord{Root: canon, ConfigSHA256: h, TrustedAt: now.UTC(), Programs: progs}
	return rec, writeTrust(userDir, append(withoutRoot(recs, canon), rec))
}

// RevokeTrust forgets the decision for root; it reports whether there was
// one.
func RevokeTrust(userDir, root string) (bool, error) {
	canon, recs, err := decisions(userDir, root)
	if err != nil {
		return false, err
	}
	n := len(recs)
	kept := withoutRoot(recs, canon)
	if len(kept) == n {
		return false, nil
	}
	return true, writeTrust(userDir, kept)
}

// decisions reads the trust store for a question about the workspace at
// root: root as the store records it (canon; "" when it cannot be
// resolved) and the store's decisions.
func decisions(userDir, root string) (canon string, recs []TrustRecord, err error) {
	canon, err = CanonicalRoot(root)
	if err != nil {
		return "", nil, err
	}
	recs, err = readTrust(userDir)
	return canon, recs, err
}

// withoutRoot is recs without the decision for the workspace root canon
// (recs is reused).
func withoutRoot(recs []TrustRecord, canon string) []TrustRecord {
	return slices.DeleteFunc(recs, func(r TrustRecord) bool { return r.Root == canon })
}
