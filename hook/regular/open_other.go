//go:build !unix

package regular

// Nonblock is nothing to add where a named pipe does not block an open.
const Nonblock = 0
