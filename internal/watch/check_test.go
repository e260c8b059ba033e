package watch

import (
	"runtime"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		dirs   int
		ok     bool
		phrase string
	}{
		{1, true, "1 directory to watch"},
		{12, true, "12 directories to watch"},
		{1 << 40, false, "more than the inotify limit"},
	}
	for _, tt := range tests {
		ok, detail := Check(tt.dirs)
		if runtime.GOOS != "linux" {
			if !ok {
				t.Errorf("Check(%d) = false off Linux: %s", tt.dirs, detail)
			}
			continue
		}
		if ok != tt.ok || !strings.Contains(detail, tt.phrase) {
			t.Errorf("Check(%d) = %v, %q; want %v and %q", tt.dirs, ok, detail, tt.ok, tt.phrase)
		}
	}
}
