package main

import (
	"io"

	"github.com/loophook/loophook/hook/person"
)

// personOnly refuses a person-only command (SPEC section 5: accept) unless
// a person runs it in a terminal: its standard input is a terminal, and
// no agent host's marker is in its environment. A terminal alone is not
// enough, since Gemini CLI's shell tool runs commands in a
// pseudo-terminal; a marker alone is not either, since a host may lack
// one. There is no flag that skips it. It guards against an agent's
// shortcut, not against a hostile program of the same user.
func personOnly(command string, stdin io.Reader, getenv func(string) string) error {
	if h, marker, ok := person.Agent(getenv); ok {
		return fail("", msgPersonOnlyAgent, command, h.Title, marker)
	}
	if !person.Terminal(stdin) {
		return fail("", msgPersonOnlyTerminal, command)
	}
	return nil
}
