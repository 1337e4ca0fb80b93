package file

import (
	"errors"
	"math/rand/v2"
	"syscall"
	"time"
)

// retryFor bounds how long a refused rename is tried again: cmd/go's
// robustio waits up to 2s; a hook answers within a turn, so less.
const retryFor = 500 * time.Millisecond

// The errors Windows gives for a file another process holds open.
const (
	errorAccessDenied     = syscall.Errno(5)
	errorSharingViolation = syscall.Errno(32)
)

// retry runs f until it succeeds, fails otherwise than with a file held
// open, or retryFor has passed, sleeping a growing, jittered while between
// tries, as cmd/go's robustio does.
func retry(f func() error) error {
	var start time.Time
	sleep := time.Millisecond
	for {
		err := f()
		var errno syscall.Errno
		if err == nil || !errors.As(err, &errno) || errno != errorAccessDenied && errno != errorSharingViolation {
			return err
		}
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start)+sleep >= retryFor {
			return err
		}
		time.Sleep(sleep)
		sleep += time.Duration(rand.Int64N(int64(sleep)))
	}
}
