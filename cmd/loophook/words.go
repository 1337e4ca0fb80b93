package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

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
	msgAtLeastZero    = "--%s must be at least 0, not %s"
	msgOnInvalid      = "--on-invalid must be block or allow, not %q"
	msgProtocol       = "--protocol: %v"
	msgDialect        = "--dialect: %v"
	msgNoState        = "no loop state found from %s (looked for %s)"
	msgFindState      = "find the state: %v"
	msgFileError      = "%s: %v"
	msgInvalidState   = "%s is not a valid %s state (%d %s)"
	msgValid          = "%s: valid %s state"
	msgCancelDialect  = "%s holds a loop of dialect %s; cancel changes only %s"
	hintCancelDialect = "stop that loop the way its own system does"
	msgNote           = "note: %v"
	msgProgress       = "%d of %d criteria met"
	msgWatchJSON      = "--watch redraws text; it does not go with --json"
	clearScreen       = "\x1b[H\x1b[2J"
	msgReadJournal    = "read the journal: %v"
	msgNoJournal      = "no evaluations yet of the loop in %s"
	msgUnchanged      = "(state unchanged, guard %d)"
)

// note returns a writer of notes for a person, one line each.
func note(w io.Writer) func(string) {
	return func(msg string) { fmt.Fprintln(w, hook.Prefix+msg) }
}

// The sentences people read from cancel, init, install and uninstall, kept
// together so that their voice can be reviewed in one sitting. Errors and
// notes are lower-case, one line; report adds the "loophook: " prefix to an
// error and prints its hint on a "hint: " line.

// files

func errRead(name string, err error) error {
	return fail("", "read %s: %v", name, pathCause(err))
}

func errCreate(name string, err error) error {
	return fail("", "create %s: %v", name, pathCause(err))
}

func errWrite(name string, err error) error {
	return fail("", "write %s: %v", name, pathCause(err))
}

func errLink(name, hint string) error {
	return fail(hint, "%s is a symbolic link; refusing to write through it", name)
}

// A link hint says what to do about the link name, which points to what.
type linkHint func(name, what string) string

const (
	pointsToFile = "the file it points to"
	pointsToDir  = "what it points to"
)

func whyNotRegular(m fs.FileMode) string {
	return "not a regular file (" + fileKind(m) + ")"
}

// fileKind names a kind of file for a person.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

func errLarger(limit int64) error {
	return fmt.Errorf("larger than %d MiB", limit>>20)
}

func errAllTaken(base string) error {
	return fmt.Errorf("%s-2 to -1000 are all taken", base)
}

// errOpen says that the directory name cannot be opened to write in, unless
// err says why already.
func errOpen(name string, err error) error {
	var f *failure
	if errors.As(err, &f) {
		return err
	}
	return fail("", "open %s: %v", name, pathCause(err))
}

// cancel

func cancelLinkHint(name, what string) string {
	return fmt.Sprintf("to end the loop, remove the link (rm %s): %s stays as it is", name, what)
}

func msgCancelled(path, was string) string {
	return fmt.Sprintf("cancelled the loop in %s (status was %s)", path, was)
}

func msgAlreadyCancelled(path string) string {
	return fmt.Sprintf("the loop in %s is already cancelled; nothing changed", path)
}

func msgMovedAside(from, to, why string) string {
	return fmt.Sprintf("cancelled the loop by moving %s to %s, since it cannot be edited: %s", from, to, why)
}

const whyEmpty = "the file is empty"

func whyInvalidCancelled(problems int) string {
	return fmt.Sprintf("not a valid loop state (%d %s), even cancelled", problems, plural(problems, "problem"))
}

func errNothingToCancel(path string, err error) error {
	return fail("", "%s: %v", path, err)
}

func errMoveAside(path string, err error) error {
	return fail("remove it to end the loop", "move %s aside: %v", path, err)
}

// init

func initLinkHint(name, what string) string {
	return fmt.Sprintf("remove the link (rm %s) to start a new loop here: %s stays as it is", name, what)
}

func errStateExists(path string) error {
	return fail("add --force to replace it, or end its loop with: loophook cancel", "%s already exists", path)
}

// install and uninstall

func errDanglingSettings(path, target, command string) error {
	return fail("create the file it points to (it may hold just {}), or remove the link, and run loophook "+command+" again",
		"%s is a symbolic link to %s, which does not exist; nothing changed", path, target)
}

func errNotRegularSettings(path string, err error, command string) error {
	return fail("a settings file is a JSON file: move this one aside and run loophook "+command+" again",
		"%s is %v; nothing changed", path, err)
}

func errNotAProject(where, command string) error {
	hint := "run loophook install inside a project, or use --scope user to install for every project"
	if command == "uninstall" {
		hint = "run loophook uninstall inside a project, or use --scope user for your user settings"
	}
	return fail(hint, "%s is not a project: its .claude holds your user settings; nothing changed", where)
}

func noteCapSetElsewhere(value, path, scope string) string {
	return fmt.Sprintf("kept env.%s at %s, set in %s (%s scope); loophook's %q is not added here", blockCapKey, value, path, scope, blockCap)
}

func changeProtocol(event string) string {
	return "set --protocol claude on the " + event + " hook"
}
