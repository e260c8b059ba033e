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
	if runtime.GOOS != "linux" {
		return true, fmt.Sprintf("%d directories to watch (fsnotify on %s)", dirs, runtime.GOOS)
	}
	data, err := os.ReadFile(maxWatchesFile)
	if err != nil {
		return true, fmt.Sprintf("%d directories to watch (inotify limit unknown: %v)", dirs, err)
	}
	limit, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return true, fmt.Sprintf("%d directories to watch (inotify limit unreadable)", dirs)
	}
	if dirs >= limit {
		return false, fmt.Sprintf("%d directories to watch, more than the inotify limit of %d (raise %s)", dirs, limit, maxWatchesFile)
	}
	return true, fmt.Sprintf("%d directories to watch, inotify limit %d", dirs, limit)
}
