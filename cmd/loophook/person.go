package main

import (
	"io"

	"github.com/loophook/loophook/hook/person"
)

// personOnly refuses accept (SPEC section 5) unless a person runs it in a
// terminal: its standard input is a terminal, and no agent host's marker
// is in its environment. A terminal alone is not enough, since Gemini
// CLI's shell tool runs commands in a pseudo-terminal; a marker alone is
// not either, since a host may lack one. There is no flag that skips it.
// It guards against an agent's shortcut, not against a hostile program of
// the same user.
func personOnly(command string, stdin io.Reader, getenv func(string) string) error {
	if err := notAgent(command, getenv); err != nil {
		return err
	}
	if !person.Terminal(stdin) {
		return fail("", msgPersonOnlyTerminal, command)
	}
	return nil
}

// notAgent refuses a person's act that a script may run (cancel, init over
// an unfinished loop, uninstall: SPEC section 5) when an agent host's
// marker is in its environment; no terminal is asked for, so that a
// person's own script can still end a loop. No flag skips it.
func notAgent(command string, getenv func(string) string) error {
	if h, marker, ok := person.Agent(getenv); ok {
		return fail("", msgPersonOnlyAgent, command, h.Title, marker)
	}
	return nil
}
