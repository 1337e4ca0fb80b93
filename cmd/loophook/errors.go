package main

import (
	"errors"
	"fmt"
	"io"
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

// report prints err once, with the program's prefix, and picks the exit code.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var f *failure
	if !errors.As(err, &f) {
		f = &failure{msg: err.Error(), code: exitError}
		var h interface{ Hint() string } // a package's refusal: hook/statefile, hook/install
		if errors.As(err, &h) {
			f.hint = h.Hint()
		}
	}
	if f.msg != "" {
		note(stderr)(f.msg)
	}
	if f.hint != "" {
		fmt.Fprintf(stderr, "hint: %s\n", f.hint)
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
