package watch

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// maxWatchesFile holds Linux's per-user limit on inotify watches, one per
// directory watched.
const maxWatchesFile = "/proc/sys/fs/inotify/max_user_watches"

// Check says whether watch mode can follow a tree of this many directories:
// ok false with the reason when `scry serve` would fall back to the mtime
// scan. Watches other programs of the same user hold are not counted.
func Check(dirs int) (ok bool, detail string) {
	n := fmt.Sprintf("%d directories", dirs)
	if dirs == 1 {
		n = "1 directory"
	}
	if runtime.GOOS != "linux" {
		return true, fmt.Sprintf("%s to watch (fsnotify on %s)", n, runtime.GOOS)
	}
	data, err := os.ReadFile(maxWatchesFile)
	if err != nil {
		return true, fmt.Sprintf("%s to watch (inotify limit unknown: %v)", n, err)
	}
	limit, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return true, fmt.Sprintf("%s to watch (inotify limit unreadable)", n)
	}
	if dirs >= limit {
		return false, fmt.Sprintf("%s to watch, more than the inotify limit of %d (raise %s)", n, limit, maxWatchesFile)
	}
	return true, fmt.Sprintf("%s to watch, inotify limit %d", n, limit)
}
