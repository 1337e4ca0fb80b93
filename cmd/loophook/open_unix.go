//go:build unix

package main

import "syscall"

// openNonblock keeps an open from waiting on a named pipe's other end,
// should one replace a regular file between the Stat and the open.
const openNonblock = syscall.O_NONBLOCK
