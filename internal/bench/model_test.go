package bench

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestReadModel(t *testing.T) {
	if m, err := ReadModel("../search/model.json"); err != nil || m == nil {
		t.Fatalf("the shipped model: %v, %v", m, err)
	}
	missing := filepath.Join(t.TempDir(), "none.json")
	if _, err := ReadModel(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing model: error %v, want one naming the file", err)
	}
}
