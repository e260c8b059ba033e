package bench

import (
	"syscall"
	"time"
)

// peakRSS returns the process's peak resident set size in bytes, or -1.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

// cpuTime returns the CPU time (user + system) the process has used so far,
// or -1. Wall times on a machine shared with other work stretch with the
// load; CPU time much less so, which makes the two together readable.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childCPU returns the CPU time (user + system) of the process's children
// that have been waited for, or -1.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
