package main

import (
	"errors"
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

// errOpen says that the directory name cannot be opened to write in, unless
// err says why already.
func errOpen(name string, err error) error {
	var f *failure
	if errors.As(err, &f) {
		return err
	}
	return fail("", "open %s: %v", name, pathCause(err))
}

// init

func errStateExists(path string) error {
	return fail("add --force to replace it, or end its loop with: loophook cancel", "%s already exists", path)
}
