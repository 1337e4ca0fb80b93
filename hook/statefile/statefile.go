// Package statefile holds a person's commands on a loop's state file:
// which file they work on (Locate), init's start of a loop (Start),
// cancel's end of one (Cancel, End), accept's contract (Accept) and
// validate's check (Check). Each returns what it did, and says it in words
// the command line prints; none prints. Start and Cancel write through
// file.WriteIn and never through a symbolic link.
package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/loophook/loophook/hook/refusal"
	"github.com/loophook/loophook/internal/file"
)

// refuse is an error a person can act on: what is wrong, and what to do.
var refuse = refusal.New

// writeIn is file.WriteIn; tests replace it to fail half-way.
var writeIn = file.WriteIn

// shown names a file for a person (file.Shown).
var shown = file.Shown

// A linkHint says what to do about the link name, which points to what.
type linkHint func(name, what string) string

// refuseLink fails when path is a symbolic link, so that a person's
// command never writes through one.
func refuseLink(path, what string, hint linkHint) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return errLink(shown(path), hint(shown(path), what))
	}
	return nil
}

// openDirNoLink opens dir as a root to write in, after checking that it is
// not a symbolic link, and that the root opened is the directory checked.
func openDirNoLink(dir string, hint linkHint) (*os.Root, error) {
	if err := refuseLink(dir, pointsToDir, hint); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	opened, err := root.Stat(".")
	if err == nil {
		var now fs.FileInfo
		if now, err = os.Lstat(dir); err == nil && !os.SameFile(opened, now) {
			err = errLink(shown(dir), hint(shown(dir), pointsToDir))
		}
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	return root, nil
}

// brokenName is a name beside name in dir that nothing has yet, for a file
// moved aside at now: name.broken-20261123T140501, then -2, -3 … after it.
func brokenName(dir *os.Root, name string, now time.Time) (string, error) {
	base := name + ".broken-" + now.Format("20060102T150405")
	for i := 1; i <= 1000; i++ {
		candidate := base
		if i > 1 {
			candidate = fmt.Sprintf("%s-%d", base, i)
		}
		if _, err := dir.Lstat(candidate); errors.Is(err, fs.ErrNotExist) {
			return candidate, nil
		} else if err != nil {
			return "", err
		}
	}
	return "", errAllTaken(base)
}

// errOpen says that the directory name cannot be opened to write in, unless
// err says why already.
func errOpen(name string, err error) error {
	var r *refusal.Refusal
	if errors.As(err, &r) {
		return err
	}
	return refuse("", "open %s: %v", name, file.PathCause(err))
}
