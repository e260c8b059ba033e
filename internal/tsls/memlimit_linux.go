package tsls

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// limitMemory caps the address space (RLIMIT_AS) of the running process
// pid, and so of the children it starts. It is applied right after start:
// the few instructions the process runs before that are not what grows.
// A Go program that reaches the cap dies with "fatal error: out of memory".
func limitMemory(pid int, limit int64) error {
	lim := syscall.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), uintptr(syscall.RLIMIT_AS),
		uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("prlimit(%d, RLIMIT_AS, %d): %w", pid, limit, errno)
	}
	return nil
}

func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}

// processMemory reads a process's resident set and its peak (VmRSS and
// VmHWM in /proc/PID/status), in bytes.
func processMemory(pid int) (rss, peak int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		f := strings.Fields(val) // "123456 kB"
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("/proc/%d/status: %s: unexpected %q", pid, key, val)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/status: %s: %w", pid, key, err)
		}
		if key == "VmRSS" {
			rss = kb << 10
		} else {
			peak = kb << 10
		}
	}
	if rss == 0 && peak == 0 {
		return 0, 0, fmt.Errorf("/proc/%d/status: no VmRSS or VmHWM", pid)
	}
	return rss, peak, nil
}
