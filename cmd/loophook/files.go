package main

import (
	"errors"
	"io/fs"
	"os"

	"github.com/loophook/loophook/hook"
)

// shown names a file for a person: relative to the working directory when it
// is below it, else in full.
func shown(path string) string {
	wd, _ := os.Getwd()
	return hook.Relative(wd, path)
}

// pathCause drops the path from an os error where the message names the file
// already.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
