package chunk

import "testing"

func TestDisplayName(t *testing.T) {
	tests := []struct {
		parent, name string
		depth        int
		want         string
	}{
		{"", "createStore", 0, "createStore"},
		{"TokenService", "validate", 1, "TokenService.validate"},
		{"Mocha.prototype.ui", "this.suite.on() callback", 1, "Mocha.prototype.ui > this.suite.on() callback"},
		{"self.hookDown() callback", "self.runTest() callback", 2, "self.hookDown() callback > self.runTest() callback"},
		{"describe('parser') callback", "parseLine", 2, "describe('parser') callback > parseLine"},
	}
	for _, tt := range tests {
		c := Chunk{ParentName: tt.parent, Name: tt.name, Depth: tt.depth}
		if got := c.DisplayName(); got != tt.want {
			t.Errorf("DisplayName(%q, %q) = %q, want %q", tt.parent, tt.name, got, tt.want)
		}
	}
}
