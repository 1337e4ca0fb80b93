//go:build !unix

package main

// openNonblock: no named pipe waits at an open here.
const openNonblock = 0
