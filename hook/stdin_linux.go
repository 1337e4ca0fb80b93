package hook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// readFileStdin is readStdin for a stdin that is a file or a pipe, with no
// goroutine and no timer: it waits for input with select(2) and reads on
// this thread, which costs a hook call less than starting Go's poller. ok
// is false when the file cannot be waited on that way.
func readFileStdin(f *os.File) (data []byte, ok bool, err error) {
	fd := int(f.Fd())
	if fd >= syscall.FD_SETSIZE {
		return nil, false, nil
	}
	var scan objectScan
	deadline := time.Now().Add(inputDeadline)
	graceEnd := time.Time{}
	buf := make([]byte, 4<<10)
	for {
		until := deadline
		if !graceEnd.IsZero() {
			until = graceEnd
		}
		ready, err := waitReadable(fd, time.Until(until))
		if err != nil {
			return nil, false, nil
		}
		if !ready {
			switch {
			case !graceEnd.IsZero():
				return data, true, nil
			case len(data) == 0:
				return nil, true, fmt.Errorf(inputNothing, inputDeadline)
			}
			return nil, true, fmt.Errorf(inputUnfinished, inputDeadline)
		}
		n, err := f.Read(buf)
		data = append(data, buf[:n]...)
		if n > 0 {
			// The deadline is for input that stops coming, not for a
			// large one still arriving.
			deadline = time.Now().Add(inputDeadline)
			if n == len(buf) && len(buf) < 256<<10 {
				buf = make([]byte, 256<<10)
			}
		}
		if len(data) > MaxInput {
			return data, true, nil
		}
		if scan.feed(buf[:n]) && graceEnd.IsZero() {
			graceEnd = time.Now().Add(inputGrace)
		}
		switch {
		case errors.Is(err, io.EOF):
			return data, true, nil
		case err != nil:
			return nil, true, fmt.Errorf(inputUnreadable, err)
		}
	}
}

// waitReadable waits up to d for fd to have input (or its end).
func waitReadable(fd int, d time.Duration) (bool, error) {
	if d < 0 {
		d = 0
	}
	for {
		var set syscall.FdSet
		set.Bits[fd/64] |= 1 << (uint(fd) % 64)
		tv := syscall.NsecToTimeval(d.Nanoseconds())
		n, err := syscall.Select(fd+1, &set, nil, nil, &tv)
		if err == syscall.EINTR {
			continue
		}
		return n > 0, err
	}
}
