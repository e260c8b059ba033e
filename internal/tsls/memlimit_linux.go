package tsls

import (
	"fmt"
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
