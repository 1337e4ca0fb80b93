//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestExactPeakRSS(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	dir := t.TempDir()
	floor := filepath.Join(dir, "floor")
	if out, err := exec.Command(goBin, "build", "-o", floor, "../floor").CombinedOutput(); err != nil {
		t.Fatalf("building the floor: %v\n%s", err, out)
	}
	// Grow this process well past the floor's size: ru_maxrss would report
	// it for the child, the traced peak must not.
	ballast := make([]byte, 64<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	peak, err := exactPeakRSS(floor, nil, dir, os.Environ(), makeInput(dir, "/nonexistent", nil))
	if err != nil {
		t.Skipf("ptrace unavailable here: %v", err)
	}
	t.Logf("floor's peak RSS: %d KiB", peak>>10)
	if peak < 256<<10 || peak > 32<<20 {
		t.Errorf("floor's peak RSS is %d bytes", peak)
	}
	_ = ballast[len(ballast)-1]
}
