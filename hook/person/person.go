// Package person tells whether a person, not an agent, runs a command
// (SPEC section 5: accept is a person's act).
package person

import (
	"io"
	"os"

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

// Terminal reports whether stdin is a terminal.
func Terminal(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
