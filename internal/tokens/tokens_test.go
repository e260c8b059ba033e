package tokens

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		in       string
		min, max int
	}{
		{"", 0, 0},
		{"hello world", 2, 2},
		{"export async function validateToken(token: string): Promise<boolean> {}", 12, 22},
	}
	for _, tt := range tests {
		if got := Count(tt.in); got < tt.min || got > tt.max {
			t.Errorf("Count(%q) = %d, want in [%d, %d]", tt.in, got, tt.min, tt.max)
		}
	}
	if err != nil {
		t.Fatalf("tokenizer did not load: %v", err)
	}
}
