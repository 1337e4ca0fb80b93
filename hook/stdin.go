package hook

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// How long the hook waits on stdin. A host that never closes it must not
// hold the turn: once a whole JSON object has arrived, the hook waits only
// a moment for the end of the input (or for more, which makes the input
// two values), and if input stops coming for inputDeadline before a whole
// object has, it gives up. The deadline only ever runs out on a broken
// host, so it is generous: on a loaded machine a writer can pause for
// seconds between two pipe buffers of a large input.
var (
	inputDeadline = 5 * time.Second
	inputGrace    = 50 * time.Millisecond
)

// readStdin reads the hook input: up to MaxInput+1 bytes, until the end of
// the input, or until a whole JSON object has come and nothing follows it
// within inputGrace.
func readStdin(r io.Reader) ([]byte, error) {
	type chunk struct {
		data  []byte
		err   error
		panic any // the reader panicked: so does the caller, who recovers
	}
	chunks := make(chan chunk)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				select {
				case chunks <- chunk{panic: p}:
				case <-done:
				}
			}
		}()
		r := io.LimitReader(r, MaxInput+1)
		for {
			buf := make([]byte, 4<<10) // inputs are small; fresh pages cost
			n, err := r.Read(buf)
			select {
			case chunks <- chunk{data: buf[:n], err: err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var data []byte
	var scan objectScan
	deadline := time.NewTimer(inputDeadline)
	defer deadline.Stop()
	var grace <-chan time.Time
	for {
		select {
		case c := <-chunks:
			if c.panic != nil {
				panic(c.panic)
			}
			data = append(data, c.data...)
			if len(c.data) > 0 {
				// The deadline is for input that stops coming.
				deadline.Reset(inputDeadline)
			}
			if scan.feed(c.data) && grace == nil {
				grace = time.After(inputGrace)
			}
			if errors.Is(c.err, io.EOF) {
				return data, nil
			}
			if c.err != nil {
				return nil, fmt.Errorf(inputUnreadable, c.err)
			}
		case <-grace:
			return data, nil
		case <-deadline.C:
			if len(data) == 0 {
				return nil, fmt.Errorf(inputNothing, inputDeadline)
			}
			return nil, fmt.Errorf(inputUnfinished, inputDeadline)
		}
	}
}

// objectScan follows JSON's nesting through the input as it arrives, to
// tell when the first value is whole.
type objectScan struct {
	depth    int
	started  bool
	inString bool
	escaped  bool
	whole    bool
}

// feed scans more input and reports whether a whole value has come.
func (s *objectScan) feed(data []byte) bool {
	for _, c := range data {
		switch {
		case s.whole:
			return true
		case s.inString:
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
			}
		case c == '"':
			s.inString = true
		case c == '{' || c == '[':
			s.depth++
			s.started = true
		case c == '}' || c == ']':
			s.depth--
			s.whole = s.started && s.depth == 0
		}
	}
	return s.whole
}
