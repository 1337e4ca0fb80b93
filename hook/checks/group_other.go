//go:build !unix

package checks

import (
	"os"
	"os/exec"
)

// ownGroup: without process groups, the check is one process.
func ownGroup(*exec.Cmd) {}

// killGroup kills the check's own process; what it started may outlive it.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
