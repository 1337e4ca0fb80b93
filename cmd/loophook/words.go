package main

import (
	"fmt"
	"io"

	"github.com/loophook/loophook/hook"
)

// Every sentence a person reads from loophook's commands is written here or
// beside the flag or command it describes; the "loophook: " prefix is added
// once, by report and note.

const (
	appUsage       = "decide whether an AI coding agent's work loop may stop"
	appDescription = "loophook reads the loop's .loop/state.json and answers the agent host's Stop hook:\n" +
		"go on while criteria are unmet, stop when every criterion is met and exit_signal is true,\n" +
		"or when a limit, the circuit breaker or the runaway guard ends the loop.\n\n" +
		"Start here:\n" +
		"   loophook init --spec \"add a --json flag\" --criterion \"tests pass\"\n" +
		"   loophook install\n" +
		"   loophook status"
)

// Errors and their hints.
const (
	hintHelp          = "see loophook --help"
	hintInit          = "start a loop with: loophook init --spec \"...\" --criterion \"...\""
	msgUnknownCommand = "unknown command %q"
	msgFlag           = "%v"
	msgArgument       = "unexpected argument %q"
	msgEnv            = "%s=%q: %v"
	msgAtLeastOne     = "--%s must be at least 1, not %d"
	msgAtLeastZero    = "--%s must be 0 (no limit) or more, not %d"
	msgOnInvalid      = "--on-invalid must be block or allow, not %q"
	msgProtocol       = "--protocol: %v"
	msgNoState        = "no %s at or above %s"
	msgFindState      = "find the state: %v"
	msgFileError      = "%s: %v"
	msgInvalidState   = "%s is not a valid loop state (%d %s)"
	msgNote           = "note: %v"
)

// note returns a writer of notes for a person, one line each.
func note(w io.Writer) func(string) {
	return func(msg string) { fmt.Fprintln(w, hook.Prefix+msg) }
}
