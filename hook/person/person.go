// Package person tells whether a person, not an agent, runs a command
// (SPEC section 5: accept is a person's act).
package person

import (
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/loophook/loophook/hook/host"
)

// Agent is the agent host whose marker variable getenv finds set, and that
// variable; ok is false when no host's marker is set.
func Agent(getenv func(string) string) (h host.Host, marker string, ok bool) {
	h, ok = host.AgentOf(getenv)
	if !ok {
		return h, "", false
	}
	marker, _ = h.Marker(getenv)
	return h, marker, true
}

// Terminal reports whether stdin is a terminal: a console, or on Windows
// the pipe an MSYS or Cygwin pty hands a program (Git Bash's mintty), which
// is not a console (golang/go#46681).
func Terminal(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	return ok && (term.IsTerminal(int(f.Fd())) || ptyPipe(f.Fd()))
}

// ptyName reports whether a pipe's name is that of an MSYS or Cygwin pty's
// end a program reads: \msys-1888ae32e00d56aa-pty0-from-master.
func ptyName(name string) bool {
	rest, ok := strings.CutPrefix(name, `\msys-`)
	if !ok {
		rest, ok = strings.CutPrefix(name, `\cygwin-`)
	}
	if !ok {
		return false
	}
	_, pty, ok := strings.Cut(rest, "-pty")
	return ok && strings.HasSuffix(pty, "-from-master")
}
