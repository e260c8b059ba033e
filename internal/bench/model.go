package bench

import (
	"fmt"
	"os"

	"github.com/scry-dev/scry/internal/search"
)

// ReadModel reads a ranking model file, as `scry bench fit --out` writes
// it.
func ReadModel(path string) (*search.Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	m, err := search.ParseModel(b)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	return m, nil
}
