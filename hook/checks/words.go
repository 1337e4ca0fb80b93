package checks

import (
	"fmt"
	"strconv"
)

// Every sentence a person or an agent reads from this package.

const noShell = "sh is not on PATH, nor Git for Windows' sh.exe where it installs: install Git for Windows (https://git-scm.com/download/win) or put an sh on PATH"

const outputDropped = "[loophook: the first %d bytes of the output were not kept]"

// Cause says how a check ended: its exit status, its timeout, or why it
// could not run.
func (r Result) Cause() string {
	switch {
	case r.TimedOut && r.Cut && r.Timeout <= 0:
		// It waited for a slot, or behind others, until no time was left.
		return "did not start: the hook's time for this stop's checks had run out"
	case r.TimedOut && r.Cut:
		return fmt.Sprintf("was stopped after %s, when the hook's time for this stop's checks ran out", r.Timeout)
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s", r.Timeout)
	case r.Err != "":
		return "could not run: " + r.Err
	case r.Exit == 0:
		return "passed"
	}
	return "exited with status " + strconv.Itoa(r.Exit)
}
