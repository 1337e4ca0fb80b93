//go:build unix

package file

import "syscall"

// nonblock keeps opening a named pipe from waiting for a writer.
const nonblock = syscall.O_NONBLOCK
