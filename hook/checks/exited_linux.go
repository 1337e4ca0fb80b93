package checks

import "golang.org/x/sys/unix"

// exited waits until the process has exited, leaving it unreaped (WNOWAIT),
// so that its pid, its group's id, names no other process meanwhile; true
// when it could.
func exited(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil
		}
	}
}
