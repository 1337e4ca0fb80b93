//go:build !windows

package person

// ptyPipe: an MSYS or Cygwin pty is a pipe on Windows only; elsewhere a pty
// is a terminal.
func ptyPipe(uintptr) bool { return false }
