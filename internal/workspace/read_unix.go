//go:build unix

package workspace

import "syscall"

// openFlags keep open from blocking on a FIFO (it waits for a writer) or
// taking a terminal as the controlling one.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_CLOEXEC
