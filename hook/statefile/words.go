package statefile

import (
	"fmt"
	"strconv"

	"github.com/loophook/loophook/hook/regular"
)

// Every sentence of this package a person reads.

const (
	hintStart         = "start a loop with: loophook init --spec \"...\" --criterion \"...\""
	errNoState        = "no loop state found from %s (looked for %s)"
	errFindState      = "find the state: %v"
	errCancelDialect  = "cannot cancel the loop in %s: %v"
	hintCancelDialect = "stop that loop the way its own system does"
	errKeepContract   = "keep the contract of %s: %v"
	hintInitExample   = `loophook init --spec "add a --json flag" --criterion "tests pass"`
	whyEmpty          = "the file is empty"
	whyNotObject      = "not a JSON object"
	pointsToFile      = "the file it points to"
	pointsToDir       = "what it points to"
)

func errCreate(name string, err error) error {
	return refuse("", "create %s: %v", name, regular.PathCause(err))
}

func errWrite(name string, err error) error {
	return refuse("", "write %s: %v", name, regular.PathCause(err))
}

func errLink(name, hint string) error {
	return refuse(hint, "%s is a symbolic link; refusing to write through it", name)
}

func errAllTaken(base string) error {
	return fmt.Errorf("%s-2 to -1000 are all taken", base)
}

func cancelLinkHint(name, what string) string {
	return fmt.Sprintf("to end the loop, remove the link (rm %s): %s stays as it is", name, what)
}

func whyInvalidCancelled(problems int) string {
	word := "problems"
	if problems == 1 {
		word = "problem"
	}
	return "not a valid loop state (" + strconv.Itoa(problems) + " " + word + "), even cancelled"
}

func errNothingToCancel(path string, err error) error {
	return refuse("", "%s: %v", path, err)
}

func errMoveAside(path string, err error) error {
	return refuse("remove it to end the loop", "move %s aside: %v", path, err)
}

func initLinkHint(name, what string) string {
	return fmt.Sprintf("remove the link (rm %s) to start a new loop here: %s stays as it is", name, what)
}

func errStateExists(path string) error {
	return refuse("add --force to replace it, or end its loop with: loophook cancel", "%s already exists", path)
}
