package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
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
}

// Trust is a workspace's trust state.
type Trust struct {
	// Root is the canonical root the decision is keyed by.
	Root string
	// Trusted: a record exists and the .scry.toml is the one trusted.
	Trusted bool
	// Stale: a record exists but .scry.toml changed since.
	Stale bool
	// Record is the decision found (zero when none).
	Record TrustRecord
}

// String says the state in words, for doctor and notes.
func (t Trust) String() string {
	switch {
	case t.Trusted:
		return "trusted (scry trust, " + t.Record.TrustedAt.Format(time.DateOnly) + ")"
	case t.Stale:
		return "not trusted: .scry.toml changed since `scry trust` on " + t.Record.TrustedAt.Format(time.DateOnly) + "; review it and run `scry trust` again"
	default:
		return "not trusted (run `scry trust` to let its .scry.toml name programs, URLs and models, and to use its own TypeScript)"
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
	canon, err := CanonicalRoot(root)
	if err != nil {
		return Trust{}, err
	}
	t := Trust{Root: canon}
	recs, err := readTrust(userDir)
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
		t.Trusted = h == r.ConfigSHA256
		t.Stale = !t.Trusted
		return t, nil
	}
	return t, nil
}

// TrustWorkspace records that the user trusts root with its current
// .scry.toml, replacing an earlier decision for the same root.
func TrustWorkspace(userDir, root string, now time.Time) (TrustRecord, error) {
	canon, err := CanonicalRoot(root)
	if err != nil {
		return TrustRecord{}, err
	}
	h, err := configHash(canon)
	if err != nil {
		return TrustRecord{}, err
	}
	recs, err := readTrust(userDir)
	if err != nil {
		return TrustRecord{}, err
	}
	rec := TrustRecord{Root: canon, ConfigSHA256: h, TrustedAt: now.UTC()}
	kept := recs[:0]
	for _, r := range recs {
		if r.Root != canon {
			kept = append(kept, r)
		}
	}
	return rec, writeTrust(userDir, append(kept, rec))
}

// RevokeTrust forgets the decision for root; it reports whether there was
// one.
func RevokeTrust(userDir, root string) (bool, error) {
	canon, err := CanonicalRoot(root)
	if err != nil {
		return false, err
	}
	recs, err := readTrust(userDir)
	if err != nil {
		return false, err
	}
	kept := recs[:0]
	for _, r := range recs {
		if r.Root != canon {
			kept = append(kept, r)
		}
	}
	if len(kept) == len(recs) {
		return false, nil
	}
	return true, writeTrust(userDir, kept)
}
