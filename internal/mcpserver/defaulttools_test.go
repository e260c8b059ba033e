package mcpserver

import (
	"slices"
	"testing"
)

// DefaultTools is every tool scry offers, in the order they are listed.
func TestDefaultToolsAreEveryTool(t *testing.T) {
	var names []string
	for _, tl := range tools {
		names = append(names, tl.name)
	}
	if !slices.Equal(names, DefaultTools) {
		t.Errorf("tools %v, DefaultTools %v", names, DefaultTools)
	}
}
