//go:build unix

package checks

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the check in a process group of its own, whose id is
// its pid, so that killGroup reaches every process it starts.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the check's whole process group.
func killGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }
