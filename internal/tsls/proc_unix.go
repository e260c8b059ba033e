//go:build unix

package tsls

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the server in its own process group so that killing it also
// kills anything it spawned (npm's node wrapper, when that is what we were
// given, runs the native binary as a child).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killTree sends SIGKILL to the process group we created for the server.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
