//go:build unix

package checks

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/hook/config"
)

// TestGroupEndsWithoutWaitid: where the shell cannot be waited for
// unreaped (every unix but Linux), a check still runs to its own end,
// and what it left in its group is killed after it.
func TestGroupEndsWithoutWaitid(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", "sleep 0.3; sleep 60 & echo $! > child; exit 4")
	cmd.Dir = dir
	g := ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g.started(cmd.Process)
	var exit *exec.ExitError
	if err := g.end(cmd, false); !errors.As(err, &exit) || exit.ExitCode() != 4 {
		t.Fatalf("the check did not run to its end: %v", err)
	}
	pid, err := os.ReadFile(filepath.Join(dir, "child"))
	if err != nil {
		t.Fatal(err)
	}
	if alive(t, strings.TrimSpace(string(pid))) {
		t.Errorf("child %s outlived the check", pid)
	}
}

// TestSideBySideGroupsApart: of two checks side by side, the one past its
// timeout is killed with its group, and the other runs on to pass; a child
// one leaves outside its group holds its own output open, not the other's.
func TestSideBySideGroupsApart(t *testing.T) {
	slots(t, 2)
	escape := "sleep 4 &"
	if _, err := exec.LookPath("setsid"); err == nil {
		escape = "setsid sleep 4 &"
	}
	cs := []config.Check{
		{Name: "slow", Run: "sleep 30", Timeout: 300 * time.Millisecond},
		{Name: "left", Run: escape + " echo left", Timeout: time.Minute},
		{Name: "next", Run: "sleep 1; echo next", Timeout: time.Minute},
	}
	rs := Runner{Top: t.TempDir()}.Run(cs)
	if !rs[0].TimedOut || rs[0].Cut {
		t.Errorf("slow: %s", rs[0].Cause())
	}
	if !rs[1].Passed() || rs[1].Tail != "left" || rs[1].Took > 3*time.Second {
		t.Errorf("left: %s after %v, %q", rs[1].Cause(), rs[1].Took, rs[1].Tail)
	}
	if !rs[2].Passed() || rs[2].Tail != "next" || rs[2].Took > 3*time.Second {
		t.Errorf("next: %s after %v, %q", rs[2].Cause(), rs[2].Took, rs[2].Tail)
	}
}
