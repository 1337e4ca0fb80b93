//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The interactive Droid: plain `droid`, its terminal UI, run on a
// pseudo-terminal of its own with its first message on the command line,
// so that no keystroke and no reading of the screen drives it.

// droidUITimeout bounds one run of the UI until it is done: it starts in
// a few seconds on an idle machine.
const droidUITimeout = 2 * time.Minute

// droidUISettings are what the UI needs besides the custom model: it has
// no -m, so the session's default model (Droid names a custom model
// "custom:" + its displayName dashed + "-" + its index); autonomy high,
// so that the Execute tool runs without asking; and the project's folder
// trusted, or the UI asks first (PROTOCOL.md §3).
func droidUISettings(p *project) map[string]any {
	return map[string]any{
		"sessionDefaultSettings": map[string]any{"model": "custom:e2e-stand-in-0", "autonomyMode": "auto-high"},
		"trustedFolders":         map[string]any{p.dir: map[string]any{"trustedAt": "2026-01-01T00:00:00.000Z"}},
	}
}

// runDroidUI runs plain droid in the project with prompt, on a terminal of
// its own, until done (polled) reports true, and then kills its process
// group: the UI never exits by itself, it waits for the next message.
func runDroidUI(t *testing.T, cli droidCLI, p *project, api *chatAPI, prompt string, done func() bool) {
	t.Helper()
	writeDroidSettings(t, p, api.URL(), droidUISettings(p))
	master, tty, err := openPTY(50, 160)
	if err != nil {
		t.Fatalf("a pseudo-terminal for droid: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(cli.bin, prompt)
	cmd.Dir = p.dir
	cmd.Env = append(droidEnv(p), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	// A session of its own with the terminal as its controlling one (Ctty
	// 0: its stdin), and so a process group of its own to kill.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	err = cmd.Start()
	tty.Close()
	if err != nil {
		t.Fatalf("droid: %v", err)
	}
	screen := &lastBytes{max: 4096}
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(screen, master); close(copied) }()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var failure string
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(droidUITimeout)
wait:
	for {
		select {
		case <-tick.C:
			if done() {
				break wait
			}
		case err := <-exited:
			failure = fmt.Sprintf("droid exited before it was done: %v", err)
			exited <- err
			break wait
		case <-deadline:
			failure = fmt.Sprintf("droid was not done within %v", droidUITimeout)
			break wait
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	<-exited
	master.Close()
	<-copied
	t.Logf("droid %s (the UI) ran %v", cli.version, time.Since(start).Round(time.Millisecond))
	if failure != "" {
		t.Fatalf("%s\nthe screen's last bytes: %q", failure, screen)
	}
}

// openPTY opens a pseudo-terminal of rows×cols: its master, and the
// terminal a program runs on. The master stays in Go's poller (no Fd
// call), so that closing it ends a read.
func openPTY(rows, cols uint16) (master, tty *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	rc, err := master.SyscallConn()
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	n := 0
	if cerr := rc.Control(func(fd uintptr) {
		if err = unix.IoctlSetPointerInt(int(fd), unix.TIOCSPTLCK, 0); err == nil {
			n, err = unix.IoctlGetInt(int(fd), unix.TIOCGPTN)
		}
	}); cerr != nil {
		err = cerr
	}
	if err == nil {
		tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	}
	if err == nil {
		err = unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols})
	}
	if err != nil {
		master.Close()
		if tty != nil {
			tty.Close()
		}
		return nil, nil, err
	}
	return master, tty, nil
}

// lastBytes keeps the last max bytes written to it: the end of a
// terminal's output, for a failing test's reader.
type lastBytes struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (l *lastBytes) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if len(l.b) > l.max {
		l.b = l.b[len(l.b)-l.max:]
	}
	return len(p), nil
}

func (l *lastBytes) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}
