//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
)

// exactPeakRSS runs the program once under ptrace, stops it on its way out
// (PTRACE_O_TRACEEXIT, before its memory is released) and reads VmHWM from
// /proc: the high-water mark of the program's own address space, which,
// unlike ru_maxrss, owes nothing to the process that started it. The run is
// not timed: tracing slows it.
func exactPeakRSS(path string, args []string, dir string, env []string, stdin []byte) (int64, error) {
	// Every ptrace request must come from the thread that is the tracer:
	// the one that starts the child.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	go func() {
		w.Write(stdin)
		w.Close()
	}()
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	defer devnull.Close()

	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, devnull, devnull
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	defer cmd.Process.Release()

	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		return 0, err
	}
	if !ws.Stopped() { // it should stop at the exec
		return 0, fmt.Errorf("traced child did not stop at exec: %v", ws)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT|ptraceOExitKill); err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		syscall.Wait4(pid, &ws, 0, nil)
		return 0, err
	}
	var peak int64
	var readErr error
	sig := 0
	for {
		// ESRCH: it was no longer stopped (a SIGKILL from its own
		// exit_group woke it, say); the wait below still sees it end.
		if err := syscall.PtraceCont(pid, sig); err != nil && err != syscall.ESRCH {
			return 0, err
		}
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			return 0, err
		}
		switch {
		case ws.Exited() || ws.Signaled():
			if peak == 0 {
				if readErr == nil {
					readErr = errors.New("the traced child ended without an exit stop")
				}
				return 0, readErr
			}
			return peak, nil
		case ws.Stopped() && ws.StopSignal() == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_EXIT:
			peak, readErr = vmHWM(fmt.Sprintf("/proc/%d/status", pid))
			sig = 0
		case ws.Stopped():
			sig = int(ws.StopSignal()) // pass the signal on (Go's runtime uses a few)
			if sig == int(syscall.SIGTRAP) {
				sig = 0
			}
		}
	}
}

// ptraceOExitKill is PTRACE_O_EXITKILL (linux/ptrace.h), which syscall
// lacks: the tracee dies if the tracer does.
const ptraceOExitKill = 0x100000

// vmHWM reads the VmHWM line of a /proc status file, in bytes.
func vmHWM(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err != nil {
				return 0, err
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM in %s", path)
}
