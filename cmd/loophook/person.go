package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/loophook/loophook/hook/host"
)

// personOnly refuses a person-only command (SPEC section 5: accept) unless
// a person runs it in a terminal: its standard input is a terminal, and
// no agent host's marker is in its environment. A terminal alone is not
// enough, since Gemini CLI's shell tool runs commands in a
// pseudo-terminal; a marker alone is not either, since a host may lack
// one. There is no flag that skips it. It guards against an agent's
// shortcut, not against a hostile program of the same user.
func personOnly(command string, stdin io.Reader, getenv func(string) string) error {
	if h, ok := host.AgentOf(getenv); ok {
		return fail("", msgPersonOnlyAgent, command, h.Title, markerSet(h, getenv))
	}
	if f, ok := stdin.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		return fail("", msgPersonOnlyTerminal, command)
	}
	return nil
}

// markerSet names the host's marker that getenv finds set.
func markerSet(h host.Host, getenv func(string) string) string {
	for _, v := range h.AgentEnv {
		if getenv(v) != "" {
			return v
		}
	}
	return ""
}
