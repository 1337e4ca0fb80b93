//go:build e2e

package e2e

import (
	"fmt"
	"net/http/httptest"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// standIn is what every host's stand-in model API shares: its server, the
// lock over what it records, and what went wrong inside its handler, which
// cannot fail the test from its goroutine.
type standIn struct {
	srv  *httptest.Server
	mu   sync.Mutex
	errs []error
}

func (s *standIn) URL() string { return s.srv.URL }

// failures returns what went wrong inside the handler.
func (s *standIn) failures() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

func (s *standIn) fail(err error) {
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.mu.Unlock()
}

// play answers the n-th turn (from 1) of a script: its edit of the state
// file first, as an agent would make it, then its text; past the script, a
// turn that records nothing.
func (s *standIn) play(turns []turn, n int, state string) string {
	if n > len(turns) {
		return fmt.Sprintf("Turn %d: nothing new to record.", n)
	}
	tr := turns[n-1]
	if tr.edit != nil {
		if err := tr.edit(state); err != nil {
			s.fail(fmt.Errorf("turn %d: editing %s: %v", n, state, err))
		}
	}
	if tr.text == "" {
		return fmt.Sprintf("Turn %d done.", n)
	}
	return tr.text
}

// ownGroup runs a host in a process group of its own: hosts start their
// hooks (and some themselves again) as children, so on timeout the whole
// group is killed, and no run waits for ever on pipes a stray child holds.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
}
