//go:build !unix

package file

// nonblock is nothing to add where a named pipe does not block an open.
const nonblock = 0
