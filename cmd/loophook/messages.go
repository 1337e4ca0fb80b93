package main

import (
	"errors"
	"fmt"
)

// The sentences people read from cancel, init, install and uninstall, kept
// together so that their voice can be reviewed in one sitting. Errors and
// notes are lower-case, one line; report adds the "loophook: " prefix to an
// error and prints its hint on a "hint: " line.

// files

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

// init

func initLinkHint(name, what string) string {
	return fmt.Sprintf("remove the link (rm %s) to start a new loop here: %s stays as it is", name, what)
}

func errStateExists(path string) error {
	return fail("add --force to replace it, or end its loop with: loophook cancel", "%s already exists", path)
}
