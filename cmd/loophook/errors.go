package main

import (
	"errors"
	"fmt"
	"github.com/loophook/loophook/hook/table"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
)

// Exit codes for people's commands.
const (
	exitOK      = 0
	exitFinding = 1 // invalid state, or the hook would make the agent go on
	exitError   = 2 // unreadable file, bad flags
)

// failure is an error a person reads: one line, and a hint where one helps.
type failure struct {
	msg  string
	hint string
	code int
}

func (f *failure) Error() string { return f.msg }

func fail(hint, format string, args ...any) error {
	return &failure{msg: fmt.Sprintf(format, args...), hint: hint, code: exitError}
}

// finding ends a command with exit 1 and nothing more to print.
var finding = &failure{code: exitFinding}

// say writes one line for a person on stderr: the program's prefix (the
// one place it is written), a tag that tells an error, a note or a hint from
// a summary ("" for a summary), and the sentence.
func say(w io.Writer, tag, format string, args ...any) {
	fmt.Fprint(w, table.Visible(fmt.Sprintf(hook.Prefix+tag+format, args...))+"\n")
}

// tell is say for lines that carry their own tag: the hook's notes.
func tell(w io.Writer) func(string) {
	return func(msg string) { say(w, "", "%s", msg) }
}

// flagError says what the standard library's flag parser, or urfave/cli's
// reading of an environment variable, found wrong, in loophook's words: a
// flag is --name (-n for a one-letter name), and a bad value says what the
// flag, one of flags or of the hooks', wants.
func flagError(err error, flags []cli.Flag) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return fail(hintHelp, msgUnknownFlag, dashed(strings.TrimLeft(name, "-")))
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fail(hintHelp, msgFlagValue, dashed(strings.TrimLeft(name, "-")))
	}
	var val, name, env string
	if _, e := fmt.Sscanf(msg, "invalid value %q for flag -%s", &val, &name); e == nil {
		name = strings.TrimSuffix(name, ":")
		return fail(hintHelp, msgBadFlag, dashed(name), wants(name, flags), val)
	}
	if _, e := fmt.Sscanf(msg, "could not parse %q as %s value from environment variable %q for flag %s", &val, new(string), &env, &name); e == nil {
		name = strings.TrimSuffix(name, ":")
		return fail(hintHelp, msgEnv, env, val, dashed(name), wants(name, flags))
	}
	return fail(hintHelp, "%s", msg)
}

// dashed is the flag name as a person types it: -n, --state.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// wants is what the flag name, one of flags or of the hooks', takes, for a
// person.
func wants(name string, flags []cli.Flag) string {
	for _, f := range append(slices.Clip(flags), hookFlags()...) {
		if slices.Contains(f.Names(), name) {
			switch f.(type) {
			case *cli.IntFlag:
				return wantWhole
			case *cli.Float64Flag:
				return wantNumber
			case *cli.BoolFlag:
				return wantBool
			}
		}
	}
	return wantValid
}

// noArguments refuses the arguments of a command that takes flags only.
func noArguments(c *cli.Context) error {
	if c.NArg() > 0 {
		return fail(fmt.Sprintf(hintCommandHelp, c.Command.Name), msgFlagsOnly, c.Command.Name, c.Args().First())
	}
	return nil
}

// report prints err once, tagged as an error unless it is a finding, with
// its hint, and picks the exit code.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var f *failure
	if !errors.As(err, &f) {
		f = &failure{msg: err.Error(), code: exitError}
		var h interface{ Hint() string } // a package's refusal (hook/refusal)
		if errors.As(err, &h) {
			f.hint = h.Hint()
		}
	}
	tag := tagError
	if f.code == exitFinding {
		tag = "" // what the person asked to know, not a failure
	}
	if f.msg != "" {
		say(stderr, tag, "%s", f.msg)
	}
	if f.hint != "" {
		say(stderr, tagHint, "%s", f.hint)
	}
	return f.code
}

// invalidState is the finding that a state file of a dialect has n schema
// problems.
func invalidState(name, dialect string, n int) error {
	problems := "problems"
	if n == 1 {
		problems = "problem"
	}
	return &failure{msg: fmt.Sprintf(msgInvalidState, name, dialect, n, problems), code: exitFinding}
}
