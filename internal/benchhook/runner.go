package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The timed runs are not started by benchhook's main process but by a
// fresh copy of it, the runner, one per case, so that they owe nothing to
// what benchhook did before (writing the cases grows it to tens of MB), and
// for the sake of the peak RSS figures. Linux reports as a child's
// ru_maxrss the larger of its own peak and its parent's peak at the time of
// the exec (Go starts children with vfork, so at exec the child gives up its
// parent's address space, and exec_mmap records that space's high-water
// mark in the child's maxrss): started from benchhook itself, every child
// would read tens of MB. The runner does nothing but time the runs, with
// stdin, stdout and stderr as plain files (no copying goroutines, no
// buffers), so its own peak stays near the Go runtime's minimum, 4 to 5 MB;
// it reports that peak, and readings at or under it are shown as upper
// bounds. On Linux, a few more runs, traced, give each program's exact peak
// (peak_linux.go), and the table shows those.

const runnerArg = "__benchhook_runner"

type job struct {
	Loophook, Floor string
	Args            []string // loophook's
	FloorArgs       []string // the floor's: none, but loophook's when -against
	Dir             string
	Env             []string
	Stdin           []byte
	N, Warmup       int
	MaxTime         time.Duration
	WantOK          *bool  // nil: any verdict will do
	OutDir          string // scratch space for the children's stdout and stderr
	// Fresh is removed before each loophook run, untimed: the hook's
	// memory, for a case of first stops.
	Fresh string
	// FloorRaw is a floor that is no hook (cat): its output goes to
	// /dev/null, unchecked.
	FloorRaw bool
}

type sample struct {
	Wall   time.Duration
	CPU    time.Duration // user + system
	RSS    int64         // peak, bytes
	Faults int64         // pages faulted in
}

type failure struct {
	Prog, What     string
	Run            int
	Stdout, Stderr string
}

type jobResult struct {
	Loop, Floor []sample
	// ExactLoop and ExactFloor are the peaks of a few traced runs (see
	// peak_linux.go), 0 where tracing is not available (ExactErr says why).
	ExactLoop, ExactFloor int64
	ExactErr              string
	LastOutput            string // loophook's last answer
	Stopped               bool   // MaxTime cut the runs short
	SpawnerPeak           int64  // the runner's own peak RSS, bytes
	Fail                  *failure
}

// runRunner is the runner's main: a job on stdin, a jobResult on stdout.
func runRunner() int {
	var j job
	if err := json.NewDecoder(os.Stdin).Decode(&j); err != nil {
		fmt.Fprintf(os.Stderr, "benchhook runner: reading the job: %v\n", err)
		return 1
	}
	res, err := j.run()
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchhook runner: %v\n", err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintf(os.Stderr, "benchhook runner: %v\n", err)
		return 1
	}
	return 0
}

// prog is one of the two programs with its scratch files.
type prog struct {
	name   string
	path   string
	args   []string
	stdout *os.File
	stderr *os.File
	buf    []byte // reused to read stdout
}

func (j *job) run() (*jobResult, error) {
	progs := []*prog{
		{name: "loophook", path: j.Loophook, args: j.Args},
		{name: "floor", path: j.Floor, args: j.FloorArgs},
	}
	for _, p := range progs {
		var err error
		out := filepath.Join(j.OutDir, p.name+".stdout")
		if p.name == "floor" && j.FloorRaw {
			out = os.DevNull
		}
		if p.stdout, err = os.OpenFile(out, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644); err != nil {
			return nil, err
		}
		defer p.stdout.Close()
		if p.stderr, err = os.Create(filepath.Join(j.OutDir, p.name+".stderr")); err != nil {
			return nil, err
		}
		defer p.stderr.Close()
	}
	res := &jobResult{}
	minRuns := min(j.N, 10)
	var start time.Time
	for i := 0; i < j.Warmup+j.N; i++ {
		if i == j.Warmup {
			start = time.Now()
		}
		for k, p := range progs { // alternating: loophook, floor, loophook, ...
			if k == 0 && j.Fresh != "" {
				if err := os.RemoveAll(j.Fresh); err != nil {
					return nil, err
				}
			}
			s, fail, err := j.once(p, i+1, k == 0)
			if err != nil {
				return nil, err
			}
			if fail != nil {
				res.Fail = fail
				return res, nil
			}
			if i >= j.Warmup {
				if k == 0 {
					res.Loop = append(res.Loop, s)
				} else {
					res.Floor = append(res.Floor, s)
				}
			}
		}
		// Collect this pair's garbage now, between runs: left to itself
		// the heap would grow to the GC's 4 MB minimum goal and take the
		// runner's peak RSS, and so every child's reading, up with it.
		runtime.GC()
		if done := i + 1 - j.Warmup; done >= minRuns && done < j.N && time.Since(start) > j.MaxTime {
			res.Stopped = true
			break
		}
	}
	res.SpawnerPeak = selfPeakRSS()
	res.LastOutput = string(progs[0].buf) // now that the timing is over

	// A few more runs, traced and not timed, for each one's exact peak RSS.
	for i := 0; i < 3 && res.ExactErr == ""; i++ {
		for k, p := range progs {
			if k == 0 && j.Fresh != "" {
				os.RemoveAll(j.Fresh)
			}
			peak, err := exactPeakRSS(p.path, p.args, j.Dir, j.Env, j.Stdin)
			if err != nil {
				res.ExactLoop, res.ExactFloor, res.ExactErr = 0, 0, err.Error()
				break
			}
			if k == 0 {
				res.ExactLoop = max(res.ExactLoop, peak)
			} else {
				res.ExactFloor = max(res.ExactFloor, peak)
			}
		}
	}
	return res, nil
}

// once runs p and checks its answer; a failure is the program's fault, an
// error the runner's.
func (j *job) once(p *prog, run int, isLoophook bool) (sample, *failure, error) {
	raw := !isLoophook && j.FloorRaw
	for _, f := range []*os.File{p.stdout, p.stderr} {
		if raw && f == p.stdout {
			continue
		}
		if err := f.Truncate(0); err != nil {
			return sample{}, nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return sample{}, nil, err
		}
	}
	// Hooks get their input through a pipe. Inputs are small enough for
	// the pipe's buffer, so it is written whole before the start.
	r, w, err := os.Pipe()
	if err != nil {
		return sample{}, nil, err
	}
	writeErr := make(chan error, 1)
	if len(j.Stdin) <= 4096 {
		_, err := w.Write(j.Stdin)
		w.Close()
		writeErr <- err
	} else {
		go func() {
			_, err := w.Write(j.Stdin)
			w.Close()
			writeErr <- err
		}()
	}
	cmd := exec.Command(p.path, p.args...)
	cmd.Dir = j.Dir
	cmd.Env = j.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, p.stdout, p.stderr
	t0 := time.Now()
	runErr := cmd.Run()
	wall := time.Since(t0)
	r.Close()
	<-writeErr // a program may exit without reading its input: not our concern

	if raw {
		if runErr != nil {
			return sample{}, nil, fmt.Errorf("running %s: %w", p.path, runErr)
		}
		return sample{Wall: wall, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
			RSS: maxRSS(cmd.ProcessState), Faults: faults(cmd.ProcessState)}, nil, nil
	}
	// Read what it printed (the offset is shared with the child's).
	n, err := p.stdout.Seek(0, io.SeekCurrent)
	if err != nil {
		return sample{}, nil, err
	}
	if int64(cap(p.buf)) < n {
		p.buf = make([]byte, n)
	}
	p.buf = p.buf[:n]
	if _, err := p.stdout.ReadAt(p.buf, 0); err != nil && err != io.EOF {
		return sample{}, nil, err
	}
	fail := func(what string) *failure {
		f := &failure{Prog: p.name, Run: run, What: what, Stdout: string(p.buf)}
		if b, err := os.ReadFile(p.stderr.Name()); err == nil {
			f.Stderr = string(b)
		}
		return f
	}
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return sample{}, nil, fmt.Errorf("running %s: %w", p.path, runErr)
		}
		return sample{}, fail(fmt.Sprintf("exited with %v (a hook must always exit 0)", runErr)), nil
	}
	ok, err := checkVerdict(p.buf)
	if err != nil {
		return sample{}, fail("its output is not one JSON verdict: " + err.Error()), nil
	}
	if isLoophook && j.WantOK != nil && ok != *j.WantOK {
		return sample{}, fail(fmt.Sprintf("it answered ok=%v where this case expects ok=%v (-check-verdict=false times it anyway)", ok, *j.WantOK)), nil
	}
	return sample{
		Wall:   wall,
		CPU:    cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		RSS:    maxRSS(cmd.ProcessState),
		Faults: faults(cmd.ProcessState),
	}, nil, nil
}

// checkVerdict checks that out is exactly one JSON object whose "ok" is a
// boolean, with a string "reason" if any, and returns ok. It allocates
// little, whatever the size of the reason, to keep the runner small.
func checkVerdict(out []byte) (bool, error) {
	if !json.Valid(out) {
		var v any
		err := json.Unmarshal(out, &v)
		if err == nil {
			err = errors.New("invalid JSON")
		}
		if len(bytes.TrimSpace(out)) == 0 {
			err = errors.New("empty")
		}
		return false, err
	}
	if t := bytes.TrimSpace(out); t[0] != '{' {
		return false, errors.New("a JSON value but not an object")
	}
	var v struct {
		OK       *bool       `json:"ok"`
		Decision *string     `json:"decision"`
		Reason   stringCheck `json:"reason"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return false, err
	}
	if v.OK == nil {
		// A host's own wire: a block goes on, anything else lets go.
		ok := v.Decision == nil || *v.Decision != "block"
		v.OK = &ok
	}
	if v.Reason.present && !v.Reason.isString {
		return false, errors.New(`"reason" is not a string`)
	}
	return *v.OK, nil
}

// stringCheck notes whether a JSON value is a string without copying it.
type stringCheck struct{ present, isString bool }

func (s *stringCheck) UnmarshalJSON(b []byte) error {
	s.present, s.isString = true, len(b) > 0 && b[0] == '"'
	return nil
}

// selfPeakRSS is this process's peak RSS in bytes (Linux only; 0 elsewhere).
func selfPeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}
