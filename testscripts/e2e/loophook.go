//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The loophook under test, shared by every host's tests.

// built is the loophook under test, built once for every host's tests.
var built struct {
	once sync.Once
	bin  string
	tmp  string // holds bin, unless LOOPHOOK_E2E_LOOPHOOK names one
	err  error
}

// loophookBinary returns the loophook under test, building it on first
// use; when it cannot be built the test fails.
func loophookBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() { built.bin, built.err = buildLoophook() })
	if built.err != nil {
		t.Fatalf("e2e setup: %v", built.err)
	}
	return built.bin
}

// buildLoophook builds ./cmd/loophook into a temp dir, from the module
// root so that it works whatever the test's working directory.
func buildLoophook() (string, error) {
	if bin := os.Getenv("LOOPHOOK_E2E_LOOPHOOK"); bin != "" {
		return filepath.Abs(bin)
	}
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module root: %v", err)
	}
	built.tmp, err = os.MkdirTemp("", "loophook-e2e-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(built.tmp, "loophook")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/loophook/loophook/cmd/loophook")
	cmd.Dir = strings.TrimSpace(string(root))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build cmd/loophook: %v\n%s", err, out)
	}
	return bin, nil
}

// installFor registers loophook for host in the project the way a person
// does, `loophook install --host host` run in it, with env the host's
// own (its HOME, CODEX_HOME...).
func installFor(t *testing.T, p *project, host string, env []string) {
	t.Helper()
	bin := loophookBinary(t)
	cmd := exec.Command(bin, "install", "--host", host, "--scope", "project")
	cmd.Dir = p.dir
	// The built binary is not on PATH: the project scope is given its path.
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + p.home, "LOOPHOOK_BIN=" + bin}, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("loophook install --host %s: %v\n%s", host, err, out)
	}
	t.Logf("loophook install --host %s:\n%s", host, out)
}

// installFromPath is installFor as a person whose loophook is on PATH runs
// it: no LOOPHOOK_BIN, so the project's file runs loophook from PATH,
// behind the guard a committed registration has.
func installFromPath(t *testing.T, p *project, host string, env []string) {
	t.Helper()
	cmd := exec.Command(loophookBinary(t), "install", "--host", host)
	cmd.Dir = p.dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + p.home}, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("loophook install --host %s: %v\n%s", host, err, out)
	}
	t.Logf("loophook install --host %s:\n%s", host, out)
}
