package engine

import (
	"fmt"
	"os"
	"time"

	"github.com/scry-dev/scry/internal/config"
)

// SourceFlag is a setting's source when a command-line flag made it
// (Config.Origin records where each sensitive setting came from).
const SourceFlag = config.SourceFlag

// Trust records, in the user's config directory, that the user trusts the
// workspace at root: its canonical root and the hash of its current
// .scry.toml, so a changed file needs trusting again.
func Trust(root string) (config.TrustRecord, error) {
	rec, err := config.TrustWorkspace(config.UserDir(os.Getenv), root, time.Now())
	if err != nil {
		return rec, fmt.Errorf("trust: %w", err)
	}
	return rec, nil
}

// RevokeTrust forgets the trust decision for the workspace at root; had
// says whether there was one, canonical is the root as recorded.
func RevokeTrust(root string) (had bool, canonical string, err error) {
	had, err = config.RevokeTrust(config.UserDir(os.Getenv), root)
	if err != nil {
		return false, "", fmt.Errorf("trust --revoke: %w", err)
	}
	canonical, _ = config.CanonicalRoot(root)
	return had, canonical, nil
}

// LoadConfig reads the configuration a workspace gets from its .scry.toml
// (as far as its trust allows) and the environment.
func LoadConfig(root string) (Config, error) {
	return config.Load(root, os.Getenv)
}
