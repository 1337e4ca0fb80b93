// Package checks runs the approved checks of a person's .loophook.json
// (SPEC section 6): each with sh -c at the top of the work tree, in a
// process group of its own killed whole at its timeout, its output kept
// bounded; and it keeps their results, reused while the work tree is
// unchanged.
//
// The checks of one run go side by side, each with its own output, at
// most one per core (GOMAXPROCS) at once, started in the file's order; a
// check marked exclusive runs alone. Every check's timeout is cut to what
// is left of the run's time (Runner.Within), and the results come back in
// the file's order.
package checks

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/loophook/loophook/hook/config"
)

// leftOpen is how long the output is read after the check's group is
// gone, for a process that left the group and keeps the pipe open.
const leftOpen = time.Second

// Result is one run of a check, or the cached result of one.
type Result struct {
	Name      string        `json:"name"`
	Run       string        `json:"run"`
	Criterion string        `json:"criterion,omitempty"`
	Exit      int           `json:"exit"` // the exit status; -1 when it did not exit by itself
	TimedOut  bool          `json:"timedOut,omitempty"`
	Timeout   time.Duration `json:"timeout"`
	Err       string        `json:"error,omitempty"` // why it could not start
	At        time.Time     `json:"at"`              // when it started
	Took      time.Duration `json:"took"`
	Tree      string        `json:"tree,omitempty"` // the work tree's fingerprint; "" outside git
	Env       string        `json:"env,omitempty"`  // the environment's fingerprint (environment)
	Tail      string        `json:"tail"`           // the last lines of its output
	Output    string        `json:"output,omitempty"`
	// Cut says the stop's time, not the check's own timeout, ended it:
	// such a result is not kept for reuse.
	Cut bool `json:"-"`
	// Cached says the result was reused, not run now.
	Cached bool `json:"-"`

	output  []byte // the output kept, for its file
	dropped int64  // how many bytes before it were not kept
}

// Passed reports whether the check exited 0 in time.
func (r Result) Passed() bool { return r.Exit == 0 && !r.TimedOut && r.Err == "" }

// Runner runs the checks of one work tree.
type Runner struct {
	Top string // the top of the work tree, where the checks run
	// Within is the time all checks of one run must stay inside: the
	// host's hook timeout, less a margin. 0 is no limit but each check's.
	Within time.Duration
	// Reuse, when false, runs every check even on a tree it passed on.
	Reuse bool
}

// Run runs the checks, or reuses their results on an unchanged tree,
// keeps what it ran in the cache as each ends, and returns every result
// in the checks' order.
//
// The checks it runs go side by side, started in the file's order, at
// most GOMAXPROCS (one per core) at once: each starts when a slot is
// free. An exclusive check waits for every running one to end, runs
// alone, and the next starts only after it.
//
// Checks that share a command, and so its place in the cache, run it once,
// as the first of them says (alone if any is marked so), and take its
// result alike: run twice, a failure could be kept under a pass.
func (rn Runner) Run(cs []config.Check) []Result {
	if len(cs) == 0 {
		return nil
	}
	start := time.Now()
	tree := Fingerprint(rn.Top)
	c := openCache(rn.Top)
	out := make([]Result, len(cs))
	var todo []int
	first := map[string]int{} // the first check of each command to run
	same := map[int]int{}     // a later check of a command: the first's index
	for i, ch := range cs {
		if r, ok := c.reuse(ch, tree); ok && rn.Reuse {
			out[i] = r
			continue
		}
		if j, ok := first[ch.Run]; ok {
			same[i] = j
			continue
		}
		first[ch.Run] = i
		todo = append(todo, i)
	}
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var keeping sync.Mutex // one result into the cache at a time
	var wg sync.WaitGroup
	for _, i := range todo {
		ch := cs[i]
		for k, j := range same {
			if j == i && cs[k].Exclusive {
				ch.Exclusive = true
			}
		}
		if ch.Exclusive {
			wg.Wait()
		}
		slots <- struct{}{}
		// Each check gets what is left of the stop's time when it starts.
		limit, cut := ch.Timeout, false
		if rn.Within > 0 {
			if left := rn.Within - time.Since(start); left < limit {
				limit, cut = max(left, 0), true
			}
		}
		wg.Go(func() {
			defer func() { <-slots }()
			r := run(ch, rn.Top, limit)
			r.Tree = tree
			r.Cut = cut && r.TimedOut
			r.Timeout = ch.Timeout
			if r.Cut {
				r.Timeout = limit
			}
			keeping.Lock()
			defer keeping.Unlock()
			out[i] = c.keep(r)
		})
		if ch.Exclusive {
			wg.Wait()
		}
	}
	wg.Wait()
	for i, j := range same {
		r := out[j]
		r.Name, r.Criterion = cs[i].Name, cs[i].Criterion
		out[i] = r
	}
	return out
}

// run runs one check within limit. Its output, standard output and
// standard error together, goes through a pipe whose write end only the
// check's process group (on Windows, its job object) holds; after the
// shell exits, the whole group is killed, so no child it left in the
// background outlives the run.
func run(ch config.Check, top string, limit time.Duration) (r Result) {
	r = Result{Name: ch.Name, Run: ch.Run, Criterion: ch.Criterion, Exit: -1, At: time.Now().UTC()}
	out := newRing(MaxOutput)
	defer func() {
		r.Took = time.Since(r.At).Round(time.Millisecond)
		b := out.Bytes()
		r.Tail = tail(b)
		r.output, r.dropped = b, out.dropped()
	}()
	if limit <= 0 {
		r.TimedOut = true
		return r
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		r.Err = err.Error()
		return r
	}
	sh, err := shell()
	if err != nil {
		pw.Close()
		pr.Close()
		r.Err = err.Error()
		return r
	}
	cmd := exec.Command(sh, "-c", ch.Run)
	cmd.Dir = top
	cmd.Stdin = nil // the null device
	cmd.Stdout, cmd.Stderr = pw, pw
	g := ownGroup(cmd)
	defer g.close()
	err = cmd.Start()
	if err == nil {
		err = g.started(cmd.Process)
		if err != nil {
			cmd.Wait()
		}
	}
	pw.Close()
	if err != nil {
		pr.Close()
		r.Err = err.Error()
		return r
	}
	read := make(chan struct{})
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := pr.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				break
			}
		}
		pr.Close()
		close(read)
	}()
	killed := make(chan struct{})
	timer := time.AfterFunc(limit, func() {
		close(killed)
		g.kill()
	})
	err = g.wait(cmd) // and kills what the shell left behind
	timer.Stop()
	select {
	case <-read:
	case <-time.After(leftOpen):
		// A process that left the group still holds the pipe: the output
		// ends here.
		pr.Close()
		<-read
	}
	select {
	case <-killed:
		r.TimedOut = true
		return r
	default:
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		r.Exit = 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		r.Exit = exit.ExitCode()
	case errors.As(err, &exit):
		r.Err = exit.String() // killed by a signal
	default:
		r.Err = fmt.Sprint(err)
	}
	return r
}
