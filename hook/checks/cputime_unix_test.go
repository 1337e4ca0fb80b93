//go:build unix

package checks

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time of this process and of its children waited for.
func cpuTime() time.Duration {
	var d time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		syscall.Getrusage(who, &ru)
		d += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return d
}
