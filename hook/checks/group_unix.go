//go:build unix

package checks

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// group is a check's process group, whose id is its shell's pid: killing
// it reaches every process the check starts that stays in it.
type group struct {
	mu     sync.Mutex
	pgid   int
	reaped bool
}

// ownGroup starts the check in a process group of its own.
func ownGroup(cmd *exec.Cmd) *group {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &group{}
}

func (g *group) started(p *os.Process) error {
	g.pgid = p.Pid
	return nil
}

// kill kills the whole group while its leader is not reaped: after that,
// its id could name another's group.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.reaped {
		syscall.Kill(-g.pgid, syscall.SIGKILL)
	}
}

// wait waits for the shell, kills what it left in its group, and reaps
// it.
func (g *group) wait(cmd *exec.Cmd) error { return g.end(cmd, exited(g.pgid)) }

// end kills what the shell left in its group and reaps the shell. held
// says the shell has exited unreaped, so that its pid still holds the
// group's id while the group is killed. Where it cannot be held so (every
// unix but Linux), the shell is reaped first and its group killed after:
// a child left in it keeps the id; killing first would kill the check
// as it starts.
func (g *group) end(cmd *exec.Cmd, held bool) error {
	if !held {
		err := cmd.Wait()
		g.mu.Lock()
		defer g.mu.Unlock()
		syscall.Kill(-g.pgid, syscall.SIGKILL)
		g.reaped = true
		return err
	}
	g.kill()
	g.mu.Lock()
	g.reaped = true
	g.mu.Unlock()
	return cmd.Wait()
}

func (g *group) close() {}
