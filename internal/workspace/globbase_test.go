package workspace

import "testing"

func TestGlobBase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"src/auth", "src/auth"},
		{"src/**/*.ts", "src/"},
		{"src/a*/b.ts", "src/"},
		{"*.ts", "."},
		{"../**/*.ts", "../"},
		{"/etc/*.conf", "/etc/"},
		{"{a,b}/x.ts", "."},
		{"src/file[12].ts", "src/"},
		{"", "."},
	}
	for _, tt := range tests {
		if got := GlobBase(tt.in); got != tt.want {
			t.Errorf("GlobBase(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
