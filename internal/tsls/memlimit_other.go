//go:build !linux

package tsls

import "errors"

// limitMemory: only Linux can cap another process's address space after it
// started; elsewhere the server runs uncapped (see the README).
func limitMemory(pid int, limit int64) error {
	return errors.New("not supported on this system")
}

func physicalMemory() int64 { return 0 }

func processMemory(pid int) (rss, peak int64, err error) {
	return 0, 0, errors.New("not measured on this system")
}
