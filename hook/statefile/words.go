package statefile

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/internal/file"
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
	return refuse("", "create %s: %v", name, file.PathCause(err))
}

func errWrite(name string, err error) error {
	return refuse("", "write %s: %v", name, file.PathCause(err))
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

// What a person's command did, as it tells the person: a summary line or
// lines, and its notes.

// Said is what cancel did, in a line.
func (c Cancelled) Said() string {
	path := shown(c.Path)
	switch {
	case c.Record != "":
		return fmt.Sprintf("cancelled the %s loop in %s: its file is that system's and stays as it is; loophook recorded the cancel in %s, and lets the agent stop until the state changes or you run loophook init or accept", c.Dialect, path, c.Record)
	case c.Aside != "":
		return fmt.Sprintf("cancelled the loop by moving %s to %s, since it cannot be edited: %s", path, shown(c.Aside), c.Why)
	case c.Was == "":
		return fmt.Sprintf("the loop in %s is already cancelled; nothing changed", path)
	}
	return fmt.Sprintf("cancelled the loop in %s (status was %s)", path, c.Was)
}

// Notes are what the person must know of the loop cancelled.
func (c Cancelled) Notes() []string {
	if c.Contract != nil {
		return []string{fmt.Sprintf("end the loop's contract: %v", c.Contract)}
	}
	return nil
}

// Said sums up a new loop, with the hook's ceiling on its iterations when
// it asked for more.
func (s Started) Said() string {
	l := s.Loop
	max := count(l.MaxIterations, "iteration", "iterations")
	if c := criteria.DefaultIterationCeiling; l.MaxIterations > c {
		max = fmt.Sprintf("%s; the hook holds it to %d (its --iteration-ceiling)", max, c)
	}
	return fmt.Sprintf("wrote %s: %s, %s, at most %s", shown(s.Path), count(len(l.Criteria), "criterion", "criteria"), count(len(l.Steps), "step", "steps"), max)
}

// Notes are what the person must know of the loop started.
func (s Started) Notes() []string {
	var notes []string
	if s.Contract != nil {
		notes = append(notes, fmt.Sprintf("keep the loop's contract: %v", s.Contract))
	}
	if s.WorkTreeTop != "" {
		notes = append(notes, fmt.Sprintf("the hook finds this loop from sessions working in %s or below, not from the git work tree's root %s", shown(filepath.Dir(filepath.Dir(s.Path))), filepath.ToSlash(s.WorkTreeTop)))
	}
	return notes
}

// Said is what accepting a loop's criteria changed, a line each.
func (a Accepted) Said() []string {
	path, n := shown(a.Path), count(a.Loop.Criteria.Len(), "criterion", "criteria")
	var lines []string
	switch {
	case a.Change.New:
		lines = append(lines, fmt.Sprintf("the contract of %s is now its %s (it had none)", path, n))
	case len(a.Change.Removed) == 0 && len(a.Change.Added) == 0:
		return []string{fmt.Sprintf("the contract of %s already is its %s; nothing changed", path, n)}
	default:
		lines = append(lines, fmt.Sprintf("the contract of %s is now its %s", path, n))
	}
	for _, name := range a.Change.Removed {
		lines = append(lines, fmt.Sprintf("removed: %q", name))
	}
	if !a.Change.New {
		for _, name := range a.Change.Added {
			lines = append(lines, fmt.Sprintf("added: %q", name))
		}
	}
	return lines
}

// count is "1 criterion", "2 criteria".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
