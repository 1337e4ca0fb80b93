//go:build unix

package regular

import "syscall"

// Nonblock keeps opening a named pipe from waiting for a writer.
const Nonblock = syscall.O_NONBLOCK
