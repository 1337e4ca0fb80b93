//go:build unix

package checks

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
